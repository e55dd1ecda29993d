/* unsigned everywhere, the thread's index first, an early return, and the
   element read into a local before it is clamped. */
#include "relu_common.cuh"

const char *const KernelName = "relu_u32";

__global__ void relu_u32(const float *__restrict__ src, float *__restrict__ dst,
                         unsigned count)
{
    const unsigned idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx >= count)
        return;
    float v = src[idx];
    if (v < 0.0f)
        v = 0.0f;
    dst[idx] = v;
}

void launch(const float *In, float *Out, int N)
{
    const unsigned threads = 256;
    const unsigned blocks = (unsigned(N) + threads - 1) / threads;
    relu_u32<<<blocks, threads>>>(In, Out, unsigned(N));
}
