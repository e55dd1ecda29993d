// unsigned indices, the products written the other way round, the bounds
// on the left of the comparisons.
#include "transpose_common.cuh"

const char *const KernelName = "flip";

__global__ void flip(float *dst, const float *src, unsigned height,
                     unsigned width) {
  const unsigned x = threadIdx.x + blockDim.x * blockIdx.x;
  const unsigned y = threadIdx.y + blockDim.y * blockIdx.y;
  if (width > x && height > y)
    dst[y + height * x] = src[x + width * y];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  const dim3 threads(32, 8);
  const dim3 blocks(Cols / 32, Rows / 8);
  flip<<<blocks, threads>>>(Out, In, Rows, Cols);
}
