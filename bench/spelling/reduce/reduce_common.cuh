//===- reduce_common.cuh - The host side of the block reductions -*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every block reduces its chunk of kValues values (small integers stored
/// as floats, so that every partial result is exact in any order) to one
/// value, its sum or its maximum, and writes it to Out[block]; each value
/// is checked exactly with the corpus harness. Each spelling defines
/// `launch()` (one launch of its kernel, in its own file, where a rewrite
/// may change it), the chunk each block reduces and what it computes, and
/// includes this file. Every spelling reduces chunks of 512 values with
/// blocks of 512 threads, so that their times compare.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_REDUCE_COMMON_CUH
#define AUTOPROF_SPELLING_REDUCE_COMMON_CUH

#include "../../corpus/corpus.cuh"

constexpr int kValues = 1 << 25;

/// Launches the spelling's kernel once on the default stream: one block per
/// Chunk values of In, block b's result in Out[b].
void launch(const float *In, float *Out, int N);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;
/// The values each block reduces.
extern const int Chunk;
/// Whether a block computes the maximum of its chunk instead of the sum.
extern const bool TakesMax;

int main() {
  corpus::Harness H("reduce_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(kValues);
  for (float &V : HostIn)
    V = (float)((int)R.below(9) - 4);
  int Blocks = kValues / Chunk;
  corpus::DeviceBuffer<float> In(kValues);
  corpus::DeviceBuffer<float> Out(Blocks);
  In.upload(HostIn);
  H.time(KernelName, [&] { launch(In.get(), Out.get(), kValues); },
         [&] { Out.zero(); });
  std::vector<float> HostOut;
  Out.download(HostOut);
  for (int B = 0; B < Blocks; ++B) {
    double Want = TakesMax ? -1e30 : 0.0;
    for (int I = B * Chunk; I < (B + 1) * Chunk; ++I)
      Want = TakesMax ? std::max(Want, (double)HostIn[I]) : Want + HostIn[I];
    H.compare(HostOut[B], Want);
  }
  return H.finish(0.0);
}

#endif // AUTOPROF_SPELLING_REDUCE_COMMON_CUH
