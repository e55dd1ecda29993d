// st_conv1d_const_kernels.cuh: device side of st_conv1d_const.cu.
//
// A 31-tap 1-D convolution (cross-correlation form) with the taps in
// __constant__ memory and zero padding beyond both ends of the signal:
//   out[i] = sum_{k=-15..15} taps[k + 15] * in[i + k]
// One thread per output element.

#pragma once

#define CONV_TAPS 31
#define CONV_HALF ((CONV_TAPS - 1) / 2)

__constant__ float c_taps[CONV_TAPS];

__global__ void conv1dConst(const float *in, float *out, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;

  float sum = 0.0f;
  for (int k = -CONV_HALF; k <= CONV_HALF; ++k) {
    int src = tid + k;
    if (src >= 0 && src < n)
      sum += c_taps[k + CONV_HALF] * in[src];
  }
  out[tid] = sum;
}
