// Integers in the tree: each value converted to int before it is summed,
// `max` of ints as the combining function would also do; the stride
// doubled by adding it to itself.
#include "reduce_common.cuh"

const char *const KernelName = "intSum";
const int Chunk = 512;
const bool TakesMax = false;

__global__ void intSum(const float *In, float *Out) {
  __shared__ int Tree[512];
  const int T = threadIdx.x;
  Tree[T] = (int)In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (int Step = 1; Step < blockDim.x; Step += Step) {
    if (!(T % (2 * Step)))
      Tree[T] += Tree[T + Step];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = (float)Tree[0];
}

void launch(const float *In, float *Out, int N) {
  intSum<<<N / 512, 512>>>(In, Out);
}
