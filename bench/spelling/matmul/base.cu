// The base spelling, as the corpus writes it: the two indices first, an
// early return against parameters, a register sum, one store.
#include "matmul_common.cuh"

const char *const KernelName = "matmulBase";

__global__ void matmulBase(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= M || Col >= N)
    return;
  float Acc = 0.0f;
  for (int I = 0; I < K; ++I)
    Acc += A[(size_t)Row * K + I] * B[(size_t)I * N + Col];
  C[(size_t)Row * N + Col] = Acc;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 Block(16, 16);
  dim3 Grid((N + 15) / 16, (M + 15) / 16);
  matmulBase<<<Grid, Block>>>(A, B, C, M, N, K);
}
