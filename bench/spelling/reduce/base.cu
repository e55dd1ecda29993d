// The corpus's spelling: dynamic shared memory, the thread's index in a
// local, an interleaved tree doubling its stride up to blockDim.x.
#include "reduce_common.cuh"

const char *const KernelName = "blockSum";
const int Chunk = 512;
const bool TakesMax = false;

__global__ void blockSum(const float *In, float *Out, int N) {
  extern __shared__ float Partial[];
  int Tid = threadIdx.x;
  int I = blockIdx.x * blockDim.x + Tid;
  Partial[Tid] = I < N ? In[I] : 0.0f;
  __syncthreads();
  for (int S = 1; S < (int)blockDim.x; S *= 2) {
    if (Tid % (2 * S) == 0)
      Partial[Tid] += Partial[Tid + S];
    __syncthreads();
  }
  if (Tid == 0)
    Out[blockIdx.x] = Partial[0];
}

void launch(const float *In, float *Out, int N) {
  constexpr int BlockSize = 512;
  blockSum<<<N / BlockSize, BlockSize, BlockSize * sizeof(float)>>>(In, Out,
                                                                     N);
}
