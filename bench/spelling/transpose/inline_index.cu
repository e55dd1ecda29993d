// No index variables at all: the thread's coordinates written out wherever
// they are used, an early return per dimension.
#include "transpose_common.cuh"

const char *const KernelName = "transpose_inline";

__global__ void transpose_inline(const float *src, float *dst, int height,
                                 int width) {
  if (blockIdx.x * blockDim.x + threadIdx.x >= width)
    return;
  if (blockDim.y * blockIdx.y + threadIdx.y >= height)
    return;
  dst[(blockIdx.x * blockDim.x + threadIdx.x) * height +
      (blockIdx.y * blockDim.y + threadIdx.y)] =
      src[(threadIdx.y + blockIdx.y * blockDim.y) * width +
          (threadIdx.x + blockIdx.x * blockDim.x)];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  const dim3 block(32, 8);
  transpose_inline<<<dim3((Cols + 31) / 32, (Rows + 7) / 8), block>>>(In, Out,
                                                                      Rows, Cols);
}
