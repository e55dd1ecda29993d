// No index variable: the global index is written out wherever it is used,
// in another order, and the guard is a conjunction.
#include "gemv_common.cuh"

const char *const KernelName = "matVec";

__global__ void matVec(const float *m, const float *v, float *res, int n,
                       int k) {
  if (threadIdx.x + blockDim.x * blockIdx.x < n && k > 0) {
    float acc = 0;
    for (int c = 0; c < k; c++)
      acc += m[(threadIdx.x + blockDim.x * blockIdx.x) * (size_t)k + c] * v[c];
    res[threadIdx.x + blockDim.x * blockIdx.x] = acc;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  matVec<<<Rows / 256 + (Rows % 256 != 0), 256>>>(A, X, Y, Rows, Cols);
}
