// A candidate of test/optimize/Inputs/scale.cu that computes in half
// precision.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

// Computed in half precision: each result is within 2^-11 of the
// original's, above the verifier's default relative tolerance of 1e-4.
__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __half2float(__float2half(2.0f * in[i]));
}

#define CHECK(X)                                                               \
  do {                                                                         \
    cudaError_t E = (X);                                                       \
    if (E != cudaSuccess) {                                                    \
      std::fprintf(stderr, "cuda error: %s\n", cudaGetErrorString(E));         \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

int main() {
  const int N = 1 << 24;
  const char *S = std::getenv("AUTOPROF_SEED");
  unsigned Seed = S ? unsigned(std::atoi(S)) : 1;
  float *H = static_cast<float *>(std::malloc(N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    H[I] = float(Seed >> 8) / float(1 << 24);
  }
  float *In, *Out;
  CHECK(cudaMalloc(&In, N * sizeof(float)));
  CHECK(cudaMalloc(&Out, N * sizeof(float)));
  CHECK(cudaMemcpy(In, H, N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(Out, 0, N * sizeof(float)));
  for (int R = 0; R < 5; ++R)
    scale<<<N / 256, 256>>>(In, Out, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(H, Out, N * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("out[1] = %g\n", H[1]);
  std::free(H);
  return 0;
}
