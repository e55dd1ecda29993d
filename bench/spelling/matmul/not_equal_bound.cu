// The inner loop runs while `t != inner` and counts with a postfix `t++`,
// the column index is written lane-first, the guard tests the column
// before the row, and C is zeroed then accumulated in place.
#include "matmul_common.cuh"

const char *const KernelName = "matmul_ne";

__global__ void matmul_ne(const float *A, const float *B, float *C, int rows,
                          int cols, int inner) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = threadIdx.x + blockDim.x * blockIdx.x;
  if (j < cols && i < rows) {
    C[i * cols + j] = 0.0f;
    for (int t = 0; t != inner; t++)
      C[i * cols + j] += A[i * inner + t] * B[t * cols + j];
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  matmul_ne<<<dim3((N + 15) / 16, (M + 15) / 16), block>>>(A, B, C, M, N, K);
}
