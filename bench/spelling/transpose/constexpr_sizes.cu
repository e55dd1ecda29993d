// Sizes as constexpr, the bound read as `<=` one less, a scale of one on
// the value.
#include "transpose_common.cuh"

constexpr int H = 16384, W = 8192;

const char *const KernelName = "transposeConst";

__global__ void transposeConst(const float *in, float *out) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c <= W - 1 && r <= H - 1)
    out[c * H + r] = 1.0f * in[r * W + c];
}

void launch(const float *In, float *Out, int, int) {
  transposeConst<<<dim3(W / 32, H / 8), dim3(32, 8)>>>(In, Out);
}
