// The result named after the loop and stored through a pointer to the
// output element; the row read through __ldg.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_out_ptr";

__global__ void gemv_out_ptr(const float *A, const float *x, float *y,
                             int nrows, int ncols) {
  const int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row < nrows) {
    float partial = 0.0f;
    for (int j = 0; j < ncols; j++)
      partial += __ldg(&A[(size_t)row * ncols + j]) * __ldg(&x[j]);
    const float result = partial;
    float *out = y + row;
    *out = result;
  }
}

void launch(const float *A, const float *x, float *y, int rows, int cols) {
  gemv_out_ptr<<<(rows + 127) / 128, 128>>>(A, x, y, rows, cols);
}
