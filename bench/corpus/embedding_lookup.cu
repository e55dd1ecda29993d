//===- embedding_lookup.cu - Embedding table gather ------------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Embedding lookup: Out[t][:] = Table[Idx[t]][:] for 131072 tokens drawn
/// uniformly from a 32000 x 1024 table. One thread per output element
/// decomposes its index into (token, column) and reads the token id, then
/// the table entry.
///
/// Bottleneck: memory-bound (indirect). 512 MiB of table rows are read
/// through the index (the 131 MB table does not fit in L2) and 512 MiB are
/// written, about 1.07 GB per launch.
///
/// Tolerance: 0. The kernel copies values, so any difference is a bug.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void embeddingLookupKernel(const int *Idx, const float *Table,
                                      float *Out, int N, int Dim) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    int Token = I / Dim;
    int Col = I % Dim;
    Out[I] = Table[(size_t)Idx[Token] * Dim + Col];
  }
}

int main() {
  constexpr int Vocab = 32000;
  constexpr int Dim = 1024;
  constexpr int NumTokens = 131072;
  constexpr int N = NumTokens * Dim;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 0.0;

  corpus::Rng R(corpus::seed());
  std::vector<float> HTable((size_t)Vocab * Dim);
  R.fill(HTable);
  std::vector<int> HIdx(NumTokens);
  for (int &T : HIdx)
    T = (int)R.below(Vocab);

  corpus::DeviceBuffer<float> Table((size_t)Vocab * Dim), Out(N);
  corpus::DeviceBuffer<int> Idx(NumTokens);
  Table.upload(HTable);
  Idx.upload(HIdx);

  corpus::Harness H("embedding_lookup");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("embeddingLookupKernel", [&] {
    embeddingLookupKernel<<<Grid, BlockSize>>>(Idx.get(), Table.get(),
                                               Out.get(), N, Dim);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? N - 1 : (int)Pick.below(N);
    int Token = I / Dim;
    int Col = I % Dim;
    H.compare(HOut[I], HTable[(size_t)HIdx[Token] * Dim + Col]);
  }
  return H.finish(Tol);
}
