/* unsigned sizes, an early return, the byte read into a local first. */
#include "histogram_common.cuh"

const char *const KernelName = "hist_u8";

__global__ void hist_u8(const unsigned char *__restrict__ in,
                        unsigned int *__restrict__ hist, unsigned len)
{
    unsigned idx = threadIdx.x + blockIdx.x * blockDim.x;
    if (idx >= len)
        return;
    unsigned char v = in[idx];
    atomicAdd(&hist[v], 1u);
}

void launch(const unsigned char *Data, unsigned int *Bins, int N)
{
    unsigned threads = 256;
    unsigned blocks = (unsigned(N) + 255) / 256;
    hist_u8<<<blocks, threads>>>(Data, Bins, unsigned(N));
}
