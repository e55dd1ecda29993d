// dim3 launch shapes, the grid computed from the block's field, as SDK
// samples write it.
#include "relu_common.cuh"

const char *const KernelName = "reluDim3";

__global__ void reluDim3(const float *d_in, float *d_out, int numElements) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;

  if (i < numElements) {
    d_out[i] = d_in[i] < 0.0f ? 0.0f : d_in[i];
  }
}

void launch(const float *In, float *Out, int N) {
  dim3 threads(256);
  dim3 blocks((N + threads.x - 1) / threads.x);
  reluDim3<<<blocks, threads>>>(In, Out, N);
}
