// Sizes as constexpr, unsigned indices, a size_t loop, restrict pointers.
#include "matmul_common.cuh"

const char *const KernelName = "sgemm_nn";

constexpr unsigned M_ = kM, N_ = kN;
constexpr size_t K_ = kK;
constexpr unsigned TILE = 16;

__global__ void sgemm_nn(const float *__restrict__ A,
                         const float *__restrict__ B, float *__restrict__ C) {
  const unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M_ || col >= N_) return;
  float acc = 0.f;
  for (size_t i = 0; i < K_; ++i) acc += A[r * K_ + i] * B[i * N_ + col];
  C[(size_t)r * N_ + col] = acc;
}

void launch(const float *A, const float *B, float *C, int, int, int) {
  const dim3 threads(TILE, TILE);
  sgemm_nn<<<dim3(N_ / TILE, M_ / TILE), threads>>>(A, B, C);
}
