// transpose_naive: Out = In^T for a Rows x Cols = 16384 x 8192 fp32 matrix
// (row-major, 512 MiB each way): Out[x][y] = In[y][x]. One thread per
// element; reads are coalesced, writes are not.
//
// Bottleneck: uncoalesced-memory. Consecutive lanes write addresses Rows
// floats apart, so each warp store touches 32 different sectors.
//
// Tolerance 0: a transpose only moves bits; the result must be exact.

#include "corpus.cuh"

__global__ void transposeNaive(const float *In, float *Out, int Rows,
                               int Cols) {
  int X = blockIdx.x * blockDim.x + threadIdx.x; // Column of In.
  int Y = blockIdx.y * blockDim.y + threadIdx.y; // Row of In.
  if (X >= Cols || Y >= Rows)
    return;
  Out[(size_t)X * Rows + Y] = In[(size_t)Y * Cols + X];
}

int main() {
  constexpr int Rows = 16384;
  constexpr int Cols = 8192;
  constexpr int BlockX = 32;
  constexpr int BlockY = 8;
  constexpr int NumSamples = 1 << 16;
  constexpr double Tol = 0.0;

  corpus::Harness H("transpose_naive");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)Rows * Cols);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevOut(HostIn.size());
  DevIn.upload(HostIn);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((Cols + BlockX - 1) / BlockX, (Rows + BlockY - 1) / BlockY);
  H.time("transposeNaive", [&] {
    transposeNaive<<<Grid, Block>>>(DevIn.get(), DevOut.get(), Rows, Cols);
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
