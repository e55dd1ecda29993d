// The corpus's spelling: the index in a variable, an enclosing guard on an
// int parameter, an integer launch.
#include "relu_common.cuh"

const char *const KernelName = "reluKernel";

__global__ void reluKernel(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = fmaxf(In[I], 0.0f);
}

void launch(const float *In, float *Out, int N) {
  constexpr int BlockSize = 256;
  int Grid = (N + BlockSize - 1) / BlockSize;
  reluKernel<<<Grid, BlockSize>>>(In, Out, N);
}
