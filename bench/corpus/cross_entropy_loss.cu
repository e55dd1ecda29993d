//===- cross_entropy_loss.cu - Softmax cross-entropy loss ------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Mean softmax cross-entropy of 131072 rows of 1000 logits (row-major)
/// against integer labels. Each thread owns one row: it finds the maximum,
/// sums the exponentials, forms the loss log(sum) + max - logit[label],
/// stores it, and adds loss / Rows to the total with atomicAdd.
///
/// Bottleneck: uncoalesced-memory. At every step the 32 threads of a warp
/// read 32 different rows, 4000 bytes apart, so each load instruction needs
/// 32 separate sectors; the 524 MB of logits are read twice.
///
/// Tolerance: 1e-4. Row losses lie between about 5 and 13 and are exact to
/// a few 1e-7 relative. The total (about 8.8) is compared with the mean of
/// the kernel's own row losses taken in double; its 131072 atomic float
/// additions in varying order round to about 1e-5 relative (4e-5 at five
/// sigma).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void crossEntropyLossKernel(const float *Logits, const int *Labels,
                                       float *RowLoss, float *TotalLoss,
                                       int Rows, int Classes, float InvRows) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  const float *L = Logits + (size_t)Row * Classes;
  float Max = -INFINITY;
  for (int C = 0; C < Classes; ++C)
    Max = fmaxf(Max, L[C]);
  float Sum = 0.0f;
  for (int C = 0; C < Classes; ++C)
    Sum += expf(L[C] - Max);
  float Loss = logf(Sum) + Max - L[Labels[Row]];
  RowLoss[Row] = Loss;
  atomicAdd(TotalLoss, Loss * InvRows);
}

int main() {
  constexpr int Rows = 131072;
  constexpr int Classes = 1000;
  constexpr size_t N = (size_t)Rows * Classes;
  constexpr int BlockSize = 256;
  constexpr int NumSampleRows = 4096;
  constexpr double Tol = 1e-4;

  corpus::Rng R(corpus::seed());
  std::vector<float> HLogits(N);
  R.fill(HLogits, -4.0f, 4.0f);
  std::vector<int> HLabels(Rows);
  for (int &L : HLabels)
    L = (int)R.below(Classes);

  corpus::DeviceBuffer<float> Logits(N), RowLoss(Rows), TotalLoss(1);
  corpus::DeviceBuffer<int> Labels(Rows);
  Logits.upload(HLogits);
  Labels.upload(HLabels);

  corpus::Harness H("cross_entropy_loss");
  int Grid = (Rows + BlockSize - 1) / BlockSize;
  float InvRows = 1.0f / Rows;
  H.time(
      "crossEntropyLossKernel",
      [&] {
        crossEntropyLossKernel<<<Grid, BlockSize>>>(
            Logits.get(), Labels.get(), RowLoss.get(), TotalLoss.get(), Rows,
            Classes, InvRows);
      },
      [&] { TotalLoss.zero(); });

  std::vector<float> HRowLoss, HTotal;
  RowLoss.download(HRowLoss);
  TotalLoss.download(HTotal);
  // Check the row losses of a deterministic random sample of rows, and of
  // the last row, against a double-precision reference.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSampleRows; ++S) {
    int Row = S == 0 ? Rows - 1 : (int)Pick.below(Rows);
    const float *L = &HLogits[(size_t)Row * Classes];
    double Max = L[0];
    for (int C = 1; C < Classes; ++C)
      Max = std::max(Max, (double)L[C]);
    double Sum = 0.0;
    for (int C = 0; C < Classes; ++C)
      Sum += std::exp((double)L[C] - Max);
    H.compare(HRowLoss[Row], std::log(Sum) + Max - L[HLabels[Row]]);
  }
  // Check the reduction: the mean of the kernel's own row losses.
  double Mean = 0.0;
  for (float L : HRowLoss)
    Mean += L;
  Mean /= Rows;
  H.compare(HTotal[0], Mean);
  return H.finish(Tol);
}
