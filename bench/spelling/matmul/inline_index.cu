// No index variables: the global indices written out where they are used,
// the guard an enclosing conjunction with the column first.
#include "matmul_common.cuh"

const char *const KernelName = "mm";

__global__ void mm(const float *a, const float *b, float *c, int m, int n,
                   int k) {
  if (threadIdx.x + blockIdx.x * blockDim.x < n &&
      threadIdx.y + blockIdx.y * blockDim.y < m) {
    float s = 0;
    for (int p = 0; p < k; p++)
      s += a[(threadIdx.y + blockIdx.y * blockDim.y) * k + p] *
           b[p * n + threadIdx.x + blockIdx.x * blockDim.x];
    c[(threadIdx.y + blockIdx.y * blockDim.y) * n + threadIdx.x +
      blockIdx.x * blockDim.x] = s;
  }
}

void launch(const float *A, const float *B, float *C, int M, int N, int K) {
  mm<<<dim3(N / 16, M / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
}
