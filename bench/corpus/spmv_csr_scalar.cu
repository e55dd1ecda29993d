//===- spmv_csr_scalar.cu - CSR SpMV, one thread per row -------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Sparse matrix-vector product y = A x with A in CSR form: 1572864 rows,
/// 2^20 columns, 16 to 64 nonzeros per row (about 63M in all) at uniformly
/// random, unsorted columns. The scalar kernel gives each thread one row and
/// loops over that row's nonzeros.
///
/// Bottleneck: uncoalesced-memory. The 32 threads of a warp walk 32 different
/// rows, so each load of the values and column indices (8 bytes per nonzero,
/// about 500 MB per launch) touches up to 32 separate sectors, and the row
/// lengths differ across the warp; the 4 MB x vector stays in L2.
///
/// Tolerance: 1e-4. Values and x lie in [-1, 1), so a row sums at most 64
/// products of magnitude below 1; fp32 accumulation (with FMA) errs by a few
/// 1e-7 typically and well below 1e-4 at worst, while a wrong row or column
/// is off by O(0.1).
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void spmvCsrScalarKernel(const int *RowPtr, const int *ColIdx,
                                    const float *Vals, const float *X, float *Y,
                                    int Rows) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Rows) {
    float Sum = 0.0f;
    for (int K = RowPtr[Row]; K < RowPtr[Row + 1]; ++K)
      Sum += Vals[K] * X[ColIdx[K]];
    Y[Row] = Sum;
  }
}

int main() {
  constexpr int Rows = 3 << 19;
  constexpr int Cols = 1 << 20;
  constexpr int MinNnzPerRow = 16;
  constexpr int MaxNnzPerRow = 64;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;

  corpus::Rng R(corpus::seed());
  std::vector<int> HRowPtr(Rows + 1);
  HRowPtr[0] = 0;
  for (int Row = 0; Row < Rows; ++Row)
    HRowPtr[Row + 1] = HRowPtr[Row] + MinNnzPerRow +
                       (int)R.below(MaxNnzPerRow - MinNnzPerRow + 1);
  int Nnz = HRowPtr[Rows];
  std::vector<int> HColIdx(Nnz);
  std::vector<float> HVals(Nnz);
  for (int K = 0; K < Nnz; ++K) {
    HColIdx[K] = (int)R.below(Cols);
    HVals[K] = R.uniform();
  }
  std::vector<float> HX(Cols);
  R.fill(HX);

  corpus::DeviceBuffer<int> RowPtr(Rows + 1), ColIdx(Nnz);
  corpus::DeviceBuffer<float> Vals(Nnz), X(Cols), Y(Rows);
  RowPtr.upload(HRowPtr);
  ColIdx.upload(HColIdx);
  Vals.upload(HVals);
  X.upload(HX);

  corpus::Harness H("spmv_csr_scalar");
  int Grid = (Rows + BlockSize - 1) / BlockSize;
  H.time("spmvCsrScalarKernel", [&] {
    spmvCsrScalarKernel<<<Grid, BlockSize>>>(
        RowPtr.get(), ColIdx.get(), Vals.get(), X.get(), Y.get(), Rows);
  });

  std::vector<float> HY;
  Y.download(HY);
  // Check a deterministic random sample of rows, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int Row = S == 0 ? Rows - 1 : (int)Pick.below(Rows);
    double Want = 0.0;
    for (int K = HRowPtr[Row]; K < HRowPtr[Row + 1]; ++K)
      Want += (double)HVals[K] * HX[HColIdx[K]];
    H.compare(HY[Row], Want);
  }
  return H.finish(Tol);
}
