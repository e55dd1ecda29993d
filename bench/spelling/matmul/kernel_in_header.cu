// The kernel comes from a header; the source only launches it.
#include "matmul_common.cuh"
#include "sgemm_kernels.cuh"

const char *const KernelName = "sgemm_naive";

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(16, 16);
  dim3 blocks((N + threads.x - 1) / threads.x, (M + threads.y - 1) / threads.y);
  sgemm_naive<<<blocks, threads>>>(M, N, K, A, B, C);
}
