// A batch, plane or head index on another axis of the grid (blockIdx.y,
// threadIdx.y of 2-D blocks) is the same for the 32 lanes of a warp when
// the block holds whole warps in x: warp-per-row gives each row of each
// batch to a warp and leaves that axis as it is. A read of the x axis
// outside the row stays refused, and so does a read of another axis that
// no stored element depends on (threads apart on it would share their
// row: test/rewrite/spelling/warp-per-row.test, twoDim).

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop %s -- -std=c++17 | FileCheck %s --check-prefix=SPLITWHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}

#include <cstddef>

// Row norms of a batch of matrices, one matrix per blockIdx.y.
__global__ void batched_row_norms(const float *A, float *out, int rows,
                                  int cols) {
  const float *M = A + (size_t)blockIdx.y * rows * cols;
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += M[r * cols + c] * M[r * cols + c];
  out[blockIdx.y * rows + r] = sqrtf(s);
}
// CHECK:      __global__ void batched_row_norms(const float *A, float *out, int rows,
// CHECK-NEXT:                                   int cols) {
// CHECK-NEXT:   const float *M = A + (size_t)blockIdx.y * rows * cols;
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r >= rows) return;
// CHECK-NEXT:   float s = 0.f;
// CHECK-NEXT:   for (int c = Lane; c < cols; c += 32)
// CHECK-NEXT:     s += M[r * cols + c] * M[r * cols + c];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     s += __shfl_down_sync(0xffffffff, s, Offset);
// CHECK-NEXT:   if (Lane == 0)
// CHECK-NEXT:     out[blockIdx.y * rows + r] = sqrtf(s);
// CHECK-NEXT: }

// Heads on threadIdx.y of a 2-D block, each head's rows on x.
template <int HeadDim>
__global__ void head_scores(const float *__restrict__ q,
                            const float *__restrict__ k,
                            float *__restrict__ score, int seq, int heads) {
  int head = blockIdx.y * blockDim.y + threadIdx.y;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < seq && head < heads) {
    const float *qr = q + ((size_t)head * seq + t) * HeadDim;
    const float *kr = k + ((size_t)head * seq + t) * HeadDim;
    float dot = 0.0f;
    #pragma unroll 4
    for (int d = 0; d < HeadDim; d++)
      dot += qr[d] * kr[d];
    score[head * seq + t] = dot;
  }
}
// CHECK:      __global__ void head_scores(const float *__restrict__ q,
// CHECK-NEXT:                             const float *__restrict__ k,
// CHECK-NEXT:                             float *__restrict__ score, int seq, int heads) {
// CHECK-NEXT:   int head = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int t = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (t < seq && head < heads) {
// CHECK-NEXT:     const float *qr = q + ((size_t)head * seq + t) * HeadDim;
// CHECK-NEXT:     const float *kr = k + ((size_t)head * seq + t) * HeadDim;
// CHECK-NEXT:     float dot = 0.0f;
// CHECK-NEXT:     #pragma unroll 4
// CHECK-NEXT:     for (int d = Lane; d < HeadDim; d += 32)
// CHECK-NEXT:       dot += qr[d] * kr[d];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       dot += __shfl_down_sync(0xffffffff, dot, Offset);
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       score[head * seq + t] = dot;
// CHECK-NEXT:   }
// CHECK-NEXT: }
// threadIdx.y would not survive blocks of 1024 threads in x.
// SPLITWHY-LABEL: kernel head_scores at
// SPLITWHY-NEXT:  no proposal
// SPLITWHY-NEXT:  split-serial-loop: not applied: `blockDim.y` at line 52 is read other than in the thread's global index blockIdx.x * blockDim.x + threadIdx.x, the output, or in an index of another axis of the grid

// Few long columns per matrix of a batch: split-serial-loop spreads each
// column over a warp's worth of threads in blocks of its own, and keeps
// the matrix on blockIdx.y.
__global__ void batch_column_means(const float *x, float *mean, int depth,
                                   int width) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= width)
    return;
  const float *m = x + (size_t)blockIdx.y * depth * width;
  float s = 0;
  for (int i = 0; i < depth; i++)
    s += m[i * width + col];
  mean[blockIdx.y * width + col] = s / depth;
}
// SPLIT:      __global__ void batch_column_means(const float *x, float *mean, int depth,
// SPLIT-NEXT:                                    int width) {
// SPLIT-NEXT:   int col = (blockIdx.x * 32 + threadIdx.x % 32);
// SPLIT-NEXT:   // 32 threads per output: slice s takes iterations s, s + 32, ...
// SPLIT-NEXT:   const int Slice = threadIdx.x / 32;
// SPLIT-NEXT:   __shared__ float Partial[32][32];
// SPLIT-NEXT:   const bool Active = !(col >= width);
// SPLIT-NEXT:   const float *m = x + (size_t)blockIdx.y * depth * width;
// SPLIT-NEXT:   float s = 0;
// SPLIT-NEXT:   if (Active)
// SPLIT-NEXT:     for (int i = Slice; i < depth; i += 32)
// SPLIT-NEXT:       s += m[i * width + col];
// SPLIT-NEXT:   // The slices' partial results meet: every slice reads the total.
// SPLIT-NEXT:   Partial[Slice][threadIdx.x % 32] = s;
// SPLIT-NEXT:   __syncthreads();
// SPLIT-NEXT:   s = Partial[0][threadIdx.x % 32];
// SPLIT-NEXT:   for (int Q = 1; Q < 32; ++Q)
// SPLIT-NEXT:     s += Partial[Q][threadIdx.x % 32];
// SPLIT-NEXT:   __syncthreads();
// SPLIT-NEXT:   if (Active && Slice == 0)
// SPLIT-NEXT:     mean[blockIdx.y * width + col] = s / depth;
// SPLIT-NEXT: }

// The x axis read outside the row.
__global__ void mixed(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += x[r * cols + c];
  y[r] = s + blockIdx.x;
}
// WHY-LABEL: kernel mixed at
// WHY-NEXT:  no proposal
// WHY-NEXT:  warp-per-row: not applied: `blockIdx.x` at line [[@LINE-4]] is read other than in the thread's global index blockIdx.x * blockDim.x + threadIdx.x, the row, or in an index of another axis

void launch(const float *A, float *out, int rows, int cols, int batch,
            const float *q, const float *k, float *score, int seq, int heads) {
  dim3 grid((rows + 255) / 256, batch);
  batched_row_norms<<<grid, 256>>>(A, out, rows, cols);
  head_scores<64><<<dim3((seq + 31) / 32, (heads + 3) / 4), dim3(32, 4)>>>(
      q, k, score, seq, heads);
  mixed<<<(rows + 127) / 128, 128>>>(A, out, rows, cols);
  batch_column_means<<<dim3((cols + 63) / 64, batch), 64>>>(A, out, rows,
                                                            cols);
}
// CHECK:      void launch(const float *A, float *out, int rows, int cols, int batch,
// CHECK-NEXT:             const float *q, const float *k, float *score, int seq, int heads) {
// CHECK-NEXT:   dim3 grid((rows + 255) / 256, batch);
// CHECK-NEXT:   batched_row_norms<<<dim3(grid.x * 32, grid.y, grid.z), 256>>>(A, out, rows, cols);
// CHECK-NEXT:   head_scores<64><<<dim3(((seq + 31) / 32) * 32, (heads + 3) / 4), dim3(32, 4)>>>(
// CHECK-NEXT:       q, k, score, seq, heads);
// CHECK-NEXT:   mixed<<<(rows + 127) / 128, 128>>>(A, out, rows, cols);
// CHECK-NEXT:   batch_column_means<<<dim3(((cols + 63) / 64) * 32, batch), 64>>>(A, out, rows,
// CHECK-NEXT:                                                             cols);
// CHECK-NEXT: }
