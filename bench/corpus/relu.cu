//===- relu.cu - Elementwise ReLU, one thread per element ------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Computes Out[i] = max(In[i], 0) over 2^27 floats with one thread per
/// element and plain scalar loads and stores.
///
/// Bottleneck: memory-bound. Each element costs 8 bytes of DRAM traffic and
/// one instruction of arithmetic (about 1.07 GB moved per launch).
///
/// Tolerance: 0. fmaxf is exact, so any difference is a bug.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void reluKernel(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = fmaxf(In[I], 0.0f);
}

int main() {
  constexpr int N = 1 << 27;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 0.0;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn);

  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  corpus::Harness H("relu");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("reluKernel",
         [&] { reluKernel<<<Grid, BlockSize>>>(In.get(), Out.get(), N); });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? N - 1 : (int)Pick.below(N);
    H.compare(HOut[I], std::max(HIn[I], 0.0f));
  }
  return H.finish(Tol);
}
