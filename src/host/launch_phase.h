/* Samples spread over the launch phases.
 *
 * On an H200 some steps time about 4% apart depending on how many launches
 * (kernels and memsets) the process made before their samples, counted
 * modulo 4: the segment steps that end with the tiles' last kernel (36 and
 * 37) are fast in two phases and slow in the other two, each phase steady
 * over a thousand samples, while most one-kernel steps move by 1% or less
 * (bench/results/experiments/h200_place_effect_launches_9ab68b9.log,
 * h200_phase_survey_b2354b3.log; bench/NOTES.md, session 61). Left alone,
 * a method's median would depend on its warm-up count and on the methods
 * timed before it. Why the GPU keeps such a phase is not known.
 *
 * So the sample loop makes one empty launch before every fourth timed
 * sample. Whatever a sample itself launches (k launches, unknown: a
 * vendor's are its own), sample t then starts in phase
 * p0 + t k + floor(t / 4) (mod 4), and every run of LAUNCH_PHASE_CYCLE
 * samples from a multiple of it meets each phase equally often
 * (tests/test_launch_phase.c checks it for every k and p0). */
#ifndef LAUNCH_PHASE_H
#define LAUNCH_PHASE_H

#define LAUNCH_PHASES 4
/* Samples in which every phase comes up equally often, whatever k. */
#define LAUNCH_PHASE_CYCLE (LAUNCH_PHASES * LAUNCH_PHASES)

/* Empty launches to make before timed sample `sample` (0-based): one
 * before every fourth, none before the first. */
int launches_before_sample(int sample);

#endif
