// threadIdx.x written out at every use, the block a constexpr, the stride
// divided by two with the comparison reversed, the sum spelled out.
#include "reduce_common.cuh"

constexpr int kThreads = 512;

const char *const KernelName = "chunk_sum";
const int Chunk = kThreads;
const bool TakesMax = false;

__global__ void chunk_sum(const float *__restrict__ src,
                          float *__restrict__ dst) {
  __shared__ float buf[kThreads];
  buf[threadIdx.x] = src[blockIdx.x * kThreads + threadIdx.x];
  __syncthreads();
  for (int stride = kThreads / 2; 0 < stride; stride /= 2) {
    if (threadIdx.x < stride)
      buf[threadIdx.x] = buf[threadIdx.x] + buf[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    dst[blockIdx.x] = buf[0];
}

void launch(const float *In, float *Out, int N) {
  chunk_sum<<<N / kThreads, kThreads>>>(In, Out);
}
