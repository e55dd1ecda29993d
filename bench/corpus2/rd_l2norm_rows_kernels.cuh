// rd_l2norm_rows_kernels.cuh: the kernel of rd_l2norm_rows.cu.
//
// l2NormRows computes the Euclidean norm of one row of a row-major double
// matrix per block: each thread sums the squares of a blockDim-strided slice
// of the row, then the block adds the partial sums with a shared-memory tree
// (sequential addressing, one __syncthreads per level) and thread 0 writes
// the square root. Launch with kL2NormThreads threads per block and one block
// per row.

#ifndef RD_L2NORM_ROWS_KERNELS_CUH
#define RD_L2NORM_ROWS_KERNELS_CUH

#include <cstddef>

#include <cuda_runtime.h>

constexpr int kL2NormThreads = 256;

__global__ void l2NormRows(const double *mat, int cols, double *norms) {
  __shared__ double partial[kL2NormThreads];

  const int tid = threadIdx.x;
  const double *row = mat + (size_t)blockIdx.x * cols;
  double acc = 0.0;
  for (int j = tid; j < cols; j += blockDim.x)
    acc += row[j] * row[j];
  partial[tid] = acc;
  __syncthreads();

  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (tid < half)
      partial[tid] += partial[tid + half];
    __syncthreads();
  }

  if (tid == 0)
    norms[blockIdx.x] = sqrt(partial[0]);
}

#endif // RD_L2NORM_ROWS_KERNELS_CUH
