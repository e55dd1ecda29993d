// gemv_thread_per_row: y = A * x in fp32, A is Rows x Cols = 65536 x 2048
// (row-major, 512 MiB); one thread per row loops over its whole row.
//
// Bottleneck: uncoalesced-memory. At each step the 32 lanes of a warp read
// 32 different rows, Cols floats apart, so every load instruction touches 32
// separate sectors/cache lines; the kernel runs far below DRAM bandwidth.
//
// Tolerance 1e-3: each output is a length-2048 fp32 dot product of values in
// [-1, 1); sequential fp32 accumulation stays within a few 1e-5 relative of
// the double CPU reference, so 1e-3 is safe while indexing bugs give errors of
// order 1.

#include "corpus.cuh"

__global__ void gemvThreadPerRow(const float *A, const float *X, float *Y,
                                 int Rows, int Cols) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= Rows)
    return;
  float Sum = 0.0f;
  for (int C = 0; C < Cols; ++C)
    Sum += A[(size_t)Row * Cols + C] * X[C];
  Y[Row] = Sum;
}

int main() {
  constexpr int Rows = 65536;
  constexpr int Cols = 2048;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-3;

  corpus::Harness H("gemv_thread_per_row");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)Rows * Cols), HostX(Cols);
  R.fill(HostA);
  R.fill(HostX);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevX(HostX.size());
  corpus::DeviceBuffer<float> DevY(Rows);
  DevA.upload(HostA);
  DevX.upload(HostX);

  int Grid = (Rows + BlockSize - 1) / BlockSize;
  H.time("gemvThreadPerRow", [&] {
    gemvThreadPerRow<<<Grid, BlockSize>>>(DevA.get(), DevX.get(), DevY.get(),
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
