//===- sigmoid.cu - Logistic sigmoid, one thread per element ---*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Computes Out[i] = 1 / (1 + exp(-In[i])) over 2^27 floats in [-8, 8) with
/// one thread per element.
///
/// Bottleneck: memory-bound. expf and the division cost a few dozen
/// instructions per element, less than the time to move its 8 bytes (about
/// 1.07 GB per launch).
///
/// Tolerance: 1e-5. Outputs lie in (0, 1), so the check is absolute; expf
/// and the IEEE division add a few ulp (about 1e-7), far below 1e-5.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void sigmoidKernel(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = 1.0f / (1.0f + expf(-In[I]));
}

int main() {
  constexpr int N = 1 << 27;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-5;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn, -8.0f, 8.0f);

  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  corpus::Harness H("sigmoid");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("sigmoidKernel",
         [&] { sigmoidKernel<<<Grid, BlockSize>>>(In.get(), Out.get(), N); });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? N - 1 : (int)Pick.below(N);
    double X = HIn[I];
    H.compare(HOut[I], 1.0 / (1.0 + std::exp(-X)));
  }
  return H.finish(Tol);
}
