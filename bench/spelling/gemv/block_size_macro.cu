// The CUDA samples' spelling: the row from blockIdx.x * BLOCK_SIZE, the
// block size a macro that the launch uses too, the sum in a local named
// after the output.
#include "gemv_common.cuh"

#define BLOCK_SIZE 128

const char *const KernelName = "MatVecKernel";

__global__ void MatVecKernel(const float *M, const float *V, float *R,
                             int height, int width) {
  int tid = threadIdx.x;
  int row = blockIdx.x * BLOCK_SIZE + tid;
  if (row < height) {
    float r = 0;
    for (int c = 0; c < width; ++c)
      r += M[row * width + c] * V[c];
    R[row] = r;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  dim3 threads(BLOCK_SIZE);
  dim3 grid((Rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
  MatVecKernel<<<grid, threads>>>(A, X, Y, Rows, Cols);
}
