// A maximum, not a sum: fmaxf on each pair, the block's half as `s >>= 1`
// from blockDim.x / 2 and the loop's test `s != 0`.
#include "reduce_common.cuh"

const char *const KernelName = "blockMax";
const int Chunk = 512;
const bool TakesMax = true;

__global__ void blockMax(const float *values, float *maxima, int count) {
  extern __shared__ float best[];
  int t = threadIdx.x;
  int at = blockIdx.x * blockDim.x + t;
  best[t] = at < count ? values[at] : -3.0e38f;
  __syncthreads();
  for (int s = blockDim.x / 2; s != 0; s >>= 1) {
    if (t < s)
      best[t] = fmaxf(best[t], best[t + s]);
    __syncthreads();
  }
  if (t == 0)
    maxima[blockIdx.x] = best[0];
}

void launch(const float *In, float *Out, int N) {
  const unsigned tpb = 512;
  blockMax<<<N / tpb, tpb, tpb * sizeof(float)>>>(In, Out, N);
}
