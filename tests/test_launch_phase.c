/* The sample loop's empty launches (launch_phase.h): whatever a sample
 * launches, every cycle of samples meets each launch phase equally often. */
#include "check.h"
#include "launch_phase.h"

/* Phases of samples from .. from + count - 1 when each sample launches `per_sample`
 * times and the first starts in `first`, counted into seen[]. */
static void count_phases(int first, int per_sample, int from, int count, int seen[LAUNCH_PHASES])
{
    int launches = first;
    for (int t = 0; t < from + count; ++t) {
        launches += launches_before_sample(t);
        if (t >= from)
            ++seen[launches % LAUNCH_PHASES];
        launches += per_sample;
    }
}

static void every_cycle_should_meet_each_phase_equally_often(void)
{
    for (int per_sample = 0; per_sample < 2 * LAUNCH_PHASES; ++per_sample)
        for (int first = 0; first < LAUNCH_PHASES; ++first)
            for (int cycle = 0; cycle < 4; ++cycle) {
                int seen[LAUNCH_PHASES] = {0};
                count_phases(first, per_sample, cycle * LAUNCH_PHASE_CYCLE, LAUNCH_PHASE_CYCLE,
                             seen);
                for (int p = 0; p < LAUNCH_PHASES; ++p)
                    CHECK(seen[p] == LAUNCH_PHASE_CYCLE / LAUNCH_PHASES);
            }
}

static void only_every_fourth_sample_after_the_first_should_launch(void)
{
    CHECK(launches_before_sample(0) == 0);
    CHECK(launches_before_sample(1) == 0 && launches_before_sample(3) == 0);
    CHECK(launches_before_sample(4) == 1 && launches_before_sample(8) == 1);
    CHECK(launches_before_sample(5) == 0 && launches_before_sample(99) == 0);
}

int main(void)
{
    RUN_TEST(every_cycle_should_meet_each_phase_equally_often);
    RUN_TEST(only_every_fourth_sample_after_the_first_should_launch);
    return test_exit_code();
}
