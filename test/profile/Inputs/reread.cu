// Sums a 32 MiB buffer three times: each launch reads every byte, and after
// the first the buffer may sit in the L2 cache (tens of MiB on a Hopper).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sum_words(const float *In, int N, float *Out) {
  float S = 0;
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += blockDim.x * gridDim.x)
    S += In[I];
  atomicAdd(Out, S);
}

int main() {
  const int N = 8 << 20;
  float *In, *Out;
  cudaMalloc(&In, N * sizeof(float));
  cudaMalloc(&Out, sizeof(float));
  cudaMemset(In, 0, N * sizeof(float));
  cudaMemset(Out, 0, sizeof(float));
  for (int R = 0; R < 3; ++R)
    sum_words<<<264, 256>>>(In, N, Out);
  float H = -1;
  cudaMemcpy(&H, Out, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("sum %g %s\n", H, cudaGetErrorString(cudaGetLastError()));
  return H == 0 ? 0 : 1;
}
