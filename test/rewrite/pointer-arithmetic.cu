// Elements written as dereferences of pointer sums (`*(A + r * K + k)`)
// are elements for tile-matmul-smem as subscripts are: the tile loads read
// the same pointers with subscripts, and the store keeps its spelling.

// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.tile.cu %s -- -std=c++17
// RUN: %no-checks %t.tile.cu | FileCheck %s --check-prefix=TILE
// RUN: clang-autoprof optimize --dry-run --explain --transformations=tile-matmul-smem %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.tile.cu %}

#include <cstddef>

// Every element through a sum, the offsets in the order rows, then k.
__global__ void mm_sums(const double *A, const double *B, double *C,
                        unsigned M, unsigned N, unsigned K) {
  unsigned r = threadIdx.y + blockIdx.y * blockDim.y;
  unsigned c = threadIdx.x + blockIdx.x * blockDim.x;
  if (r >= M || c >= N)
    return;
  double acc = 0;
  for (unsigned k = 0; k < K; k++)
    acc += *(A + r * K + k) * *(B + k * N + c);
  *(C + r * N + c) = acc;
}
// TILE-LABEL: __global__ void mm_sums(
// TILE:      As[threadIdx.y][threadIdx.x] =
// TILE-NEXT:   ARow < M && AK < K ? A[ARow * K + AK] : 0.0;
// TILE:      Bs[threadIdx.y][threadIdx.x] =
// TILE-NEXT:   BK < K && BCol < N ? B[BK * N + BCol] : 0.0;
// TILE:      for (unsigned int k = 0; k < 16 && K0 + k < K; ++k)
// TILE-NEXT:   acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
// TILE:      if (!(r >= M || c >= N))
// TILE-NEXT:   *(C + r * N + c) = acc;

// A pointer to the thread's row of A and one to its column of B, each
// read with the loop's offset added; size_t offsets.
__global__ void mm_row_col(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    const float *a = A + (size_t)row * K;
    const float *b = B + col;
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += *(a + k) * *(b + (size_t)k * N);
    C[(size_t)row * N + col] = s;
  }
}
// TILE-LABEL: __global__ void mm_row_col(
// TILE:      const float *a = A + (size_t)row * K;
// TILE-NEXT: const float *b = B + col;
// TILE:      ARow < M && AK < K ? a[AK] : 0.0f;
// TILE:      BK < K && BCol < N ? b[(size_t)BK * N] : 0.0f;
// TILE:      s += As[threadIdx.y][k] * Bs[k][threadIdx.x];

// The offset first, then the pointer.
__global__ void mm_swapped(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += *(row * K + k + A) * *(k * N + col + B);
    C[row * N + col] = s;
  }
}
// TILE-LABEL: __global__ void mm_swapped(
// TILE:      ARow < M && AK < K ? A[ARow * K + AK] : 0.0f;

// A pointer that moves with k is no matrix the tiles can load.
__global__ void mm_moving(const float *A, const float *B, float *C, int M,
                          int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += *(A + row * K + k) * *(B + k * N + col) * *(A + k);
    C[row * N + col] = s;
  }
}

void launch(const double *dA, const double *dB, double *dC, const float *A,
            const float *B, float *C, int M, int N, int K) {
  dim3 t(16, 16);
  dim3 g((N + 15) / 16, (M + 15) / 16);
  mm_sums<<<g, t>>>(dA, dB, dC, M, N, K);
  mm_row_col<<<g, t>>>(A, B, C, M, N, K);
  mm_swapped<<<g, t>>>(A, B, C, M, N, K);
  mm_moving<<<g, t>>>(A, B, C, M, N, K);
}

// LIST: kernel mm_sums at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST: kernel mm_row_col at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST: kernel mm_swapped at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST: kernel mm_moving at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   tile-matmul-smem: not applied: the loop at line 78 does not add products of one element of A and one of B
