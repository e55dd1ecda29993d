// Kernels of la_batched_small.cu: a batch of independent 8x8 fp32 matrix
// products C[m] = A[m] * B[m], each matrix stored row-major and the matrices
// packed one after the other.

#ifndef LA_BATCHED_SMALL_KERNELS_CUH
#define LA_BATCHED_SMALL_KERNELS_CUH

constexpr int kMatDim = 8;
constexpr int kMatElems = kMatDim * kMatDim;
constexpr int kBatchCount = 1 << 20;
constexpr int kTotalElems = kBatchCount * kMatElems;

// Offset of element (i, j) inside one packed matrix.
__device__ __forceinline__ int smallIndex(int i, int j) { return i * kMatDim + j; }

// One thread per output element of the whole batch.
__global__ void batchedSmallMatmul(const float *A, const float *B, float *C) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < kTotalElems) {
    int mat = gid / kMatElems;
    int e = gid % kMatElems;
    int i = e / kMatDim;
    int j = e % kMatDim;
    const float *a = A + mat * kMatElems;
    const float *b = B + mat * kMatElems;
    float sum = 0.0f;
    for (int p = 0; p < kMatDim; ++p)
      sum += a[smallIndex(i, p)] * b[smallIndex(p, j)];
    C[gid] = sum;
  }
}

#endif // LA_BATCHED_SMALL_KERNELS_CUH
