//===- layernorm_thread_per_row.cu - LayerNorm, thread per row -*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LayerNorm over the last dimension of a row-major Rows x Cols matrix
/// (131072 x 512): Out = (x - mean) / sqrt(var + eps) * Gamma + Beta. Each
/// thread owns one row and makes two passes for the statistics (the mean,
/// then the variance around it) and a third to write the outputs.
///
/// Bottleneck: uncoalesced-memory. At every step the 32 threads of a warp
/// touch 32 different rows, Cols * 4 bytes apart, so each load or store
/// instruction needs 32 separate sectors.
///
/// Tolerance: 1e-4. Rows carry an offset in [-2, 2), so the sequential fp32
/// row sum (magnitude up to ~1500) rounds to about 1e-6 in the mean, a few
/// 1e-6 in the outputs (|out| up to ~4); 1e-4 covers the worst case while a
/// wrong statistic or index is off by O(0.1).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void layerNormThreadPerRowKernel(const float *In, const float *Gamma,
                                            const float *Beta, float *Out,
                                            int Rows, int Cols, float Eps) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  const float *RowIn = In + (size_t)Row * Cols;
  float *RowOut = Out + (size_t)Row * Cols;
  float Sum = 0.0f;
  for (int J = 0; J < Cols; ++J)
    Sum += RowIn[J];
  float Mean = Sum / Cols;
  float SqSum = 0.0f;
  for (int J = 0; J < Cols; ++J) {
    float D = RowIn[J] - Mean;
    SqSum += D * D;
  }
  float Rstd = rsqrtf(SqSum / Cols + Eps);
  for (int J = 0; J < Cols; ++J)
    RowOut[J] = (RowIn[J] - Mean) * Rstd * Gamma[J] + Beta[J];
}

int main() {
  constexpr int Rows = 131072;
  constexpr int Cols = 512;
  constexpr size_t N = (size_t)Rows * Cols;
  constexpr int BlockSize = 256;
  constexpr float Eps = 1e-5f;
  constexpr int NumSampleRows = 128;
  constexpr double Tol = 1e-4;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N), HGamma(Cols), HBeta(Cols);
  for (int Row = 0; Row < Rows; ++Row) {
    float Offset = R.uniform(-2.0f, 2.0f);
    for (int J = 0; J < Cols; ++J)
      HIn[(size_t)Row * Cols + J] = Offset + R.uniform(-1.0f, 1.0f);
  }
  R.fill(HGamma, 0.5f, 1.5f);
  R.fill(HBeta, -0.5f, 0.5f);

  corpus::DeviceBuffer<float> In(N), Gamma(Cols), Beta(Cols), Out(N);
  In.upload(HIn);
  Gamma.upload(HGamma);
  Beta.upload(HBeta);

  corpus::Harness H("layernorm_thread_per_row");
  int Grid = (Rows + BlockSize - 1) / BlockSize;
  H.time("layerNormThreadPerRowKernel", [&] {
    layerNormThreadPerRowKernel<<<Grid, BlockSize>>>(
        In.get(), Gamma.get(), Beta.get(), Out.get(), Rows, Cols, Eps);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check whole rows from a deterministic random sample, and the last row.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSampleRows; ++S) {
    int Row = S == 0 ? Rows - 1 : (int)Pick.below(Rows);
    const float *X = &HIn[(size_t)Row * Cols];
    double Mean = 0.0;
    for (int J = 0; J < Cols; ++J)
      Mean += X[J];
    Mean /= Cols;
    double Var = 0.0;
    for (int J = 0; J < Cols; ++J)
      Var += (X[J] - Mean) * (X[J] - Mean);
    Var /= Cols;
    double Rstd = 1.0 / std::sqrt(Var + (double)Eps);
    for (int J = 0; J < Cols; ++J)
      H.compare(HOut[(size_t)Row * Cols + J],
                (X[J] - Mean) * Rstd * HGamma[J] + HBeta[J]);
  }
  return H.finish(Tol);
}
