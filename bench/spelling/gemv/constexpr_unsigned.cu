// constexpr sizes, unsigned and size_t indices, `s = s + e`, the bound
// compared the other way round.
#include "gemv_common.cuh"

const char *const KernelName = "gemv_u";

constexpr unsigned kN = kRows;
constexpr size_t kM = kCols;
constexpr unsigned kThreads = 256;

__global__ void gemv_u(const float *__restrict__ mat,
                       const float *__restrict__ vec, float *__restrict__ out) {
  const size_t r = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (kN <= r) return;
  float s = 0.f;
  for (size_t c = 0; c < kM; c += 1) s = s + mat[r * kM + c] * vec[c];
  out[r] = s;
}

void launch(const float *A, const float *X, float *Y, int, int) {
  gemv_u<<<(kN + kThreads - 1) / kThreads, kThreads>>>(A, X, Y);
}
