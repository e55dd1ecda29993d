// Fortran-minded: the column counter declared up front and stepped at the
// end of a `while`, the row pointer advanced once, the bound a parameter
// named like BLAS's.
#include "gemv_common.cuh"

const char *const KernelName = "sgemv_while";

__global__ void sgemv_while(const float *a, const float *x, float *y, int m,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m)
    return;
  const float *ai = a + (size_t)i * n;
  float temp = 0.0f;
  int j = 0;
  while (j < n) {
    temp += ai[j] * x[j];
    j++;
  }
  y[i] = temp;
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  sgemv_while<<<(Rows + 255) / 256, 256>>>(A, X, Y, Rows, Cols);
}
