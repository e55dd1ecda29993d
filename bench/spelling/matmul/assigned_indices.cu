// Both indices declared in one statement and assigned afterwards, y first.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_assigned";

__global__ void gemm_assigned(const float *a, const float *b, float *c, int m,
                              int n, int k) {
  int y, x;
  y = threadIdx.y + blockDim.y * blockIdx.y;
  x = threadIdx.x + blockDim.x * blockIdx.x;
  if (y < m && x < n) {
    float s = 0;
    for (int t = 0; t < k; ++t)
      s += a[y * k + t] * b[t * n + x];
    c[y * n + x] = s;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 tpb(16, 16);
  dim3 nb((N + 15) / 16, (M + 15) / 16);
  gemm_assigned<<<nb, tpb>>>(A, B, C, M, N, K);
}
