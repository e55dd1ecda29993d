//===- saxpy_float4.cu - SAXPY with float4, grid-stride --------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// In-place SAXPY, y = a x + y, over 2^26 floats, with 16-byte float4 loads
/// and stores in a grid-stride loop sized to fill every SM. Each launch
/// overwrites y, so the harness restores y from a pristine copy before every
/// launch; the verified result is that of the last launch.
///
/// Bottleneck: near-limit. The kernel already streams 768 MB per launch
/// (read x and y, write y) at close to the achievable DRAM bandwidth.
///
/// Tolerance: 1e-6. One fused multiply-add per element, within half an ulp
/// (6e-8 relative, or absolute below 1).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void saxpyFloat4Kernel(float A, const float4 *X, float4 *Y,
                                  size_t N4) {
  size_t Stride = (size_t)gridDim.x * blockDim.x;
  for (size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x; I < N4;
       I += Stride) {
    float4 Xv = X[I];
    float4 Yv = Y[I];
    Yv.x = A * Xv.x + Yv.x;
    Yv.y = A * Xv.y + Yv.y;
    Yv.z = A * Xv.z + Yv.z;
    Yv.w = A * Xv.w + Yv.w;
    Y[I] = Yv;
  }
}

int main() {
  constexpr size_t N = (size_t)1 << 26; // A multiple of 4.
  constexpr size_t N4 = N / 4;
  constexpr int BlockSize = 256;
  constexpr int BlocksPerSm = 8;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-6;

  corpus::Rng R(corpus::seed());
  std::vector<float> HX(N), HY(N);
  R.fill(HX);
  R.fill(HY);
  float A = R.uniform(0.5f, 2.0f);

  // cudaMalloc aligns to at least 256 bytes, enough for float4.
  corpus::DeviceBuffer<float> X(N), Y(N), YInit(N);
  X.upload(HX);
  YInit.upload(HY);

  int NumSms = 0;
  CORPUS_CHECK(
      cudaDeviceGetAttribute(&NumSms, cudaDevAttrMultiProcessorCount, 0));
  int Grid = NumSms * BlocksPerSm;

  corpus::Harness H("saxpy_float4");
  H.time(
      "saxpyFloat4Kernel",
      [&] {
        saxpyFloat4Kernel<<<Grid, BlockSize>>>(
            A, reinterpret_cast<const float4 *>(X.get()),
            reinterpret_cast<float4 *>(Y.get()), N4);
      },
      [&] {
        CORPUS_CHECK(cudaMemcpy(Y.get(), YInit.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice));
      });

  std::vector<float> HOut;
  Y.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    size_t I = S == 0 ? N - 1 : Pick.below((uint32_t)N);
    H.compare(HOut[I], (double)A * HX[I] + HY[I]);
  }
  return H.finish(Tol);
}
