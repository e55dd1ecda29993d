// The indices assembled from helper locals, a negated guard.
#include "transpose_common.cuh"

const char *const KernelName = "TransposeHelpers";

__global__ void TransposeHelpers(int rows, int cols, const float *src,
                                 float *dst) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int bx = blockIdx.x * blockDim.x, by = blockIdx.y * blockDim.y;
  int i = bx + tx;
  int j = by + ty;
  if (!(i < cols && j < rows))
    return;
  dst[i * rows + j] = src[j * cols + i];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  dim3 b(32, 8);
  dim3 g((Cols + b.x - 1) / b.x, (Rows + b.y - 1) / b.y);
  TransposeHelpers<<<g, b>>>(Rows, Cols, In, Out);
}
