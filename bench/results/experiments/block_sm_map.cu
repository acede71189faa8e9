// Which SM each block of a one-wave grid runs on: 792 blocks of 128 threads
// with 37 KiB of shared memory each, six an H100 SM as step 37's tiles'
// kernel. Prints the SMs of blocks 0-39 and the blocks of SMs 0-5, twice.
//   nvcc -arch=sm_90 -O2 -o block_sm_map block_sm_map.cu && ./block_sm_map
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                    \
    do {                                                                               \
        const cudaError_t e = (call);                                                  \
        if (e != cudaSuccess) {                                                        \
            fprintf(stderr, "block_sm_map: %s: %s\n", #call, cudaGetErrorString(e));  \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

__global__ void where(unsigned *sm)
{
    __shared__ volatile char pad[37 * 1024]; /* holds the block to six an SM */
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    pad[threadIdx.x] = (char)id;
    if (threadIdx.x == 0)
        sm[blockIdx.x] = id;
}

int main()
{
    const int blocks = 792;
    unsigned *d = nullptr;
    CHECK(cudaMalloc(&d, blocks * sizeof *d));
    std::vector<unsigned> h(blocks);
    for (int run = 0; run < 2; ++run) {
        where<<<blocks, 128>>>(d);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(h.data(), d, blocks * sizeof *d, cudaMemcpyDeviceToHost));
        printf("blocks 0-39 on SMs:");
        for (int b = 0; b < 40; ++b)
            printf(" %u", h[b]);
        printf("\n");
        const unsigned sms = *std::max_element(h.begin(), h.end()) + 1;
        std::vector<std::vector<int>> on(sms);
        for (int b = 0; b < blocks; ++b)
            on[h[b]].push_back(b);
        for (unsigned s = 0; s < 6 && s < sms; ++s) {
            printf("SM %u:", s);
            for (int b : on[s])
                printf(" %d", b);
            printf("\n");
        }
        size_t most = 0;
        for (const auto &list : on)
            most = std::max(most, list.size());
        printf("SMs %u, most blocks an SM %zu\n", sms, most);
    }
    CHECK(cudaFree(d));
    return 0;
}
