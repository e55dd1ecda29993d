// A pointer to the row, the sum in double precision, a grid held in a dim3
// variable.
#include "gemv_common.cuh"

const char *const KernelName = "rowDot";

__global__ void rowDot(const float *A, const float *X, float *Y, int Rows,
                       int Cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < Rows) {
    const float *Ar = A + (size_t)r * Cols;
    double d = 0.0;
    for (int c = 0; c < Cols; ++c)
      d += (double)Ar[c] * X[c];
    Y[r] = (float)d;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  dim3 threads(512);
  dim3 blocks((Rows + threads.x - 1) / threads.x);
  rowDot<<<blocks, threads>>>(A, X, Y, Rows, Cols);
}
