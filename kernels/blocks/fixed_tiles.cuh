/* The fixed tiles of steps 19 (reproducible) and 20 (exact): how an input
 * is cut, as a function of its length and its address's alignment alone -
 * never of the grid - so every launch on every GPU sums the same groups.
 *
 *   head   the elements before the first 16-byte boundary (fewer than a vector)
 *   body   whole 16-byte vectors, cut into tiles of TILE_VECTORS (4 KiB: one
 *          warp's 32 lanes x TILE_LOADS loads; the last tile may be short)
 *   tail   the elements after the last whole vector (fewer than a vector)
 *
 * Tile t is read by warp t mod (the grid's warps); lane l of that warp reads
 * the tile's vectors l, l + 32, ..., l + 32 (TILE_LOADS - 1): each load of
 * the warp is 512 contiguous bytes, and the whole grid reads one window of
 * (warps x 4 KiB) at a time, as step 17's grid-stride loop does. */
#ifndef FIXED_TILES_CUH
#define FIXED_TILES_CUH

#include <cuda/std/cstdint>

constexpr int TILE_LOADS = 8;
constexpr size_t TILE_VECTORS = 32 * TILE_LOADS;
constexpr size_t TILE_VECTOR_BYTES = 16;

struct tile_plan {
    size_t head;         /* elements before the first 16-byte boundary */
    size_t body_vectors; /* whole vectors after them */
    size_t tail_start;   /* the first element after the body */
    size_t tiles;        /* ceil(body_vectors / TILE_VECTORS) */
};

/* n elements of `element_bytes` each at `address` (a multiple of element_bytes). */
__host__ __device__ inline tile_plan plan_tiles(cuda::std::uintptr_t address, size_t n, size_t element_bytes)
{
    tile_plan p;
    const size_t head = (TILE_VECTOR_BYTES - address % TILE_VECTOR_BYTES) % TILE_VECTOR_BYTES / element_bytes;
    p.head = head < n ? head : n;
    p.body_vectors = (n - p.head) * element_bytes / TILE_VECTOR_BYTES;
    p.tail_start = p.head + p.body_vectors * (TILE_VECTOR_BYTES / element_bytes);
    p.tiles = (p.body_vectors + TILE_VECTORS - 1) / TILE_VECTORS;
    return p;
}

#endif
