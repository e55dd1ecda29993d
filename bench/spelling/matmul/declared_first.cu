// C89 style: every local declared at the top of the kernel without a
// value, the sum set to zero inside the guard, the loop counter declared
// outside its loop.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_c89";

__global__ void gemm_c89(const float *a, const float *b, float *c, int m,
                         int n, int kk) {
  int row, col, k;
  float sum;
  row = blockIdx.y * blockDim.y + threadIdx.y;
  col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    sum = 0.0f;
    for (k = 0; k < kk; k++)
      sum = sum + a[row * kk + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(32, 32);
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  gemm_c89<<<grid, block>>>(A, B, C, M, N, K);
}
