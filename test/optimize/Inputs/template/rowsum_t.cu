// A kernel template instantiated for float and for double, each launched.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

template <typename T>
__global__ void rowsum(const T *m, T *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    T s = 0;
    for (int c = 0; c < cols; ++c)
      s += m[r * cols + c];
    sums[r] = s;
  }
}

template <typename T> void fill(T *H, size_t N, unsigned Seed) {
  for (size_t I = 0; I < N; ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    H[I] = T(Seed >> 8) / T(1u << 24);
  }
}

int main() {
  const int Rows = 8192, Cols = 1024;
  const char *S = std::getenv("AUTOPROF_SEED");
  unsigned Seed = S ? unsigned(std::atoi(S)) : 1;
  size_t N = size_t(Rows) * Cols;
  float *HF = static_cast<float *>(std::malloc(N * sizeof(float)));
  double *HD = static_cast<double *>(std::malloc(N * sizeof(double)));
  fill(HF, N, Seed);
  fill(HD, N, Seed + 7);
  float *MF, *SF;
  double *MD, *SD;
  cudaMalloc(&MF, N * sizeof(float));
  cudaMalloc(&SF, Rows * sizeof(float));
  cudaMalloc(&MD, N * sizeof(double));
  cudaMalloc(&SD, Rows * sizeof(double));
  cudaMemcpy(MF, HF, N * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(MD, HD, N * sizeof(double), cudaMemcpyHostToDevice);
  rowsum<float><<<(Rows + 255) / 256, 256>>>(MF, SF, Rows, Cols);
  rowsum<double><<<(Rows + 255) / 256, 256>>>(MD, SD, Rows, Cols);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "cuda error\n");
    return 1;
  }
  std::printf("done\n");
  std::free(HF);
  std::free(HD);
  return 0;
}
