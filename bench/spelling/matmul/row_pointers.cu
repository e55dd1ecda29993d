// A pointer to the thread's row of A and one to its column of B, in size_t
// offsets, stepped through by the loop; the result stored through a
// pointer to the row of C declared after the loop.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_row_ptrs";

__global__ void gemm_row_ptrs(const float *A, const float *B, float *C,
                              int M, int N, int K) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < M && c < N) {
    const float *arow = A + (size_t)r * K;
    const float *bcol = B + c;
    float sum = 0.0f;
    for (int p = 0; p < K; ++p)
      sum += arow[p] * bcol[(size_t)p * N];
    float *crow = C + (size_t)r * N;
    crow[c] = sum;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(16, 16);
  gemm_row_ptrs<<<dim3((N + 15) / 16, (M + 15) / 16), threads>>>(A, B, C, M,
                                                                 N, K);
}
