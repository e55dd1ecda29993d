// A block reduction kept in a header, as libraries ship them; the host
// side only launches it.
#pragma once

#ifndef RED_THREADS
#define RED_THREADS 512
#endif

__global__ void headerReduce(const float *input, float *blockSums, int len) {
  __shared__ float smem[RED_THREADS];
  int local = threadIdx.x;
  int global = blockIdx.x * RED_THREADS + local;
  smem[local] = global < len ? input[global] : 0.0f;
  __syncthreads();
  for (int offset = RED_THREADS / 2; offset > 0; offset /= 2) {
    if (local < offset)
      smem[local] += smem[local + offset];
    __syncthreads();
  }
  if (local == 0)
    blockSums[blockIdx.x] = smem[0];
}
