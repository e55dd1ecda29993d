// A BLAS-like GEMV kernel kept in a header, in a namespace, with a leading
// dimension apart from the row length and the row guard around the body.
#ifndef KERNELS_GEMV_CUH
#define KERNELS_GEMV_CUH

namespace blas {

__global__ void gemv_rowwise(int m, int n, const float *__restrict__ A,
                             int lda, const float *__restrict__ x,
                             float *__restrict__ y) {
  const int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < m) {
    float acc = 0.f;
    for (int c = 0; c < n; c++)
      acc += A[r * lda + c] * x[c];
    y[r] = acc;
  }
}

} // namespace blas

#endif
