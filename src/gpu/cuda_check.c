#include "cuda_check.h"

#include <stdio.h>

void report_cuda_error(int code, const char *call, const char *file, int line)
{
    fprintf(stderr, "CUDA error %d (%s) at %s:%d in %s\n", code,
            cudaGetErrorString((cudaError_t)code), file, line, call);
}
