// 64-bit sizes, an inclusive loop bound, the guard as `if (...) { }` with
// the bound on the left, a block size from a constexpr.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_ll";

static constexpr int BLOCK = 256;

__global__ void gemv_ll(const float *A, const float *X, float *Y,
                        long long rows, long long cols) {
  long long row = blockDim.x * (long long)blockIdx.x + threadIdx.x;
  if (rows > row) {
    float acc = 0.0f;
    for (long long c = 0; c <= cols - 1; ++c)
      acc += X[c] * A[row * cols + c];
    Y[row] = acc;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemv_ll<<<(Rows + BLOCK - 1) / BLOCK, BLOCK>>>(A, X, Y, Rows, Cols);
}
