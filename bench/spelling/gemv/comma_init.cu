// The loop's end kept in a second variable of its init, `for (int c = 0,
// e = cols; c < e; ++c)`, as code that hoists its bound does; the row
// through a pointer to its start.
#include "gemv_common.cuh"

const char *const KernelName = "gemvCommaInit";

__global__ void gemvCommaInit(const float *A, const float *X, float *Y,
                              int rows, int cols) {
  const int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < rows) {
    const float *a = A + (size_t)r * cols;
    float acc = 0.0f;
    for (int c = 0, e = cols; c < e; ++c)
      acc += a[c] * X[c];
    Y[r] = acc;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemvCommaInit<<<(Rows + 255) / 256, 256>>>(A, X, Y, Rows, Cols);
}
