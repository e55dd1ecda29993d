// The tree reduction halving its stride under `#pragma unroll`, the
// sequential-addressing form, with a static shared array.
#include "reduce_common.cuh"

const char *const KernelName = "sumUnrolled";
const int Chunk = 256;
const bool TakesMax = false;

__global__ void sumUnrolled(const float *In, float *Out, int N) {
  __shared__ float cache[256];
  unsigned t = threadIdx.x;
  unsigned g = blockIdx.x * 256 + t;
  cache[t] = g < (unsigned)N ? In[g] : 0.0f;
  __syncthreads();
#pragma unroll
  for (unsigned s = 128; s > 0; s >>= 1) {
    if (t < s)
      cache[t] += cache[t + s];
    __syncthreads();
  }
  if (t == 0)
    Out[blockIdx.x] = cache[0];
}

void launch(const float *In, float *Out, int N) {
  sumUnrolled<<<N / 256, 256>>>(In, Out, N);
}
