#include "results_match.h"

#include "cuda_check.h"
#include "grid_size.cuh"

namespace {

constexpr int MATCH_BLOCK = 256;
/* An arg result is four words: value, padding, index (two). */
constexpr size_t ARG_RESULT_WORDS = 4;
constexpr size_t PADDING_WORD = 1;

__global__ __launch_bounds__(MATCH_BLOCK) void flag_differences(const unsigned *__restrict__ results,
                                                                const unsigned *__restrict__ first,
                                                                size_t words, bool skip_padding,
                                                                unsigned *flag)
{
    bool differ = false;
    for (size_t w = blockIdx.x * (size_t)MATCH_BLOCK + threadIdx.x; w < words;
         w += (size_t)gridDim.x * MATCH_BLOCK)
        differ |= results[w] != first[w] && !(skip_padding && w % ARG_RESULT_WORDS == PADDING_WORD);
    if (__syncthreads_or(differ) && threadIdx.x == 0)
        *flag = 1;
}

} // namespace

extern "C" int results_match(const void *d_results, const void *d_first, size_t bytes,
                             bool skip_padding, unsigned *d_flag, cudaStream_t stream, bool *same)
{
    *same = true;
    if (bytes == 0)
        return 0;
    int grid = 0;
    PROPAGATE(resident_grid_size((const void *)flag_differences, MATCH_BLOCK, 0, &grid));
    CUDA_TRY(cudaMemsetAsync(d_flag, 0, sizeof *d_flag, stream));
    flag_differences<<<grid, MATCH_BLOCK, 0, stream>>>((const unsigned *)d_results,
                                                       (const unsigned *)d_first,
                                                       bytes / sizeof(unsigned), skip_padding,
                                                       d_flag);
    CUDA_TRY_LAUNCH();
    unsigned flag = 0;
    CUDA_TRY(cudaMemcpyAsync(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost, stream));
    CUDA_TRY(cudaStreamSynchronize(stream));
    *same = flag == 0;
    return 0;
}
