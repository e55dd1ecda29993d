//===- histogram_global_atomics.cu - Histogram, global atomics -*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 256-bin histogram of 2^26 bytes. One thread per byte does atomicAdd
/// straight on the bin in global memory. The bytes follow a triangular
/// distribution peaked at 127 (the mean of two uniform bytes), as image-like
/// data would, so the middle bins are hot.
///
/// Bottleneck: atomic-contention. Every byte becomes one global atomic on one
/// of only 256 addresses, so the L2 atomic units serialise the updates of
/// each bin (the 1 KB of bins sits in very few L2 slices); the 64 MiB of
/// input are a tiny part of the time.
///
/// Tolerance: 0. Integer atomics are exact and order-independent.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void histogramGlobalAtomicsKernel(const unsigned char *Data,
                                             unsigned int *Bins, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Bins[Data[I]], 1u);
}

int main() {
  constexpr int N = 1 << 26; // A multiple of 4: each draw makes 4 bytes.
  constexpr int NumBins = 256;
  constexpr int BlockSize = 256;
  constexpr double Tol = 0.0;

  corpus::Rng R(corpus::seed());
  std::vector<unsigned char> HData(N);
  for (int I = 0; I < N; I += 4) {
    uint64_t Z = R.next();
    for (int K = 0; K < 4; ++K) {
      HData[I + K] = (unsigned char)(((Z & 255) + ((Z >> 8) & 255)) >> 1);
      Z >>= 16;
    }
  }

  corpus::DeviceBuffer<unsigned char> Data(N);
  corpus::DeviceBuffer<unsigned int> Bins(NumBins);
  Data.upload(HData);

  corpus::Harness H("histogram_global_atomics");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time(
      "histogramGlobalAtomicsKernel",
      [&] {
        histogramGlobalAtomicsKernel<<<Grid, BlockSize>>>(Data.get(),
                                                          Bins.get(), N);
      },
      [&] { Bins.zero(); });

  std::vector<unsigned int> HBins;
  Bins.download(HBins);
  std::vector<double> Want(NumBins, 0.0);
  for (int I = 0; I < N; ++I)
    Want[HData[I]] += 1.0;
  for (int B = 0; B < NumBins; ++B)
    H.compare(HBins[B], Want[B]);
  return H.finish(Tol);
}
