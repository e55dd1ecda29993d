// The product accumulated with fused multiply-adds, the sizes unsigned and
// the guard an early return on either index.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_fma";

__global__ void gemm_fma(const float *lhs, const float *rhs, float *out,
                         int m, int n, int k) {
  const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= (unsigned)m || j >= (unsigned)n)
    return;
  float acc = 0.0f;
  for (unsigned p = 0; p < (unsigned)k; ++p)
    acc = fmaf(lhs[i * k + p], rhs[p * n + j], acc);
  out[i * n + j] = acc;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  gemm_fma<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(A, B, C, M,
                                                                 N, K);
}
