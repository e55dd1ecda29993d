// The indices assembled from helper locals, the operands of the product
// swapped, `s = s + e`, the guard compared the other way round.
#include "matmul_common.cuh"

const char *const KernelName = "matmul_locals";

__global__ void matmul_locals(const float *A, const float *B, float *C,
                              int rows, int cols, int inner) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int bx = blockIdx.x, by = blockIdx.y;
  int row = by * blockDim.y + ty;
  int col = bx * blockDim.x + tx;
  if (rows > row && cols > col) {
    float sum = 0.0f;
    for (int e = 0; e < inner; e += 1)
      sum = sum + B[e * cols + col] * A[row * inner + e];
    C[row * cols + col] = sum;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 blk(16, 16);
  dim3 grd((N + blk.x - 1) / blk.x, (M + blk.y - 1) / blk.y);
  matmul_locals<<<grd, blk>>>(A, B, C, M, N, K);
}
