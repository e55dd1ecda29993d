// A naive SGEMM kept in a header with the other kernels of a library:
// C = A * B, row-major, one thread per element of C.
#pragma once

__global__ void sgemm_naive(int M, int N, int K, const float *A,
                            const float *B, float *C) {
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
      sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}
