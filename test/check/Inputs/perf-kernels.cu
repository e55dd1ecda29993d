// Kernels for the performance gate's GPU test: a template launched for
// float and for int, and extra(), launched only when the first argument is
// "all". Each launched kernel runs five times; a CUDA error exits with 1.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

template <typename T> __global__ void fill(T *out, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v + T(i % 7);
}

__global__ void extra(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] *= 0.5f;
}

int main(int argc, char **argv) {
  const int N = 1 << 24;
  float *F;
  int *I;
  if (cudaMalloc(&F, N * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&I, N * sizeof(int)) != cudaSuccess) {
    std::fprintf(stderr, "error: cannot allocate\n");
    return 1;
  }
  bool All = argc > 1 && std::strcmp(argv[1], "all") == 0;
  for (int R = 0; R < 5; ++R) {
    fill<float><<<N / 256, 256>>>(F, 1.0f, N);
    fill<int><<<N / 256, 256>>>(I, 1, N);
    if (All)
      extra<<<N / 256, 256>>>(F, N);
  }
  cudaError_t E = cudaDeviceSynchronize();
  if (E != cudaSuccess) {
    std::fprintf(stderr, "error: %s\n", cudaGetErrorString(E));
    return 1;
  }
  return 0;
}
