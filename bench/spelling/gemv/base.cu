// The base spelling, as the corpus writes it: the index first, an early
// return against a parameter, a register sum, an integer grid.
#include "gemv_common.cuh"

const char *const KernelName = "gemvBase";

__global__ void gemvBase(const float *A, const float *X, float *Y, int Rows,
                         int Cols) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  float Sum = 0.0f;
  for (int C = 0; C < Cols; ++C)
    Sum += A[(size_t)Row * Cols + C] * X[C];
  Y[Row] = Sum;
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  int Grid = (Rows + 255) / 256;
  gemvBase<<<Grid, 256>>>(A, X, Y, Rows, Cols);
}
