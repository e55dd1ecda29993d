// copy_float4: copies a 2^27-float (512 MiB) buffer with a grid-stride loop
// of float4 loads and stores; the grid is a fixed number of blocks per SM.
//
// Bottleneck: near-limit. Fully coalesced 16-byte accesses with enough
// resident warps to keep DRAM busy: the kernel runs at close to the copy
// bandwidth of the device: leave it alone.
//
// Tolerance 0: a copy only moves bits; the result must be exact.

#include "corpus.cuh"

__global__ void copyFloat4(const float4 *In, float4 *Out, size_t Count4) {
  size_t Stride = (size_t)gridDim.x * blockDim.x;
  for (size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x; I < Count4;
       I += Stride)
    Out[I] = In[I];
}

int main() {
  constexpr size_t N = size_t(1) << 27; // Floats; a multiple of 4.
  constexpr int BlockSize = 256;
  constexpr int BlocksPerSm = 8;
  constexpr double Tol = 0.0;

  corpus::Harness H("copy_float4");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(N);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(N);
  corpus::DeviceBuffer<float> DevOut(N);
  DevIn.upload(HostIn);

  int Device = 0;
  int NumSms = 0;
  CORPUS_CHECK(cudaGetDevice(&Device));
  CORPUS_CHECK(
      cudaDeviceGetAttribute(&NumSms, cudaDevAttrMultiProcessorCount, Device));
  int Grid = NumSms * BlocksPerSm;
  const float4 *In4 = reinterpret_cast<const float4 *>(DevIn.get());
  float4 *Out4 = reinterpret_cast<float4 *>(DevOut.get());
  H.time("copyFloat4",
         [&] { copyFloat4<<<Grid, BlockSize>>>(In4, Out4, N / 4); });

  std::vector<float> HostOut;
  DevOut.download(HostOut);
  for (size_t I = 0; I < N; ++I)
    H.compare(HostOut[I], HostIn[I]);
  return H.finish(Tol);
}
