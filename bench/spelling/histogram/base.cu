// The corpus's spelling: the index in a variable, an enclosing guard, the
// byte as the bin.
#include "histogram_common.cuh"

const char *const KernelName = "histogramKernel";

__global__ void histogramKernel(const unsigned char *Data, unsigned int *Bins,
                                int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Bins[Data[I]], 1u);
}

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  constexpr int BlockSize = 256;
  histogramKernel<<<(N + BlockSize - 1) / BlockSize, BlockSize>>>(Data, Bins,
                                                                  N);
}
