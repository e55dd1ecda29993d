//===- fill_scale_float4.cu - Affine map, float4, grid-stride --*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Out = In * S + B over 2^27 floats, with 16-byte float4 loads and stores
/// in a grid-stride loop sized to fill every SM.
///
/// Bottleneck: near-limit. The kernel already streams 1.07 GB per launch
/// (read In, write Out) at close to the achievable DRAM bandwidth.
///
/// Tolerance: 1e-6. One fused multiply-add per element, within half an ulp
/// (6e-8 relative, or absolute below 1).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void fillScaleFloat4Kernel(const float4 *In, float4 *Out, float S,
                                      float B, size_t N4) {
  size_t Stride = (size_t)gridDim.x * blockDim.x;
  for (size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x; I < N4;
       I += Stride) {
    float4 V = In[I];
    V.x = V.x * S + B;
    V.y = V.y * S + B;
    V.z = V.z * S + B;
    V.w = V.w * S + B;
    Out[I] = V;
  }
}

int main() {
  constexpr size_t N = (size_t)1 << 27; // A multiple of 4.
  constexpr size_t N4 = N / 4;
  constexpr int BlockSize = 256;
  constexpr int BlocksPerSm = 8;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-6;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn);
  float S = R.uniform(0.5f, 2.0f);
  float B = R.uniform(-1.0f, 1.0f);

  // cudaMalloc aligns to at least 256 bytes, enough for float4.
  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  int NumSms = 0;
  CORPUS_CHECK(
      cudaDeviceGetAttribute(&NumSms, cudaDevAttrMultiProcessorCount, 0));
  int Grid = NumSms * BlocksPerSm;

  corpus::Harness H("fill_scale_float4");
  H.time("fillScaleFloat4Kernel", [&] {
    fillScaleFloat4Kernel<<<Grid, BlockSize>>>(
        reinterpret_cast<const float4 *>(In.get()),
        reinterpret_cast<float4 *>(Out.get()), S, B, N4);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int Smp = 0; Smp < NumSamples; ++Smp) {
    size_t I = Smp == 0 ? N - 1 : Pick.below((uint32_t)N);
    H.compare(HOut[I], (double)HIn[I] * S + B);
  }
  return H.finish(Tol);
}
