// The CUDA samples' spelling of a naive product: row and column from
// blockIdx * BLOCK_SIZE, the block a macro-sized dim3 that the grid
// divides by.
#include "matmul_common.cuh"

#define BLOCK_SIZE 16

const char *const KernelName = "matrixMulNaive";

__global__ void matrixMulNaive(const float *A, const float *B, float *C,
                               int hA, int wB, int wA) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = by * BLOCK_SIZE + ty;
  int col = bx * BLOCK_SIZE + tx;
  if (row < hA && col < wB) {
    float Csub = 0;
    for (int k = 0; k < wA; ++k)
      Csub += A[row * wA + k] * B[k * wB + col];
    C[row * wB + col] = Csub;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid((N + BLOCK_SIZE - 1) / BLOCK_SIZE, (M + BLOCK_SIZE - 1) / BLOCK_SIZE);
  matrixMulNaive<<<grid, threads>>>(A, B, C, M, N, K);
}
