// matmul_uncoalesced: C = A * B in fp32 with M = N = K = 1024 (row-major),
// one thread per output element, but the row is derived from threadIdx.x and
// the column from threadIdx.y, so consecutive lanes of a warp walk down rows.
//
// Bottleneck: uncoalesced-memory. A warp's loads of A (and its stores of C)
// touch 16 different rows, K (resp. N) floats apart, so each request needs
// many sectors instead of one or two.
//
// Tolerance 1e-3: each output is a length-1024 fp32 dot product of values in
// [-1, 1); sequential fp32 accumulation stays within a few 1e-5 relative of
// the double CPU reference, so 1e-3 is safe while indexing bugs give errors of
// order 1.

#include "corpus.cuh"

__global__ void matmulUncoalesced(const float *A, const float *B, float *C,
                                  int M, int N, int K) {
  int Row = blockIdx.x * blockDim.x + threadIdx.x;
  int Col = blockIdx.y * blockDim.y + threadIdx.y;
  if (Row >= M || Col >= N)
    return;
  float Acc = 0.0f;
  for (int I = 0; I < K; ++I)
    Acc += A[(size_t)Row * K + I] * B[(size_t)I * N + Col];
  C[(size_t)Row * N + Col] = Acc;
}

int main() {
  constexpr int M = 1024;
  constexpr int N = 1024;
  constexpr int K = 1024;
  constexpr int BlockX = 16;
  constexpr int BlockY = 16;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-3;

  corpus::Harness H("matmul_uncoalesced");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)M * K), HostB((size_t)K * N);
  R.fill(HostA);
  R.fill(HostB);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevB(HostB.size());
  corpus::DeviceBuffer<float> DevC((size_t)M * N);
  DevA.upload(HostA);
  DevB.upload(HostB);

  // x runs over rows of C, y over columns.
  dim3 Block(BlockX, BlockY);
  dim3 Grid((M + BlockX - 1) / BlockX, (N + BlockY - 1) / BlockY);
  H.time("matmulUncoalesced", [&] {
    matmulUncoalesced<<<Grid, Block>>>(DevA.get(), DevB.get(), DevC.get(), M, N,
                                       K);
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
