// batched_matmul_naive: C[b] = A[b] * B[b] for Batch = 64 independent fp32
// 256x256x256 products (row-major, matrices stored back to back); one thread
// per output element, blockIdx.z selects the matrix, the inner loop reads A
// and B straight from global memory.
//
// Bottleneck: poor-data-reuse. As in the naive matmul, every element of A[b]
// and B[b] is re-fetched 256 times through L1/L2 with no staging in shared
// memory or registers.
//
// Tolerance 1e-4: each output is a length-256 fp32 dot product of values in
// [-1, 1) (|C| ~ 5); sequential fp32 accumulation stays within ~1e-5 relative
// of the double CPU reference, so 1e-4 is a 10x margin while indexing bugs
// give errors of order 1.

#include "corpus.cuh"

__global__ void batchedMatmulNaive(const float *A, const float *B, float *C,
                                   int M, int N, int K) {
  int Batch = blockIdx.z;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row >= M || Col >= N)
    return;
  const float *Ab = A + (size_t)Batch * M * K;
  const float *Bb = B + (size_t)Batch * K * N;
  float *Cb = C + (size_t)Batch * M * N;
  float Acc = 0.0f;
  for (int I = 0; I < K; ++I)
    Acc += Ab[(size_t)Row * K + I] * Bb[(size_t)I * N + Col];
  Cb[(size_t)Row * N + Col] = Acc;
}

int main() {
  constexpr int Batch = 64;
  constexpr int M = 256;
  constexpr int N = 256;
  constexpr int K = 256;
  constexpr int BlockX = 16;
  constexpr int BlockY = 16;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;

  corpus::Harness H("batched_matmul_naive");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostA((size_t)Batch * M * K), HostB((size_t)Batch * K * N);
  R.fill(HostA);
  R.fill(HostB);

  corpus::DeviceBuffer<float> DevA(HostA.size());
  corpus::DeviceBuffer<float> DevB(HostB.size());
  corpus::DeviceBuffer<float> DevC((size_t)Batch * M * N);
  DevA.upload(HostA);
  DevB.upload(HostB);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((N + BlockX - 1) / BlockX, (M + BlockY - 1) / BlockY, Batch);
  H.time("batchedMatmulNaive", [&] {
    batchedMatmulNaive<<<Grid, Block>>>(DevA.get(), DevB.get(), DevC.get(), M,
                                        N, K);
  });

  std::vector<float> HostC;
  DevC.download(HostC);
  for (int S = 0; S < NumSamples; ++S) {
    int Bt = (int)R.below(Batch);
    int Row = (int)R.below(M);
    int Col = (int)R.below(N);
    const float *Ab = HostA.data() + (size_t)Bt * M * K;
    const float *Bb = HostB.data() + (size_t)Bt * K * N;
    double Want = 0.0;
    for (int I = 0; I < K; ++I)
      Want += (double)Ab[(size_t)Row * K + I] * Bb[(size_t)I * N + Col];
    H.compare(HostC[(size_t)Bt * M * N + (size_t)Row * N + Col], Want);
  }
  return H.finish(Tol);
}
