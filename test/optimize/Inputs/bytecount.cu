// A program whose kernel reads one pointer parameter it does not declare
// const: a rewrite that adds const to it changes the kernel's mangled name
// (_Z9bytecountPjS_i becomes _Z9bytecountPKjPji), and the verifier must
// still find and measure it. It launches the kernel three times.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

typedef unsigned int uint;

__global__ void bytecount(uint *d, uint *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i] & 255u], 1u);
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
  const int N = 1 << 22;
  const char *S = std::getenv("AUTOPROF_SEED");
  uint Seed = S ? uint(std::atoi(S)) : 1;
  uint *H = static_cast<uint *>(std::malloc(N * sizeof(uint)));
  for (int I = 0; I < N; ++I) {
    Seed = Seed * 1664525u + 1013904223u;
    H[I] = Seed >> 8;
  }
  uint *D, *Bins;
  CHECK(cudaMalloc(&D, N * sizeof(uint)));
  CHECK(cudaMalloc(&Bins, 256 * sizeof(uint)));
  CHECK(cudaMemcpy(D, H, N * sizeof(uint), cudaMemcpyHostToDevice));
  for (int R = 0; R < 3; ++R) {
    CHECK(cudaMemset(Bins, 0, 256 * sizeof(uint)));
    bytecount<<<(N + 255) / 256, 256>>>(D, Bins, N);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  uint Out[256];
  CHECK(cudaMemcpy(Out, Bins, sizeof(Out), cudaMemcpyDeviceToHost));
  std::printf("bins[0] = %u\n", Out[0]);
  std::free(H);
  return 0;
}
