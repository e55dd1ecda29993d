// The k loop under `#pragma unroll 4`, the hint nvcc users add by habit;
// indices computed threadIdx-first, bounds checked with a nested `if`.
#include "matmul_common.cuh"

const char *const KernelName = "matmulUnrollHint";

__global__ void matmulUnrollHint(const float *A, const float *B, float *C,
                                 int M, int N, int K) {
  const int col = threadIdx.x + blockIdx.x * blockDim.x;
  const int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (row < M) {
    if (col < N) {
      float acc = 0.f;
#pragma unroll 4
      for (int kk = 0; kk < K; kk++) {
        acc += A[(size_t)row * K + kk] * B[(size_t)kk * N + col];
      }
      C[(size_t)row * N + col] = acc;
    }
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(16, 16);
  dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  matmulUnrollHint<<<blocks, threads>>>(A, B, C, M, N, K);
}
