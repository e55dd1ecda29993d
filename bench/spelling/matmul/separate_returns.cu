// One early return per index, the sum declared with the indices before the
// guard, the operands multiplied the other way round.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_returns";

__global__ void gemm_returns(const float *a, const float *b, float *c, int m,
                             int n, int k) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  if (r >= m)
    return;
  if (q >= n)
    return;
  for (int p = 0; p < k; ++p)
    acc += b[p * n + q] * a[r * k + p];
  c[r * n + q] = acc;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(16, 16);
  dim3 blocks((N + 15) / 16, (M + 15) / 16);
  gemm_returns<<<blocks, threads>>>(A, B, C, M, N, K);
}
