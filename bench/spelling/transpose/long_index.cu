// long long indices, the products widened once.
#include "transpose_common.cuh"

const char *const KernelName = "transpose64";

__global__ void transpose64(const float *__restrict__ in,
                            float *__restrict__ out, long long n_rows,
                            long long n_cols) {
  long long col = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long row = (long long)blockIdx.y * blockDim.y + threadIdx.y;
  if (col < n_cols && row < n_rows)
    out[col * n_rows + row] = in[row * n_cols + col];
}

void launch(const float *In, float *Out, int Rows, int Cols) {
  dim3 block(32, 8);
  dim3 grid((Cols + 31) / 32, (Rows + 7) / 8);
  transpose64<<<grid, block>>>(In, Out, Rows, Cols);
}
