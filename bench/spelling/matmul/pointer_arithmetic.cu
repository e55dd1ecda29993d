// Every element reached by dereferencing a pointer sum, with unsigned
// indices and an early return: `*(A + r * K + k)`.
#include "matmul_common.cuh"

const char *const KernelName = "gemm_deref";

__global__ void gemm_deref(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  unsigned r = threadIdx.y + blockIdx.y * blockDim.y;
  unsigned c = threadIdx.x + blockIdx.x * blockDim.x;
  if (r >= (unsigned)M || c >= (unsigned)N)
    return;
  float acc = 0.0f;
  for (unsigned k = 0; k < (unsigned)K; k++)
    acc += *(A + r * K + k) * *(B + k * N + c);
  *(C + r * N + c) = acc;
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  dim3 threads(16, 16);
  dim3 blocks((N + 15) / 16, (M + 15) / 16);
  gemm_deref<<<blocks, threads>>>(A, B, C, M, N, K);
}
