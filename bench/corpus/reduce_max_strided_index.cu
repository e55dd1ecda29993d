// reduce_max_strided_index: the maximum of N = 2^27 non-negative fp32 values.
// Each block loads one element per thread into shared memory and reduces it
// with a tree whose active threads are contiguous (`Index = 2 * S * Tid`),
// then thread 0 folds the block's maximum into the result with an integer
// atomicMax on the float's bits (valid because all values are >= 0, where
// IEEE order equals integer order of the bit patterns).
//
// Bottleneck: bank-conflicts. Divergence is gone, but thread Tid touches
// Max[2 * S * Tid] and Max[2 * S * Tid + S]: a stride of 2S words, so the
// lanes of a warp pile onto the same banks (2-way at S = 1 up to 32-way).
//
// Tolerance 0: the maximum is one of the inputs; it must be exact.

#include "corpus.cuh"

constexpr int BlockSize = 1024;

__global__ void reduceMaxStrided(const float *In, float *Result, int N) {
  __shared__ float Max[BlockSize];
  unsigned Tid = threadIdx.x;
  unsigned I = blockIdx.x * blockDim.x + Tid;
  Max[Tid] = I < (unsigned)N ? In[I] : 0.0f; // 0 is the identity: In >= 0.
  __syncthreads();
  // blockDim.x must be a power of two, at most BlockSize.
  for (unsigned S = 1; S < blockDim.x; S *= 2) {
    unsigned Index = 2 * S * Tid;
    if (Index < blockDim.x)
      Max[Index] = fmaxf(Max[Index], Max[Index + S]);
    __syncthreads();
  }
  if (Tid == 0)
    atomicMax(reinterpret_cast<int *>(Result), __float_as_int(Max[0]));
}

int main() {
  constexpr int N = 1 << 27;
  constexpr double Tol = 0.0;

  corpus::Harness H("reduce_max_strided_index");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(N);
  R.fill(HostIn, 0.0f, 1.0f);

  corpus::DeviceBuffer<float> DevIn(N);
  corpus::DeviceBuffer<float> DevResult(1);
  DevIn.upload(HostIn);

  int Grid = (N + BlockSize - 1) / BlockSize;
  // Zeroed bits are +0.0f, below every input.
  H.time(
      "reduceMaxStrided",
      [&] {
        reduceMaxStrided<<<Grid, BlockSize>>>(DevIn.get(), DevResult.get(), N);
      },
      [&] { DevResult.zero(); });

  std::vector<float> HostResult;
  DevResult.download(HostResult);
  float Want = 0.0f;
  for (float V : HostIn)
    Want = std::max(Want, V);
  H.compare(HostResult[0], Want);
  return H.finish(Tol);
}
