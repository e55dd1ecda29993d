//===- transpose_common.cuh - The host side of the transposes ---*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Out (kCols x kRows) = transpose of In (kRows x kCols), fp32, checked on
/// sampled elements exactly with the corpus harness. Each spelling defines
/// `launch()` (one launch of its kernel with 32 x 8 blocks, in its own
/// file) and includes this file.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_TRANSPOSE_COMMON_CUH
#define AUTOPROF_SPELLING_TRANSPOSE_COMMON_CUH

#include "../../corpus/corpus.cuh"

constexpr int kRows = 16384;
constexpr int kCols = 8192;

/// Launches the spelling's kernel once on the default stream.
void launch(const float *In, float *Out, int Rows, int Cols);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;

int main() {
  constexpr int NumSamples = 1 << 16;
  corpus::Harness H("transpose_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)kRows * kCols);
  R.fill(HostIn);
  corpus::DeviceBuffer<float> In(HostIn.size()), Out(HostIn.size());
  In.upload(HostIn);
  H.time(KernelName, [&] { launch(In.get(), Out.get(), kRows, kCols); });
  std::vector<float> HostOut;
  Out.download(HostOut);
  for (int S = 0; S < NumSamples; ++S) {
    int Rw = (int)R.below(kRows);
    int C = (int)R.below(kCols);
    H.compare(HostOut[(size_t)C * kRows + Rw], HostIn[(size_t)Rw * kCols + C]);
  }
  return H.finish(0.0);
}

#endif // AUTOPROF_SPELLING_TRANSPOSE_COMMON_CUH
