// The partial sums in double precision, converted once at the end; the
// block size a template-free `static const`, the stride size_t.
#include "reduce_common.cuh"

static const int kBlock = 512;

const char *const KernelName = "sum_f64";
const int Chunk = kBlock;
const bool TakesMax = false;

__global__ void sum_f64(const float *in, float *out, int n) {
  __shared__ double acc[kBlock];
  size_t tid = threadIdx.x;
  size_t gid = (size_t)blockIdx.x * kBlock + tid;
  acc[tid] = gid < (size_t)n ? (double)in[gid] : 0.0;
  __syncthreads();
  for (size_t half = kBlock >> 1; half >= 1; half >>= 1) {
    if (tid < half)
      acc[tid] += acc[tid + half];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = (float)acc[0];
}

void launch(const float *In, float *Out, int N) {
  sum_f64<<<N / kBlock, kBlock>>>(In, Out, N);
}
