// C zeroed by the kernel, then accumulated into in place with
// `c[i] = c[i] + e`; sizes from a struct of constants.
#include "matmul_common.cuh"

const char *const KernelName = "mmAccumulate";

struct Dims {
  static constexpr int m = kM, n = kN, k = kK;
};

__global__ void mmAccumulate(const float *a, const float *b, float *c) {
  int col = threadIdx.x + blockDim.x * blockIdx.x;
  int row = threadIdx.y + blockDim.y * blockIdx.y;
  if (row < Dims::m && col < Dims::n) {
    c[row * Dims::n + col] = 0;
    for (int t = 0; t < Dims::k; ++t)
      c[row * Dims::n + col] =
          c[row * Dims::n + col] + a[row * Dims::k + t] * b[t * Dims::n + col];
  }
}

void launch(const float *A, const float *B, float *C, int, int, int) {
  mmAccumulate<<<dim3(Dims::n / 16, Dims::m / 16), dim3(16, 16)>>>(A, B, C);
}
