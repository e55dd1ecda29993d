//===- softmax_block_per_row.cu - Row softmax, block per row ---*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Row-wise softmax of a row-major Rows x Cols matrix (65536 x 1024). One
/// block per row: the threads stride over the columns, then reduce the row
/// maximum and the sum of exponentials with a shared-memory tree reduction
/// (one __syncthreads per level), then write the normalised outputs.
///
/// Bottleneck: barrier-stalls. With 1024 threads and one column per thread,
/// each row pays two 10-level tree reductions in which most warps sit idle
/// at __syncthreads while a few threads do the work.
///
/// Tolerance: 1e-5. Outputs are below 1, so the check is absolute; they
/// average 1/1024 and the fp32 tree sums are accurate to about 1e-6
/// relative, an absolute error near 1e-9; a wrong row or normalisation is
/// off by about the size of the outputs.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void softmaxBlockPerRowKernel(const float *In, float *Out,
                                         int Cols) {
  extern __shared__ float Scratch[];
  const float *RowIn = In + (size_t)blockIdx.x * Cols;
  float *RowOut = Out + (size_t)blockIdx.x * Cols;
  int Tid = threadIdx.x;

  float LocalMax = -INFINITY;
  for (int J = Tid; J < Cols; J += blockDim.x)
    LocalMax = fmaxf(LocalMax, RowIn[J]);
  Scratch[Tid] = LocalMax;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S >>= 1) {
    if (Tid < S)
      Scratch[Tid] = fmaxf(Scratch[Tid], Scratch[Tid + S]);
    __syncthreads();
  }
  float RowMax = Scratch[0];
  __syncthreads(); // Everyone has read the maximum before Scratch is reused.

  float LocalSum = 0.0f;
  for (int J = Tid; J < Cols; J += blockDim.x)
    LocalSum += expf(RowIn[J] - RowMax);
  Scratch[Tid] = LocalSum;
  __syncthreads();
  for (int S = blockDim.x / 2; S > 0; S >>= 1) {
    if (Tid < S)
      Scratch[Tid] += Scratch[Tid + S];
    __syncthreads();
  }
  float RowSum = Scratch[0];

  for (int J = Tid; J < Cols; J += blockDim.x)
    RowOut[J] = expf(RowIn[J] - RowMax) / RowSum;
}

int main() {
  constexpr int Rows = 65536;
  constexpr int Cols = 1024;
  constexpr size_t N = (size_t)Rows * Cols;
  constexpr int BlockSize = 1024; // A power of two: the tree reduction halves.
  constexpr int NumSampleRows = 64;
  constexpr double Tol = 1e-5;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn, -4.0f, 4.0f);

  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  corpus::Harness H("softmax_block_per_row");
  int Grid = Rows;
  size_t SharedBytes = BlockSize * sizeof(float);
  H.time("softmaxBlockPerRowKernel", [&] {
    softmaxBlockPerRowKernel<<<Grid, BlockSize, SharedBytes>>>(In.get(),
                                                               Out.get(), Cols);
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
