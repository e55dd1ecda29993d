// Activation kernels of a small framework, kept in a header.
#ifndef ACTIVATIONS_CUH
#define ACTIVATIONS_CUH

#include <cstddef>

__global__ void relu_fwd(float *y, const float *x, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  y[i] = fmaxf(x[i], 0.f);
}

#endif
