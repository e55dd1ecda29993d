// An unsigned column counter from zero that runs while `c != cols`, the
// guard an enclosing `if`, the row's offset kept in a 64-bit local.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_ne";

__global__ void gemv_ne(const float *mat, const float *vec, float *res,
                        int rows, int cols) {
  int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < rows) {
    size_t base = (size_t)r * cols;
    float dot = 0.0f;
    for (unsigned c = 0; c != (unsigned)cols; ++c)
      dot += mat[base + c] * vec[c];
    res[r] = dot;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemv_ne<<<(Rows + 127) / 128, 128>>>(A, X, Y, Rows, Cols);
}
