// Inclusive bounds in the guard, `row <= M - 1`, as code ported from
// Fortran writes them, and the loop bound inclusive too.
#include "matmul_common.cuh"

const char *const KernelName = "matmul_incl";

__global__ void matmul_incl(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row <= M - 1 && col <= N - 1) {
    float acc = 0.0f;
    for (int l = 0; l <= K - 1; l++)
      acc += A[row * K + l] * B[l * N + col];
    C[row * N + col] = acc;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  matmul_incl<<<grid, block>>>(A, B, C, M, N, K);
}
