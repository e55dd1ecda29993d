// The kernels of a small library, kept in a header: a thread-per-row sum of
// a row-major matrix.
#ifndef ROWSUM_KERNELS_CUH
#define ROWSUM_KERNELS_CUH

__global__ void rowsum(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    sums[r] = s;
  }
}

#endif
