// The corpus's spelling: both indices in locals, an early return of a
// disjunction, size_t products.
#include "transpose_common.cuh"

const char *const KernelName = "transposeNaive";

__global__ void transposeNaive(const float *In, float *Out, int Rows,
                               int Cols) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= Cols || Y >= Rows)
    return;
  Out[(size_t)X * Rows + Y] = In[(size_t)Y * Cols + X];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  dim3 Block(32, 8);
  dim3 Grid((Cols + 31) / 32, (Rows + 7) / 8);
  transposeNaive<<<Grid, Block>>>(In, Out, Rows, Cols);
}
