//===- gemv_common.cuh - The host side of the GEMV spellings ----*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// y = A * x in fp32, A row-major kRows x kCols, checked on sampled rows
/// against a double reference with the corpus harness. Each spelling defines
/// `launch()` (one launch of its kernel, in its own file, where the rewrite
/// changes it) and includes this file; y is zeroed before every launch, so
/// that spellings that accumulate into y compute the same thing.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_GEMV_COMMON_CUH
#define AUTOPROF_SPELLING_GEMV_COMMON_CUH

#include "../../corpus/corpus.cuh"

constexpr int kRows = 16384;
constexpr int kCols = 2048;

/// Launches the spelling's kernel once on the default stream.
void launch(const float *A, const float *X, float *Y, int Rows, int Cols);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;

int main() {
  constexpr int NumSamples = 2048;
  constexpr double Tol = 1e-3;
  corpus::Harness H("gemv_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)kRows * kCols), HostX(kCols);
  R.fill(HostA);
  R.fill(HostX);
  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevX(HostX.size());
  corpus::DeviceBuffer<float> DevY(kRows);
  DevA.upload(HostA);
  DevX.upload(HostX);
  H.time(
      KernelName,
      [&] { launch(DevA.get(), DevX.get(), DevY.get(), kRows, kCols); },
      [&] { DevY.zero(); });
  std::vector<float> HostY;
  DevY.download(HostY);
  for (int S = 0; S < NumSamples; ++S) {
    int Row = (int)R.below(kRows);
    double Want = 0.0;
    for (int C = 0; C < kCols; ++C)
      Want += (double)HostA[(size_t)Row * kCols + C] * HostX[C];
    H.compare(HostY[Row], Want);
  }
  return H.finish(Tol);
}

#endif // AUTOPROF_SPELLING_GEMV_COMMON_CUH
