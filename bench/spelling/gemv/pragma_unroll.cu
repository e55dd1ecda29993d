// `#pragma unroll` with no count on the column loop, the row's pointer
// taken first and the sum kept in a double-free float.
#include "gemv_common.cuh"

const char *const KernelName = "gemvPragma";

__global__ void gemvPragma(const float *A, const float *X, float *Y, int Rows,
                           int Cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < (unsigned)Rows) {
    float s = 0;
#pragma unroll
    for (int c = 0; c < Cols; ++c)
      s += A[(size_t)r * Cols + c] * X[c];
    Y[r] = s;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemvPragma<<<(Rows + 127) / 128, 128>>>(A, X, Y, Rows, Cols);
}
