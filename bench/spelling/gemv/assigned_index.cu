// The row declared first and given its value by a later assignment, with
// the grid's size computed into a variable the same way.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_assigned";

__global__ void gemv_assigned(const float *mat, const float *vec, float *res,
                              int rows, int cols) {
  int row;
  float total;
  row = blockDim.x * blockIdx.x + threadIdx.x;
  if (row >= rows)
    return;
  total = 0.0f;
  for (int c = 0; c < cols; c++)
    total += vec[c] * mat[row * cols + c];
  res[row] = total;
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  int nblocks;
  nblocks = (Rows + 255) / 256;
  gemv_assigned<<<nblocks, 256>>>(A, X, Y, Rows, Cols);
}
