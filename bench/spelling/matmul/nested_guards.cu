// The guard as one `if` inside another, column first, with 32 x 32 blocks
// and the sizes as unsigned parameters.
#include "matmul_common.cuh"

const char *const KernelName = "mm_nested";

__global__ void mm_nested(const float *A, const float *B, float *C,
                          unsigned rows, unsigned cols, unsigned inner) {
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < cols) {
    if (y < rows) {
      float s = 0.0f;
      for (unsigned t = 0; t < inner; ++t)
        s += A[y * inner + t] * B[t * cols + x];
      C[y * cols + x] = s;
    }
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 block(32, 32);
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  mm_nested<<<grid, block>>>(A, B, C, M, N, K);
}
