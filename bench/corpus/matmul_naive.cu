// matmul_naive: C = A * B in fp32 with M = N = K = 2048 (row-major), one
// thread per output element; the row comes from threadIdx.y and the column
// from threadIdx.x, and the inner loop over K reads A and B straight from
// global memory.
//
// Bottleneck: poor-data-reuse. Every A and B element is fetched from the
// memory system N (resp. M) times; nothing is staged in shared memory or
// registers, so the kernel is bound by L1/L2 load traffic, not by FMAs.
//
// Tolerance 1e-3: each output is a length-2048 fp32 dot product of values in
// [-1, 1) (|C| ~ 15). Sequential fp32 accumulation has a typical relative
// error ~ sqrt(K) * 6e-8 ~ 3e-6 and a realistic worst case of a few 1e-5
// against the double CPU reference; 1e-3 allows other summation orders while
// any indexing bug gives errors of order 1.

#include "corpus.cuh"

__global__ void matmulNaive(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= M || Col >= N)
    return;
  float Acc = 0.0f;
  for (int I = 0; I < K; ++I)
    Acc += A[(size_t)Row * K + I] * B[(size_t)I * N + Col];
  C[(size_t)Row * N + Col] = Acc;
}

int main() {
  constexpr int M = 2048;
  constexpr int N = 2048;
  constexpr int K = 2048;
  constexpr int BlockX = 16;
  constexpr int BlockY = 16;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-3;

  corpus::Harness H("matmul_naive");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)M * K), HostB((size_t)K * N);
  R.fill(HostA);
  R.fill(HostB);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevB(HostB.size());
  corpus::DeviceBuffer<float> DevC((size_t)M * N);
  DevA.upload(HostA);
  DevB.upload(HostB);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((N + BlockX - 1) / BlockX, (M + BlockY - 1) / BlockY);
  H.time("matmulNaive", [&] {
    matmulNaive<<<Grid, Block>>>(DevA.get(), DevB.get(), DevC.get(), M, N, K);
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
