// K&R habits: the index declared at the top without a value and assigned
// on its own line, the grid's size assigned to a variable too.
#include "relu_common.cuh"

const char *const KernelName = "relu_assigned";

__global__ void relu_assigned(const float *src, float *dst, int count) {
  int idx;
  idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx >= count)
    return;
  dst[idx] = src[idx] < 0.0f ? 0.0f : src[idx];
}

void launch(const float *In, float *Out, int N) {
  int nblocks;
  nblocks = (N + 511) / 512;
  relu_assigned<<<nblocks, 512>>>(In, Out, N);
}
