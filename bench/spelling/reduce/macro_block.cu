// A static array sized by a macro, the tree halving from the macro's half
// with a shift, `unsigned int` throughout.
#include "reduce_common.cuh"

#define BLOCK_SIZE 512

const char *const KernelName = "reduce2";
const int Chunk = BLOCK_SIZE;
const bool TakesMax = false;

__global__ void reduce2(const float *g_idata, float *g_odata, unsigned int n) {
  __shared__ float sdata[BLOCK_SIZE];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  sdata[tid] = (i < n) ? g_idata[i] : 0;
  __syncthreads();
  for (unsigned int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}

void launch(const float *In, float *Out, int N) {
  dim3 threads(BLOCK_SIZE, 1, 1);
  dim3 grid(N / BLOCK_SIZE, 1, 1);
  reduce2<<<grid, threads>>>(In, Out, N);
}
