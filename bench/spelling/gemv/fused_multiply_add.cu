// The dot product of each row accumulated with fused multiply-adds, the
// vector's element first, in a loop over a size_t column.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_fma";

__global__ void gemv_fma(const float *mat, const float *vec, float *res,
                         int rows, int cols) {
  const int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (!(r < rows))
    return;
  const float *line = mat + (size_t)r * cols;
  float dot = 0.f;
  for (size_t c = 0; c < (size_t)cols; ++c)
    dot = fmaf(vec[c], line[c], dot);
  res[r] = dot;
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemv_fma<<<(Rows + 127) / 128, 128>>>(A, X, Y, Rows, Cols);
}
