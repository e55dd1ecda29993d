// gemv_warp_per_row: y = A * x in fp32, A is Rows x Cols = 65536 x 4096
// (row-major, 1 GiB); one warp per row reads the row with coalesced float4
// loads and reduces its partial sums with warp shuffles.
//
// Bottleneck: near-limit. The kernel streams A once at close to DRAM
// bandwidth (x stays in cache); there is little left to gain: leave it alone.
//
// Tolerance 1e-3: each output is a length-4096 fp32 dot product of values in
// [-1, 1); per-lane strided accumulation plus a shuffle tree stays within a
// few 1e-5 relative of the double CPU reference, so 1e-3 is safe while
// indexing bugs give errors of order 1.

#include "corpus.cuh"

constexpr int WarpSize = 32;

// Requires Cols % 4 == 0 (rows then stay 16-byte aligned).
__global__ void gemvWarpPerRow(const float *A, const float *X, float *Y,
                               int Rows, int Cols) {
  int Lane = threadIdx.x % WarpSize;
  int Row = (blockIdx.x * blockDim.x + threadIdx.x) / WarpSize;
  if (Row >= Rows) // Uniform across the warp: blockDim is a multiple of 32.
    return;
  const float4 *Row4 = reinterpret_cast<const float4 *>(A + (size_t)Row * Cols);
  const float4 *X4 = reinterpret_cast<const float4 *>(X);
  int Cols4 = Cols / 4;
  float Sum = 0.0f;
  for (int C = Lane; C < Cols4; C += WarpSize) {
    float4 Av = Row4[C];
    float4 Xv = X4[C];
    Sum += Av.x * Xv.x + Av.y * Xv.y + Av.z * Xv.z + Av.w * Xv.w;
  }
  for (int Offset = WarpSize / 2; Offset > 0; Offset /= 2)
    Sum += __shfl_down_sync(0xffffffffu, Sum, Offset);
  if (Lane == 0)
    Y[Row] = Sum;
}

int main() {
  constexpr int Rows = 65536;
  constexpr int Cols = 4096;
  constexpr int BlockSize = 256; // 8 rows per block.
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-3;

  corpus::Harness H("gemv_warp_per_row");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)Rows * Cols), HostX(Cols);
  R.fill(HostA);
  R.fill(HostX);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevX(HostX.size());
  corpus::DeviceBuffer<float> DevY(Rows);
  DevA.upload(HostA);
  DevX.upload(HostX);

  constexpr int RowsPerBlock = BlockSize / WarpSize;
  int Grid = (Rows + RowsPerBlock - 1) / RowsPerBlock;
  H.time("gemvWarpPerRow", [&] {
    gemvWarpPerRow<<<Grid, BlockSize>>>(DevA.get(), DevX.get(), DevY.get(),
                                        Rows, Cols);
  });

  std::vector<float> HostY;
  DevY.download(HostY);
  for (int S = 0; S < NumSamples; ++S) {
    int Row = (int)R.below(Rows);
    double Want = 0.0;
    for (int C = 0; C < Cols; ++C)
      Want += (double)HostA[(size_t)Row * Cols + C] * HostX[C];
    H.compare(HostY[Row], Want);
  }
  return H.finish(Tol);
}
