// A conjunction of bounds, one of them always true, and the bound a
// parameter of type long.
#include "relu_common.cuh"

const char *const KernelName = "relu_and";

__global__ void relu_and(long n, const float *in, float *out) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 0 && i < n)
    out[i] = in[i] >= 0.0f ? in[i] : 0.0f;
}

void launch(const float *In, float *Out, int N) {
  const long Elems = N;
  relu_and<<<(Elems + 255) / 256, 256>>>(Elems, In, Out);
}
