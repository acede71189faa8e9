#include "launch_phase.h"

int launches_before_sample(int sample)
{
    return sample > 0 && sample % LAUNCH_PHASES == 0 ? 1 : 0;
}
