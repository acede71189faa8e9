#include "registry.h"

#include <string.h>

/* Each symbol below is defined by one file: kernels/NN_name.cu,
 * a file in vendor_shims/, or src/cpu_baselines.c. To add a method: write the file,
 * declare its launcher here, add its row to the table. */

/* kernels/ (launchers and pass kernels) */
int atomic_naive_reduce(const float *, size_t, float *, void *, cudaStream_t);
int smem_serial_atomic_reduce(const float *, size_t, float *, void *, cudaStream_t);
extern const struct pass_kernel interleaved_divergent_pass;
extern const struct pass_kernel interleaved_strided_pass;
extern const struct pass_kernel sequential_addressing_pass;
extern const struct pass_kernel first_add_during_load_pass;
extern const struct pass_kernel unrolled_loop_pass;
extern const struct pass_kernel unrolled_last_warp_pass;
extern const struct pass_kernel completely_unrolled_pass;
int multiple_elements_reduce(const float *, size_t, float *, void *, cudaStream_t);
int multiple_elements_workspace(size_t, size_t *);
int tree_atomic_reduce(const float *, size_t, float *, void *, cudaStream_t);
int warp_shuffle_atomic_reduce(const float *, size_t, float *, void *, cudaStream_t);
extern const struct pass_kernel multi_kernel_pass;
int grid_stride_shuffle_reduce(const float *, size_t, float *, void *, cudaStream_t);
int grid_stride_shuffle_workspace(size_t, size_t *);
int cg_reduce_reduce(const float *, size_t, float *, void *, cudaStream_t);
int cg_reduce_workspace(size_t, size_t *);
int vec4_reduce(const float *, size_t, float *, void *, cudaStream_t);
int vec4_workspace(size_t, size_t *);
int single_pass_reduce(const float *, size_t, float *, void *, cudaStream_t);
int single_pass_workspace(size_t, size_t *);
int one_pass_ilp_reduce(const float *, size_t, float *, void *, cudaStream_t);
int one_pass_ilp_workspace(size_t, size_t *);
int tma_ring_reduce(const float *, size_t, float *, void *, cudaStream_t);
int tma_ring_workspace(size_t, size_t *);

/* vendor_shims/ */
int cub_sum_reduce(const float *, size_t, float *, void *, cudaStream_t);
int cub_sum_workspace(size_t, size_t *);
int thrust_reduce_reduce(const float *, size_t, float *, void *, cudaStream_t);
int cublas_sasum_reduce(const float *, size_t, float *, void *, cudaStream_t);

/* src/cpu_baselines.c */
float cpu_loop_sum(const float *, size_t);
float cpu_threads_sum(const float *, size_t);

/* A method that adds every element into one float, one after another, stops
 * growing once the running sum's half-ulp exceeds the terms (2^24 + 1 == 2^24
 * in float): past 2^24 elements it is refused rather than allowed to return a
 * wrong sum. (Seen at 2^31 + 5 uniform floats: both returned exactly 2^24.) */
#define FLOAT_CHAIN_MAX_N ((size_t)1 << 24)

const struct method METHODS[] = {
    {"atomic_naive", FAMILY_PROGRESSION, "seed 004 step 0",
     "every thread atomicAdds its element to one global float",
     .launch = atomic_naive_reduce, .flags = METHOD_ORDER_VARIES, .max_n = FLOAT_CHAIN_MAX_N},
    {"smem_serial_atomic", FAMILY_PROGRESSION, "seed 004 step 1",
     "block loads to shared, thread 0 sums serially, one atomic per block",
     .launch = smem_serial_atomic_reduce, .flags = METHOD_ORDER_VARIES},
    {"reduce0", FAMILY_PROGRESSION, "seeds 000-003, Harris 1",
     "interleaved tree, tid % (2s) picks the adders: divergent warps",
     .pass = &interleaved_divergent_pass},
    {"reduce1", FAMILY_PROGRESSION, "seeds 000, 001, 003, Harris 2",
     "interleaved tree, strided index: no divergence, bank conflicts",
     .pass = &interleaved_strided_pass},
    {"reduce2", FAMILY_PROGRESSION, "seeds 000, 001, 003, Harris 3",
     "sequential addressing: conflict-free, half the threads idle at once",
     .pass = &sequential_addressing_pass},
    {"reduce3", FAMILY_PROGRESSION, "seeds 000, 001, 003, Harris 4",
     "first add during load: every thread adds two inputs, half the blocks",
     .pass = &first_add_during_load_pass},
    {"reduce4", FAMILY_PROGRESSION, "seed 000",
     "tree loop unrolled on a compile-time block size",
     .pass = &unrolled_loop_pass},
    {"reduce5", FAMILY_PROGRESSION, "seeds 000, 001, 003, Harris 5",
     "last warp unrolled, warp-synchronous with __syncwarp (safe on Volta+)",
     .pass = &unrolled_last_warp_pass},
    {"reduce6", FAMILY_PROGRESSION, "seed 003, Harris 6",
     "completely unrolled: block size a template parameter",
     .pass = &completely_unrolled_pass},
    {"reduce7", FAMILY_PROGRESSION, "Harris 7, seed 004 step 5",
     "many elements per thread: grid-stride loop over a fixed grid, 2 launches",
     .launch = multiple_elements_reduce, .workspace = multiple_elements_workspace},
    {"tree_atomic", FAMILY_PROGRESSION, "seed 004 step 2",
     "shared-memory tree per block, one atomicAdd per block",
     .launch = tree_atomic_reduce, .flags = METHOD_ORDER_VARIES},
    {"warp_shuffle_atomic", FAMILY_PROGRESSION, "seed 004 step 3",
     "warp shuffles per block, one atomicAdd per block",
     .launch = warp_shuffle_atomic_reduce, .flags = METHOD_ORDER_VARIES},
    {"multi_kernel", FAMILY_PROGRESSION, "seed 004 step 4",
     "shuffle tree per block, relaunched on the partials: no atomics",
     .pass = &multi_kernel_pass},
    {"grid_stride", FAMILY_MODERN, "seed 004 steps 5-6, cuda-samples 7",
     "grid-stride loop + shuffles, grid sized from SMs x resident blocks",
     .launch = grid_stride_shuffle_reduce, .workspace = grid_stride_shuffle_workspace},
    {"cg_reduce", FAMILY_MODERN, "cuda-samples 8",
     "cooperative groups: tiled_partition<32> and cg::reduce",
     .launch = cg_reduce_reduce, .workspace = cg_reduce_workspace},
    {"vec4", FAMILY_MODERN, "seed 004 steps 6-7",
     "16-byte float4 loads, grid-stride, tuned launch, 2 launches",
     .launch = vec4_reduce, .workspace = vec4_workspace},
    {"single_pass", FAMILY_MODERN, "threadFenceReduction",
     "float4 loads, last block done (fence + counter) sums partials: 1 launch",
     .launch = single_pass_reduce, .workspace = single_pass_workspace},
    {"one_pass_ilp", FAMILY_MODERN, "this suite (issue: beat CUB)",
     "one launch, persistent grid of 1024-thread blocks, 4 float4 loads in flight each",
     .launch = one_pass_ilp_reduce, .workspace = one_pass_ilp_workspace},
    {"tma_ring", FAMILY_MODERN, "this suite (issue: beat CUB)",
     "32 KB bulk copies (TMA) into a shared-memory ring, 1 block/SM; step 17 below 8 ring fills",
     .launch = tma_ring_reduce, .workspace = tma_ring_workspace},
    {"cub", FAMILY_VENDOR, "CCCL cub::DeviceReduce::Sum",
     "vendor reduction; temp storage queried and allocated outside the timing",
     .launch = cub_sum_reduce, .workspace = cub_sum_workspace},
    {"thrust", FAMILY_VENDOR, "CCCL thrust::reduce",
     "as users call it: allocates, syncs, returns the sum to the host",
     .launch = thrust_reduce_reduce,
     .flags = METHOD_ALLOCATES_INTERNALLY | METHOD_RESULT_VIA_HOST},
    {"cublas", FAMILY_VENDOR, "cuBLAS cublasSasum_64",
     "sums |x| (checked against sum |x|); device pointer mode",
     .launch = cublas_sasum_reduce, .flags = METHOD_SUMS_ABS},
    {"cpu_loop", FAMILY_CPU, "seeds 000, 003",
     "plain sequential float loop on one core", .host_sum = cpu_loop_sum,
     .max_n = FLOAT_CHAIN_MAX_N},
    {"cpu_threads", FAMILY_CPU, "-",
     "one float accumulator set per core (pthreads), partials added in order",
     .host_sum = cpu_threads_sum},
};

const size_t METHOD_COUNT = sizeof METHODS / sizeof METHODS[0];

const struct method *find_method(const char *name)
{
    for (size_t i = 0; i < METHOD_COUNT; ++i)
        if (strcmp(METHODS[i].name, name) == 0)
            return &METHODS[i];
    return NULL;
}

const char *family_name(enum method_family family)
{
    switch (family) {
    case FAMILY_PROGRESSION: return "progression";
    case FAMILY_MODERN: return "modern";
    case FAMILY_VENDOR: return "vendor";
    case FAMILY_CPU: return "cpu";
    }
    return "?";
}
