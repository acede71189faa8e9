/* What a CUB call newer than the build's CCCL costs: the method still
 * compiles and refuses every pair, saying which CCCL it needs and how to get
 * it. CUB's determinism modes (cub_env.cuh: cub_atomic, cub_reproducible)
 * and its fixed-size segmented overload (cub_fixed_size) appeared in CCCL
 * 3.1 - the fixed-size one is documented "versionadded 3.2.0" in the 3.5
 * headers, but the 3.1.4 wheel's cub/device/device_segmented_reduce.cuh
 * already has Sum/Min/Max(temp, bytes, in, out, int64 num_segments,
 * int segment_size, stream). The CUDA 13.0 toolkit ships 3.0.1. */
#ifndef CCCL_REQUIREMENT_CUH
#define CCCL_REQUIREMENT_CUH

#include <cuda/version> /* CCCL_VERSION */

#define CCCL_3_1 3001000 /* CCCL_VERSION of 3.1.0 */

/* "needs CCCL >= 3.1 (built with 3.0.1); configure with ...", the version
 * the build really used, made at compile time for the descriptor. */
struct cccl_refusal_text {
    char text[160];
};

constexpr cccl_refusal_text make_cccl_3_1_refusal()
{
    cccl_refusal_text r{};
    int at = 0;
    auto put = [&](const char *s) {
        while (*s && at + 1 < (int)sizeof r.text)
            r.text[at++] = *s++;
    };
    auto put_number = [&](int v) {
        char digits[12] = {};
        int count = 0;
        do {
            digits[count++] = char('0' + v % 10);
            v /= 10;
        } while (v > 0);
        while (count > 0 && at + 1 < (int)sizeof r.text)
            r.text[at++] = digits[--count];
    };
    put("needs CCCL >= 3.1 (built with ");
    put_number(CCCL_MAJOR_VERSION);
    put(".");
    put_number(CCCL_MINOR_VERSION);
    put(".");
    put_number(CCCL_PATCH_VERSION);
    put("); configure with -DREDUCE_CCCL_ROOT=<newer CCCL: the nvidia-cuda-cccl wheel's nvidia/cu13>");
    return r;
}

inline constexpr cccl_refusal_text CCCL_3_1_REFUSAL = make_cccl_3_1_refusal();

#endif
