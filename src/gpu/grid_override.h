/* Standing in for another GPU: a test hook that forces the grid of every
 * launcher that chooses its own (a grid-stride kernel's resident wave, a
 * one-pass kernel's persistent grid, step 18's block per SM). The bits of a
 * floating-point sum computed over a grid of G blocks depend on G; a GPU with
 * another SM count picks another G. Forcing grids of 1, 7, SMs/2, SMs and
 * 2 SMs blocks shows on one GPU whether a method's bits would survive the
 * move (test_grid_independence asserts it for METHOD_GRID_INDEPENDENT
 * methods; bench_compare's grid column reports it for all).
 *
 * Every such launcher passes its choice through launch_grid, in its workspace
 * query and its launch alike, so a workspace queried under a forced grid fits
 * that grid. Launchers whose grid n dictates - the pass kernels and the atomic
 * steps, one block per fixed number of inputs - do not: their grid is the same
 * on every GPU, and so are their bits for a given n (and pass strategy).
 * Vendor libraries choose their own grids, out of the hook's reach. */
#ifndef GRID_OVERRIDE_H
#define GRID_OVERRIDE_H

#ifdef __cplusplus
extern "C" {
#endif

#define FORCED_GRID_COUNT 5

/* From the next launcher call on, every grid-choosing launcher runs `blocks`
 * blocks (capped at MAX_GRID_BLOCKS, summation_order.h); 0 turns it off.
 * For tests and the grid check only: not thread-safe, and a forced grid is
 * slower than the launcher's own. */
void set_grid_override(int blocks);

/* The grid a launcher runs: the forced one while set, else `chosen`; never
 * more than MAX_GRID_BLOCKS (which the summation orders' bound assumes). */
int launch_grid(int chosen);

/* How many times launch_grid has returned a forced grid: whether a method's
 * launcher took the hook at all (if not, its grid is not the launcher's
 * choice, and forcing it shows nothing). */
unsigned long forced_grid_uses(void);

/* The grids to force on a GPU of sm_count SMs: 1, 7, SMs/2, SMs, 2 SMs. */
void forced_grids(int sm_count, int grids[FORCED_GRID_COUNT]);

#ifdef __cplusplus
}
#endif

#endif
