// reduce_sum_interleaved: the sum of N = 2^26 fp32 values. Each block loads
// one element per thread into shared memory, reduces it with an interleaved
// tree (`if (Tid % (2 * S) == 0)`), and thread 0 adds the block's sum to the
// total with one atomicAdd.
//
// Bottleneck: divergence. At every level only every (2S)-th thread works, so
// the active lanes are scattered across all warps: every warp stays resident
// and branches divergently, and the modulo itself is costly.
//
// Tolerance 0: the inputs are small integers (-4..4) stored as floats, so
// every partial sum, in any order, is an integer of magnitude < 2^24 and
// exact in fp32 (even the sum of all positive block sums is ~3e6); the GPU
// result must equal the exact integer total.

#include "corpus.cuh"

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

int main() {
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
