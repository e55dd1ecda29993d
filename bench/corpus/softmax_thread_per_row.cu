//===- softmax_thread_per_row.cu - Row softmax, thread per row -*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row-wise softmax of a row-major Rows x Cols matrix (131072 x 512). Each
/// thread owns one row and loops over its columns three times: the maximum,
/// the sum of exponentials, then the normalised outputs.
///
/// Bottleneck: uncoalesced-memory. At every step the 32 threads of a warp
/// touch 32 different rows, Cols * 4 bytes apart, so each load or store
/// instruction needs 32 separate sectors.
///
/// Tolerance: 1e-5. Outputs are below 1, so the check is absolute; they
/// average 1/512 and the relative error of the fp32 sum is a few 1e-6 at
/// most, an absolute error near 1e-8; a wrong row or normalisation is off by
/// about the size of the outputs (1e-3).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void softmaxThreadPerRowKernel(const float *In, float *Out, int Rows,
                                          int Cols) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  const float *RowIn = In + (size_t)Row * Cols;
  float *RowOut = Out + (size_t)Row * Cols;
  float Max = -INFINITY;
  for (int J = 0; J < Cols; ++J)
    Max = fmaxf(Max, RowIn[J]);
  float Sum = 0.0f;
  for (int J = 0; J < Cols; ++J)
    Sum += expf(RowIn[J] - Max);
  for (int J = 0; J < Cols; ++J)
    RowOut[J] = expf(RowIn[J] - Max) / Sum;
}

int main() {
  constexpr int Rows = 131072;
  constexpr int Cols = 512;
  constexpr size_t N = (size_t)Rows * Cols;
  constexpr int BlockSize = 256;
  constexpr int NumSampleRows = 128;
  constexpr double Tol = 1e-5;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn, -4.0f, 4.0f);

  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  corpus::Harness H("softmax_thread_per_row");
  int Grid = (Rows + BlockSize - 1) / BlockSize;
  H.time("softmaxThreadPerRowKernel", [&] {
    softmaxThreadPerRowKernel<<<Grid, BlockSize>>>(In.get(), Out.get(), Rows,
                                                   Cols);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check whole rows from a deterministic random sample, and the last row.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  std::vector<double> E(Cols);
  for (int S = 0; S < NumSampleRows; ++S) {
    int Row = S == 0 ? Rows - 1 : (int)Pick.below(Rows);
    const float *X = &HIn[(size_t)Row * Cols];
    double Max = X[0];
    for (int J = 1; J < Cols; ++J)
      Max = std::max(Max, (double)X[J]);
    double Sum = 0.0;
    for (int J = 0; J < Cols; ++J) {
      E[J] = std::exp((double)X[J] - Max);
      Sum += E[J];
    }
    for (int J = 0; J < Cols; ++J)
      H.compare(HOut[(size_t)Row * Cols + J], E[J] / Sum);
  }
  return H.finish(Tol);
}
