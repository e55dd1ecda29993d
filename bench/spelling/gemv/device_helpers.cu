// The row from a helper, the matrix element from an addressing function,
// a template addressing function instantiated for size_t.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_fn";

template <typename I> __device__ I elem(I r, I c, I ld) { return r * ld + c; }
__device__ int row_of_thread() { return blockDim.x * blockIdx.x + threadIdx.x; }

__global__ void gemv_fn(const float *A, const float *X, float *Y, int Rows,
                        int Cols) {
  const int r = row_of_thread();
  if (r < Rows) {
    float dot = 0.0f;
    for (int c = 0; c < Cols; c++)
      dot += A[elem<size_t>(r, c, Cols)] * X[c];
    Y[r] = dot;
  }
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols) {
  gemv_fn<<<(Rows + 127) / 128, 128>>>(A, X, Y, Rows, Cols);
}
