//===- matmul_common.cuh - The host side of the matmul spellings -*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C = A * B in fp32, row-major, kM x kK times kK x kN, checked on sampled
/// elements against a double reference with the corpus harness. Each
/// spelling defines `launch()` (one launch of its kernel, in its own file)
/// and includes this file; C is zeroed before every launch, so that
/// spellings that accumulate into C compute the same thing.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_MATMUL_COMMON_CUH
#define AUTOPROF_SPELLING_MATMUL_COMMON_CUH

#include "../../corpus/corpus.cuh"

constexpr int kM = 1024;
constexpr int kN = 1024;
constexpr int kK = 1024;

/// Launches the spelling's kernel once on the default stream.
void launch(const float *A, const float *B, float *C, int M, int N, int K);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;

int main() {
  constexpr int NumSamples = 2048;
  constexpr double Tol = 1e-3;
  corpus::Harness H("matmul_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)kM * kK), HostB((size_t)kK * kN);
  R.fill(HostA);
  R.fill(HostB);
  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevB(HostB.size());
  corpus::DeviceBuffer<float> DevC((size_t)kM * kN);
  DevA.upload(HostA);
  DevB.upload(HostB);
  H.time(
      KernelName,
      [&] { launch(DevA.get(), DevB.get(), DevC.get(), kM, kN, kK); },
      [&] { DevC.zero(); });
  std::vector<float> HostC;
  DevC.download(HostC);
  for (int S = 0; S < NumSamples; ++S) {
    int Row = (int)R.below(kM), Col = (int)R.below(kN);
    double Want = 0.0;
    for (int I = 0; I < kK; ++I)
      Want += (double)HostA[(size_t)Row * kK + I] * HostB[(size_t)I * kN + Col];
    H.compare(HostC[(size_t)Row * kN + Col], Want);
  }
  return H.finish(Tol);
}

#endif // AUTOPROF_SPELLING_MATMUL_COMMON_CUH
