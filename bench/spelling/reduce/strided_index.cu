// The strided tree: each step's active threads work on a contiguous index
// computed in the loop's body, `index = 2 * s * tid`.
#include "reduce_common.cuh"

const char *const KernelName = "reduce1";
const int Chunk = 512;
const bool TakesMax = false;

__global__ void reduce1(const float *g_idata, float *g_odata, int n) {
  extern __shared__ float sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0.f;
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

void launch(const float *In, float *Out, int N) {
  int threads = 512;
  int blocks = N / threads;
  int smem = threads * sizeof(float);
  reduce1<<<blocks, threads, smem>>>(In, Out, N);
}
