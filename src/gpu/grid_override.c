#include "grid_override.h"

#include "summation_order.h"

static int forced_blocks;
static unsigned long forced_uses;

static int capped(int blocks)
{
    return blocks < 1 ? 1 : blocks > MAX_GRID_BLOCKS ? MAX_GRID_BLOCKS : blocks;
}

void set_grid_override(int blocks)
{
    forced_blocks = blocks > 0 ? capped(blocks) : 0;
}

int launch_grid(int chosen)
{
    if (forced_blocks == 0)
        return capped(chosen);
    ++forced_uses;
    return forced_blocks;
}

unsigned long forced_grid_uses(void) { return forced_uses; }

void forced_grids(int sm_count, int grids[FORCED_GRID_COUNT])
{
    const int all[FORCED_GRID_COUNT] = {1, 7, sm_count / 2, sm_count, 2 * sm_count};
    for (int i = 0; i < FORCED_GRID_COUNT; ++i)
        grids[i] = capped(all[i]);
}
