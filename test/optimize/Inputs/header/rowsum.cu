// A program that launches a kernel of a header it includes.
#include "rowsum_kernels.cuh"

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

int main() {
  const int Rows = 8192, Cols = 2048;
  const char *S = std::getenv("AUTOPROF_SEED");
  unsigned Seed = S ? unsigned(std::atoi(S)) : 1;
  size_t N = size_t(Rows) * Cols;
  float *H = static_cast<float *>(std::malloc(N * sizeof(float)));
  for (size_t I = 0; I < N; ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    H[I] = float(Seed >> 8) / float(1u << 24);
  }
  float *M, *Sums;
  cudaMalloc(&M, N * sizeof(float));
  cudaMalloc(&Sums, Rows * sizeof(float));
  cudaMemcpy(M, H, N * sizeof(float), cudaMemcpyHostToDevice);
  for (int R = 0; R < 3; ++R)
    rowsum<<<(Rows + 255) / 256, 256>>>(M, Sums, Rows, Cols);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "cuda error\n");
    return 1;
  }
  float First;
  cudaMemcpy(&First, Sums, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("sums[0] = %f\n", First);
  std::free(H);
  return 0;
}
