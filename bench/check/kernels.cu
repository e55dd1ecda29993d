//===- kernels.cu - Benchmark input of check ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// About 500 lines of CUDA for utils/bench_check.py: nine corpus programs
/// (bench/corpus/), each in a namespace, their `main` renamed `run`. Made
/// once from the corpus; it is parsed, never run.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"


// bench/corpus/saxpy_float4.cu
namespace saxpy_float4 {

__global__ void saxpyFloat4Kernel(float A, const float4 *X, float4 *Y,
                                  size_t N4) {
  size_t Stride = (size_t)gridDim.x * blockDim.x;
  for (size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x; I < N4;
       I += Stride) {
    float4 Xv = X[I];
    float4 Yv = Y[I];
    Yv.x = A * Xv.x + Yv.x;
    Yv.y = A * Xv.y + Yv.y;
    Yv.z = A * Xv.z + Yv.z;
    Yv.w = A * Xv.w + Yv.w;
    Y[I] = Yv;
  }
}

int run() {
  constexpr size_t N = (size_t)1 << 26; // A multiple of 4.
  constexpr size_t N4 = N / 4;
  constexpr int BlockSize = 256;
  constexpr int BlocksPerSm = 8;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-6;

  corpus::Rng R(corpus::seed());
  std::vector<float> HX(N), HY(N);
  R.fill(HX);
  R.fill(HY);
  float A = R.uniform(0.5f, 2.0f);

  // cudaMalloc aligns to at least 256 bytes, enough for float4.
  corpus::DeviceBuffer<float> X(N), Y(N), YInit(N);
  X.upload(HX);
  YInit.upload(HY);

  int NumSms = 0;
  CORPUS_CHECK(
      cudaDeviceGetAttribute(&NumSms, cudaDevAttrMultiProcessorCount, 0));
  int Grid = NumSms * BlocksPerSm;

  corpus::Harness H("saxpy_float4");
  H.time(
      "saxpyFloat4Kernel",
      [&] {
        saxpyFloat4Kernel<<<Grid, BlockSize>>>(
            A, reinterpret_cast<const float4 *>(X.get()),
            reinterpret_cast<float4 *>(Y.get()), N4);
      },
      [&] {
        CORPUS_CHECK(cudaMemcpy(Y.get(), YInit.get(), N * sizeof(float),
                                cudaMemcpyDeviceToDevice));
      });

  std::vector<float> HOut;
  Y.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    size_t I = S == 0 ? N - 1 : Pick.below((uint32_t)N);
    H.compare(HOut[I], (double)A * HX[I] + HY[I]);
  }
  return H.finish(Tol);
}
} // namespace saxpy_float4

// bench/corpus/transpose_smem_conflicts.cu
namespace transpose_smem_conflicts {

constexpr int TileDim = 32;

// Expects blockDim = (TileDim, any divisor of TileDim).
__global__ void transposeTiled(const float *In, float *Out, int Rows,
                               int Cols) {
  __shared__ float Tile[TileDim][TileDim];
  int X = blockIdx.x * TileDim + threadIdx.x; // Column of In.
  int Y = blockIdx.y * TileDim + threadIdx.y; // Row of In.
  for (int J = 0; J < TileDim; J += blockDim.y)
    if (X < Cols && Y + J < Rows)
      Tile[threadIdx.y + J][threadIdx.x] = In[(size_t)(Y + J) * Cols + X];
  __syncthreads();
  X = blockIdx.y * TileDim + threadIdx.x; // Column of Out (= row of In).
  Y = blockIdx.x * TileDim + threadIdx.y; // Row of Out (= column of In).
  for (int J = 0; J < TileDim; J += blockDim.y)
    if (X < Rows && Y + J < Cols)
      Out[(size_t)(Y + J) * Rows + X] = Tile[threadIdx.x][threadIdx.y + J];
}

int run() {
  constexpr int Rows = 16384;
  constexpr int Cols = 8192;
  constexpr int BlockRows = 8;
  constexpr int NumSamples = 1 << 16;
  constexpr double Tol = 0.0;

  corpus::Harness H("transpose_smem_conflicts");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)Rows * Cols);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevOut(HostIn.size());
  DevIn.upload(HostIn);

  dim3 Block(TileDim, BlockRows);
  dim3 Grid((Cols + TileDim - 1) / TileDim, (Rows + TileDim - 1) / TileDim);
  H.time("transposeTiled", [&] {
    transposeTiled<<<Grid, Block>>>(DevIn.get(), DevOut.get(), Rows, Cols);
  });

  // Out is Cols x Rows: Out[C][Rw] == In[Rw][C].
  std::vector<float> HostOut;
  DevOut.download(HostOut);
  for (int S = 0; S < NumSamples; ++S) {
    int Rw = (int)R.below(Rows);
    int C = (int)R.below(Cols);
    H.compare(HostOut[(size_t)C * Rows + Rw], HostIn[(size_t)Rw * Cols + C]);
  }
  return H.finish(Tol);
}
} // namespace transpose_smem_conflicts

// bench/corpus/matmul_smem_tiled.cu
namespace matmul_smem_tiled {

constexpr int TileSize = 16;

__global__ void matmulTiled(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  __shared__ float TileA[TileSize][TileSize];
  __shared__ float TileB[TileSize][TileSize];
  int Tx = threadIdx.x;
  int Ty = threadIdx.y;
  int Row = blockIdx.y * TileSize + Ty;
  int Col = blockIdx.x * TileSize + Tx;
  float Acc = 0.0f;
  for (int K0 = 0; K0 < K; K0 += TileSize) {
    TileA[Ty][Tx] =
        (Row < M && K0 + Tx < K) ? A[(size_t)Row * K + K0 + Tx] : 0.0f;
    TileB[Ty][Tx] =
        (K0 + Ty < K && Col < N) ? B[(size_t)(K0 + Ty) * N + Col] : 0.0f;
    __syncthreads();
    for (int I = 0; I < TileSize; ++I)
      Acc += TileA[Ty][I] * TileB[I][Tx];
    __syncthreads();
  }
  if (Row < M && Col < N)
    C[(size_t)Row * N + Col] = Acc;
}

int run() {
  constexpr int M = 2048;
  constexpr int N = 2048;
  constexpr int K = 2048;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-3;

  corpus::Harness H("matmul_smem_tiled");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)M * K), HostB((size_t)K * N);
  R.fill(HostA);
  R.fill(HostB);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevB(HostB.size());
  corpus::DeviceBuffer<float> DevC((size_t)M * N);
  DevA.upload(HostA);
  DevB.upload(HostB);

  // The kernel assumes one thread per tile element: Block = TileSize^2.
  dim3 Block(TileSize, TileSize);
  dim3 Grid((N + TileSize - 1) / TileSize, (M + TileSize - 1) / TileSize);
  H.time("matmulTiled", [&] {
    matmulTiled<<<Grid, Block>>>(DevA.get(), DevB.get(), DevC.get(), M, N, K);
  });

  std::vector<float> HostC;
  DevC.download(HostC);
  for (int S = 0; S < NumSamples; ++S) {
    int Row = (int)R.below(M);
    int Col = (int)R.below(N);
    double Want = 0.0;
    for (int I = 0; I < K; ++I)
      Want += (double)HostA[(size_t)Row * K + I] * HostB[(size_t)I * N + Col];
    H.compare(HostC[(size_t)Row * N + Col], Want);
  }
  return H.finish(Tol);
}
} // namespace matmul_smem_tiled

// bench/corpus/reduce_sum_interleaved.cu
namespace reduce_sum_interleaved {

__global__ void reduceSumInterleaved(const float *In, float *Total, int N) {
  extern __shared__ float Partial[];
  int Tid = threadIdx.x;
  int I = blockIdx.x * blockDim.x + Tid;
  Partial[Tid] = I < N ? In[I] : 0.0f;
  __syncthreads();
  // blockDim.x must be a power of two.
  for (int S = 1; S < (int)blockDim.x; S *= 2) {
    if (Tid % (2 * S) == 0)
      Partial[Tid] += Partial[Tid + S];
    __syncthreads();
  }
  if (Tid == 0)
    atomicAdd(Total, Partial[0]);
}

int run() {
  constexpr int N = 1 << 26;
  constexpr int BlockSize = 512;
  constexpr double Tol = 0.0;

  corpus::Harness H("reduce_sum_interleaved");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(N);
  for (float &V : HostIn)
    V = (float)((int)R.below(9) - 4);

  corpus::DeviceBuffer<float> DevIn(N);
  corpus::DeviceBuffer<float> DevTotal(1);
  DevIn.upload(HostIn);

  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time(
      "reduceSumInterleaved",
      [&] {
        reduceSumInterleaved<<<Grid, BlockSize, BlockSize * sizeof(float)>>>(
            DevIn.get(), DevTotal.get(), N);
      },
      [&] { DevTotal.zero(); });

  std::vector<float> HostTotal;
  DevTotal.download(HostTotal);
  int64_t Want = 0;
  for (float V : HostIn)
    Want += (int64_t)V;
  H.compare(HostTotal[0], (double)Want);
  return H.finish(Tol);
}
} // namespace reduce_sum_interleaved

// bench/corpus/histogram_global_atomics.cu
namespace histogram_global_atomics {

__global__ void histogramGlobalAtomicsKernel(const unsigned char *Data,
                                             unsigned int *Bins, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Bins[Data[I]], 1u);
}

int run() {
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
} // namespace histogram_global_atomics

// bench/corpus/softmax_thread_per_row.cu
namespace softmax_thread_per_row {

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

int run() {
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
} // namespace softmax_thread_per_row

// bench/corpus/gelu_erf.cu
namespace gelu_erf {

__global__ void geluErfKernel(const float *In, float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float X = In[I];
    Out[I] = 0.5f * X * (1.0f + erff(X * 0.70710678f));
  }
}

int run() {
  constexpr int N = 1 << 27;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-5;
  constexpr double InvSqrt2 = 0.70710678118654752440;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn, -4.0f, 4.0f);

  corpus::DeviceBuffer<float> In(N), Out(N);
  In.upload(HIn);

  corpus::Harness H("gelu_erf");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("geluErfKernel",
         [&] { geluErfKernel<<<Grid, BlockSize>>>(In.get(), Out.get(), N); });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? N - 1 : (int)Pick.below(N);
    double X = HIn[I];
    H.compare(HOut[I], 0.5 * X * (1.0 + std::erf(X * InvSqrt2)));
  }
  return H.finish(Tol);
}
} // namespace gelu_erf

// bench/corpus/spmv_csr_scalar.cu
namespace spmv_csr_scalar {

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

int run() {
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
} // namespace spmv_csr_scalar

// bench/corpus/stencil2d_5pt.cu
namespace stencil2d_5pt {

__global__ void stencil2d5pt(const float *In, float *Out, int NX, int NY,
                             float Center, float Side) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= NX || Y >= NY)
    return;
  size_t I = (size_t)Y * NX + X;
  if (X == 0 || Y == 0 || X == NX - 1 || Y == NY - 1) {
    Out[I] = In[I];
    return;
  }
  Out[I] =
      Center * In[I] + Side * (In[I - NX] + In[I + NX] + In[I - 1] + In[I + 1]);
}

int run() {
  constexpr int NX = 8192;  // Columns (contiguous).
  constexpr int NY = 16384; // Rows.
  constexpr float Center = 0.5f;
  constexpr float Side = 0.125f;
  constexpr int BlockX = 32;
  constexpr int BlockY = 8;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-5;

  corpus::Harness H("stencil2d_5pt");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)NX * NY);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevOut(HostIn.size());
  DevIn.upload(HostIn);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((NX + BlockX - 1) / BlockX, (NY + BlockY - 1) / BlockY);
  H.time("stencil2d5pt", [&] {
    stencil2d5pt<<<Grid, Block>>>(DevIn.get(), DevOut.get(), NX, NY, Center,
                                  Side);
  });

  std::vector<float> HostOut;
  DevOut.download(HostOut);
  auto At = [&](int X, int Y) -> double { return HostIn[(size_t)Y * NX + X]; };
  for (int S = 0; S < NumSamples; ++S) {
    // Every 16th sample lies on the boundary, to check the copy too.
    int X = (int)R.below(NX);
    int Y = S % 16 == 0 ? (S % 32 == 0 ? 0 : NY - 1) : (int)R.below(NY);
    double Want;
    if (X == 0 || Y == 0 || X == NX - 1 || Y == NY - 1)
      Want = At(X, Y);
    else
      Want = (double)Center * At(X, Y) +
             (double)Side *
                 (At(X, Y - 1) + At(X, Y + 1) + At(X - 1, Y) + At(X + 1, Y));
    H.compare(HostOut[(size_t)Y * NX + X], Want);
  }
  return H.finish(Tol);
}
} // namespace stencil2d_5pt
