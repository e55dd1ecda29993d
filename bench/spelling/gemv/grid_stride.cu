// Threads stride over the rows by the grid's size, on a grid of a fixed
// number of blocks that holds fewer threads than there are rows: each
// thread takes several rows.
#include "gemv_common.cuh"

const char *const KernelName = "gemvGridStride";

__global__ void gemvGridStride(const float *A, const float *X, float *Y,
                               int Rows, int Cols) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < Rows;
       row += blockDim.x * gridDim.x) {
    float dot = 0.0f;
    for (int c = 0; c < Cols; ++c)
      dot += A[(size_t)row * Cols + c] * X[c];
    Y[row] = dot;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemvGridStride<<<32, 256>>>(A, X, Y, Rows, Cols);
}
