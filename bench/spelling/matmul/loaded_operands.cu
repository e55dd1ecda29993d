// Each operand loaded into a named constant inside the loop before the
// multiply-add, the bounds one struct-free pair of locals, the loop's body
// in braces.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_loaded";

__global__ void gemm_loaded(const float *lhs, const float *rhs, float *dst,
                            int nrows, int ncols, int depth) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nrows || j >= ncols)
    return;
  float total = 0.0f;
  for (int p = 0; p < depth; p++) {
    const float lv = lhs[i * depth + p];
    const float rv = rhs[p * ncols + j];
    total = fmaf(lv, rv, total);
  }
  dst[i * ncols + j] = total;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  const dim3 threads(16, 16);
  const dim3 blocks((N + 15) / 16, (M + 15) / 16);
  gemm_loaded<<<blocks, threads>>>(A, B, C, M, N, K);
}
