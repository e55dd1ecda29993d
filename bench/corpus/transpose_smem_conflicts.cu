// transpose_smem_conflicts: Out = In^T for a Rows x Cols = 16384 x 8192 fp32
// matrix (row-major, 512 MiB each way) through a 32x32 shared-memory tile.
// Blocks are TileDim x BlockRows threads; each thread moves
// TileDim / BlockRows elements in and out. Both global reads and writes are
// coalesced, but the tile has no padding column.
//
// Bottleneck: bank-conflicts. The write phase reads the tile down a column
// (Tile[threadIdx.x][...]): the 32 lanes hit addresses 32 floats apart, all
// in the same bank, a 32-way conflict on every load.
//
// Tolerance 0: a transpose only moves bits; the result must be exact.

#include "corpus.cuh"

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

int main() {
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
