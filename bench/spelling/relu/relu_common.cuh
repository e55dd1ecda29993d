//===- relu_common.cuh - The host side of the ReLU spellings ----*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Out[i] = max(In[i], 0) over kElems floats, checked on sampled elements
/// (and the last one) exactly, with the corpus harness. Each spelling
/// defines `launch()` (one launch of its kernel, in its own file, where the
/// rewrites change it) and includes this file.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_RELU_COMMON_CUH
#define AUTOPROF_SPELLING_RELU_COMMON_CUH

#include "../../corpus/corpus.cuh"

#include <algorithm>

constexpr int kElems = 1 << 26;

/// Launches the spelling's kernel once on the default stream.
void launch(const float *In, float *Out, int N);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;

int main() {
  constexpr int NumSamples = 4096;
  corpus::Harness H("relu_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(kElems);
  R.fill(HostIn);
  corpus::DeviceBuffer<float> In(kElems), Out(kElems);
  In.upload(HostIn);
  H.time(KernelName, [&] { launch(In.get(), Out.get(), kElems); });
  std::vector<float> HostOut;
  Out.download(HostOut);
  corpus::Rng Pick(corpus::seed() ^ 0x9E3779B97F4A7C15ULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? kElems - 1 : (int)Pick.below(kElems);
    H.compare(HostOut[I], std::max(HostIn[I], 0.0f));
  }
  return H.finish(0.0);
}

#endif // AUTOPROF_SPELLING_RELU_COMMON_CUH
