// The index assembled from helper locals, a negated early return, and the
// value clamped in a local.
#include "relu_common.cuh"

const char *const KernelName = "ReluHelpers";

__global__ void ReluHelpers(int len, const float *in, float *out) {
  int tid = threadIdx.x;
  int width = blockDim.x;
  int first = blockIdx.x * width;
  int e = first + tid;
  if (!(e < len))
    return;
  float x = in[e];
  float r = x > 0 ? x : 0;
  out[e] = r;
}

void launch(const float *In, float *Out, int N) {
  int block = 256;
  int grid = N / block + (N % block != 0);
  (void)grid;
  ReluHelpers<<<(N + 255) / 256, 256>>>(N, In, Out);
}
