//===- rmsnorm_block_per_row.cu - RMSNorm, block per row -------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// RMSNorm over the last dimension of a row-major Rows x Cols matrix
/// (65536 x 1024): Out = x / sqrt(mean(x^2) + eps) * Weight. One block per
/// row: the threads stride over the columns for their partial sums of
/// squares, reduce them with a shared-memory tree (one __syncthreads per
/// level), then reread the row to write the outputs.
///
/// Bottleneck: barrier-stalls. With 1024 threads and one column per thread,
/// each row pays a 10-level tree reduction in which most warps sit idle at
/// __syncthreads while a few threads do the work.
///
/// Tolerance: 1e-5. The sum of squares has only positive terms and is
/// reduced as a tree, so it is accurate to about 1e-6 relative; outputs are
/// at most ~2.6, so their error is a few 1e-7.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void rmsNormBlockPerRowKernel(const float *In, const float *Weight,
                                         float *Out, int Cols, float Eps) {
  extern __shared__ float Partial[];
  const float *RowIn = In + (size_t)blockIdx.x * Cols;
  float *RowOut = Out + (size_t)blockIdx.x * Cols;
  int Tid = threadIdx.x;

  float Local = 0.0f;
  for (int J = Tid; J < Cols; J += blockDim.x) {
    float V = RowIn[J];
    Local += V * V;
  }
  Partial[Tid] = Local;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S >>= 1) {
    if (Tid < S)
      Partial[Tid] += Partial[Tid + S];
    __syncthreads();
  }
  float Scale = rsqrtf(Partial[0] / Cols + Eps);

  for (int J = Tid; J < Cols; J += blockDim.x)
    RowOut[J] = RowIn[J] * Scale * Weight[J];
}

int main() {
  constexpr int Rows = 65536;
  constexpr int Cols = 1024;
  constexpr size_t N = (size_t)Rows * Cols;
  constexpr int BlockSize = 1024; // A power of two: the tree reduction halves.
  constexpr float Eps = 1e-6f;
  constexpr int NumSampleRows = 64;
  constexpr double Tol = 1e-5;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N), HWeight(Cols);
  R.fill(HIn, -1.0f, 1.0f);
  R.fill(HWeight, 0.5f, 1.5f);

  corpus::DeviceBuffer<float> In(N), Weight(Cols), Out(N);
  In.upload(HIn);
  Weight.upload(HWeight);

  corpus::Harness H("rmsnorm_block_per_row");
  int Grid = Rows;
  size_t SharedBytes = BlockSize * sizeof(float);
  H.time("rmsNormBlockPerRowKernel", [&] {
    rmsNormBlockPerRowKernel<<<Grid, BlockSize, SharedBytes>>>(
        In.get(), Weight.get(), Out.get(), Cols, Eps);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check whole rows from a deterministic random sample, and the last row.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSampleRows; ++S) {
    int Row = S == 0 ? Rows - 1 : (int)Pick.below(Rows);
    const float *X = &HIn[(size_t)Row * Cols];
    double SqSum = 0.0;
    for (int J = 0; J < Cols; ++J)
      SqSum += (double)X[J] * X[J];
    double Scale = 1.0 / std::sqrt(SqSum / Cols + (double)Eps);
    for (int J = 0; J < Cols; ++J)
      H.compare(HOut[(size_t)Row * Cols + J], X[J] * Scale * HWeight[J]);
  }
  return H.finish(Tol);
}
