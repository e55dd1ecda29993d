// The host side of a program built from two files.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void poly(float *x, int n);

int main() {
  const int N = 1 << 22;
  const char *S = std::getenv("AUTOPROF_SEED");
  unsigned Seed = S ? unsigned(std::atoi(S)) : 1;
  float *H = static_cast<float *>(std::malloc(N * sizeof(float)));
  for (int I = 0; I < N; ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    H[I] = float(Seed >> 8) / float(1u << 24);
  }
  float *X;
  cudaMalloc(&X, N * sizeof(float));
  cudaMemcpy(X, H, N * sizeof(float), cudaMemcpyHostToDevice);
  poly<<<(N + 255) / 256, 256>>>(X, N);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "cuda error\n");
    return 1;
  }
  std::printf("done\n");
  std::free(H);
  return 0;
}
