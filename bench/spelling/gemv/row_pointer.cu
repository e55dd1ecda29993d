// A pointer to the row, the sum named for what it is, a grid held in a dim3
// variable.
#include "gemv_common.cuh"

const char *const KernelName = "rowDot";

__global__ void rowDot(const float *A, const float *X, float *Y, int Rows,
                       int Cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < Rows) {
    const float *Ar = A + (size_t)r * Cols;
    float dot = 0.0f;
    for (int c = 0; c < Cols; ++c)
      dot += Ar[c] * X[c];
    Y[r] = dot;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  dim3 threads(256);
  dim3 blocks((Rows + threads.x - 1) / threads.x);
  rowDot<<<blocks, threads>>>(A, X, Y, Rows, Cols);
}
