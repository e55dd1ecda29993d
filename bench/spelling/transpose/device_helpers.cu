// Addresses from an inline function of (row, column, stride), the
// coordinates from helpers, an enclosing `if` written column first.
#include "transpose_common.cuh"

const char *const KernelName = "transpose_fn";

static __device__ __forceinline__ long offset2d(long r, long c, long stride) {
  return r * stride + c;
}
static __device__ __forceinline__ int coord_x() {
  return threadIdx.x + blockDim.x * blockIdx.x;
}
static __device__ __forceinline__ int coord_y() {
  return threadIdx.y + blockDim.y * blockIdx.y;
}

__global__ void transpose_fn(const float *In, float *Out, int Rows, int Cols) {
  if (coord_x() < Cols && coord_y() < Rows)
    Out[offset2d(coord_x(), coord_y(), Rows)] =
        In[offset2d(coord_y(), coord_x(), Cols)];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  transpose_fn<<<dim3((Cols + 31) / 32, (Rows + 7) / 8), dim3(32, 8)>>>(
      In, Out, Rows, Cols);
}
