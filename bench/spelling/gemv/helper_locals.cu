// The index assembled from helper locals, the loop bound and the stride of
// the row held in locals, the early return through `!`.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_locals";

__global__ void gemv_locals(const float *A, const float *X, float *Y,
                            int nrows, int ncols) {
  int tid = threadIdx.x;
  int bid = blockIdx.x;
  int bsz = blockDim.x;
  int row = bid * bsz + tid;
  const int stride = ncols;
  if (!(row < nrows))
    return;
  int end = ncols;
  float partial = 0.0f;
  for (int col = 0; col < end; col++) {
    float a = A[(long)row * stride + col];
    partial += a * X[col];
  }
  Y[row] = partial;
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  const int threads = 256;
  gemv_locals<<<(Rows + threads - 1) / threads, threads>>>(A, X, Y, Rows, Cols);
}
