#include "scale.cuh"
#ifndef __CUDA_ARCH__
// Host-side code: the analysis sees the device compilation.
#endif
__global__ void withflags(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = SCALED(p[i]);
}
void launch(float *p, int n) { withflags<<<(n + 127) / 128, 128>>>(p, n); }
