/* The widest row step 43 (staged_lane_rows) stages: 32 rows fill a warp's
 * buffer in shared memory (16 KiB at this width); wider rows go to
 * tiled_rows. adaptive_rows (step 28) asks the same question. */
#ifndef STAGED_ROWS_CUH
#define STAGED_ROWS_CUH

#include <cstddef>

constexpr size_t STAGED_MAX_ROW_BYTES = 512;

#endif
