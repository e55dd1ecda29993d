//===- histogram_common.cuh - The host side of the histograms ---*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A 256-bin histogram of kBytes bytes (each the mean of two uniform
/// bytes, so that the middle bins are hot), checked bin by bin, exactly,
/// with the corpus harness. Each spelling defines `launch()` (one launch
/// of its kernel, in its own file, where the rewrite changes it) and
/// includes this file; the bins are zeroed before every launch.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_SPELLING_HISTOGRAM_COMMON_CUH
#define AUTOPROF_SPELLING_HISTOGRAM_COMMON_CUH

#include "../../corpus/corpus.cuh"

constexpr int kBytes = 1 << 26;
constexpr int kBins = 256;

/// Launches the spelling's kernel once on the default stream.
void launch(const unsigned char *Data, unsigned int *Bins, int N);

/// The name the harness reports the kernel's time under.
extern const char *const KernelName;

int main() {
  corpus::Harness H("histogram_spelling");
  corpus::Rng R(corpus::seed());
  std::vector<unsigned char> HostData(kBytes);
  for (int I = 0; I < kBytes; I += 4) {
    uint64_t Z = R.next();
    for (int K = 0; K < 4; ++K) {
      HostData[I + K] = (unsigned char)(((Z & 255) + ((Z >> 8) & 255)) >> 1);
      Z >>= 16;
    }
  }
  corpus::DeviceBuffer<unsigned char> Data(kBytes);
  corpus::DeviceBuffer<unsigned int> Bins(kBins);
  Data.upload(HostData);
  H.time(
      KernelName, [&] { launch(Data.get(), Bins.get(), kBytes); },
      [&] { Bins.zero(); });
  std::vector<unsigned int> HostBins;
  Bins.download(HostBins);
  std::vector<double> Want(kBins, 0.0);
  for (int I = 0; I < kBytes; ++I)
    Want[HostData[I]] += 1.0;
  for (int B = 0; B < kBins; ++B)
    H.compare(HostBins[B], Want[B]);
  return H.finish(0.0);
}

#endif // AUTOPROF_SPELLING_HISTOGRAM_COMMON_CUH
