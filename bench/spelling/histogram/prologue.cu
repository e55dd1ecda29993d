// Declarations between the index and its guard, the count in a local, the
// guard a conjunction with a bound that always holds.
#include "histogram_common.cuh"

const char *const KernelName = "CountBytes";

__global__ void CountBytes(int n, unsigned int *counts,
                           const unsigned char *bytes) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned one = 1;
  if (gid >= 0 && gid < n) {
    const unsigned bin = bytes[gid];
    atomicAdd(counts + bin, one);
  }
}

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  dim3 block(256);
  CountBytes<<<(N + 255) / 256, block>>>(N, Bins, Data);
}
