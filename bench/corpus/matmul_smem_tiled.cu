// matmul_smem_tiled: C = A * B in fp32 with M = N = K = 2048 (row-major),
// a straightforward 16x16 shared-memory tiled kernel: each block stages one
// 16x16 tile of A and of B per step of K, then every thread accumulates one
// output from shared memory.
//
// Bottleneck: compute-bound. Global traffic is cut 16x compared with the
// naive kernel; what remains is the FMA loop (fed by two shared-memory loads
// per FMA, one output per thread), i.e. a reasonable first attempt at tiling
// that register blocking could still improve.
//
// Tolerance 1e-3: each output is a length-2048 fp32 dot product of values in
// [-1, 1); sequential fp32 accumulation stays within a few 1e-5 relative of
// the double CPU reference, so 1e-3 is safe while indexing bugs give errors of
// order 1.

#include "corpus.cuh"

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

int main() {
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
