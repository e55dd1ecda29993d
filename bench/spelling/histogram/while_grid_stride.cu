// The histogram of "CUDA by Example": a `while` over the thread's id with
// the grid's size as its stride, in a local computed once, the bin through
// a local of its own.
#include "histogram_common.cuh"

const char *const KernelName = "histo_kernel";

__global__ void histo_kernel(const unsigned char *buffer, long size,
                             unsigned int *histo) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int offset = blockDim.x * gridDim.x;
  while (i < size) {
    unsigned char bin = buffer[i];
    atomicAdd(&(histo[bin]), 1);
    i += offset;
  }
}

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  histo_kernel<<<2048, 256>>>(Data, N, Bins);
}
