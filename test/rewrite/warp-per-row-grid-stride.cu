// warp-per-row on kernels whose threads stride over the rows by the grid's
// size (a `for` or a `while`, the stride inline or in a local, inside an
// enclosing guard): each warp takes the rows one thread took, in steps of
// the grid's warps, so the rewrite is right for any grid. A loop that steps
// by less than the grid is refused.
//
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

#define THREADS 128

__global__ void rowSums(const float *__restrict__ a, float *__restrict__ out,
                        int rows, int cols) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows;
       r += blockDim.x * gridDim.x) {
    float s = 0.f;
    for (int c = 0; c < cols; ++c)
      s += a[r * cols + c];
    out[r] = s;
  }
}
// CHECK:      __global__ void rowSums(const float *__restrict__ a, float *__restrict__ out,
// CHECK-NEXT:                         int rows, int cols) {
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   for (int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32; r < rows;
// CHECK-NEXT:        r += (blockDim.x * gridDim.x) / 32) {
// CHECK-NEXT:     float s = 0.f;
// CHECK-NEXT:     for (int c = Lane; c < cols; c += 32)
// CHECK-NEXT:       s += a[r * cols + c];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       s += __shfl_down_sync(0xffffffff, s, Offset);
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       out[r] = s;
// CHECK-NEXT:   }
// CHECK-NEXT: }

__global__ void rowPeak(const float *m, float *peak, int nRows, int nCols) {
  const int first = threadIdx.x + blockDim.x * blockIdx.x;
  const int step = gridDim.x * blockDim.x;
  int i = first;
  while (i < nRows) {
    float best = m[(long)i * nCols];
    for (int k = 1; k < nCols; k++)
      best = fmaxf(best, m[(long)i * nCols + k]);
    peak[i] = best;
    i += step;
  }
}
// CHECK:      __global__ void rowPeak(const float *m, float *peak, int nRows, int nCols) {
// CHECK-NEXT:   const int first = (threadIdx.x + blockDim.x * blockIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   const int step = (gridDim.x * blockDim.x) / 32;
// CHECK-NEXT:   int i = first;
// CHECK-NEXT:   while (i < nRows) {
// CHECK-NEXT:     float best = m[(long)i * nCols];
// CHECK-NEXT:     for (int k = 1 + Lane; k < nCols; k += 32)
// CHECK-NEXT:       best = fmaxf(best, m[(long)i * nCols + k]);
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       best = fmaxf(best, __shfl_down_sync(0xffffffff, best, Offset));
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       peak[i] = best;
// CHECK-NEXT:     i += step;
// CHECK-NEXT:   }
// CHECK-NEXT: }

__global__ void rowDot(const double *A, const double *v, double *w, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    for (int row = t; row < n; row += blockDim.x * gridDim.x) {
      double acc = 0.0;
      for (int j = 0; j < n; ++j)
        acc += A[row * n + j] * v[j];
      w[row] = acc;
    }
  }
}
// CHECK:      __global__ void rowDot(const double *A, const double *v, double *w, int n) {
// CHECK-NEXT:   int t = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (t < n) {
// CHECK-NEXT:     for (int row = t; row < n; row += (blockDim.x * gridDim.x) / 32) {
// CHECK-NEXT:       double acc = 0.0;
// CHECK-NEXT:       for (int j = Lane; j < n; j += 32)
// CHECK-NEXT:         acc += A[row * n + j] * v[j];
// CHECK-NEXT:       for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:         acc += __shfl_down_sync(0xffffffff, acc, Offset);
// CHECK-NEXT:       if (Lane == 0)
// CHECK-NEXT:         w[row] = acc;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

__global__ void blockStride(const float *a, float *out, int rows, int cols) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows;
       r += blockDim.x) {
    float s = 0.f;
    for (int c = 0; c < cols; ++c)
      s += a[r * cols + c];
    out[r] = s;
  }
}
// CHECK:      __global__ void blockStride(const float *a, float *out, int rows, int cols) {
// CHECK-NEXT:   for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows;
// CHECK-NEXT:        r += blockDim.x) {

void launch(const float *a, float *o, const double *A, const double *v,
            double *w, int rows, int cols) {
  rowSums<<<(rows + THREADS - 1) / THREADS, THREADS>>>(a, o, rows, cols);
  rowPeak<<<64, 256>>>(a, o, rows, cols);
  rowDot<<<(rows + 255) / 256, 256>>>(A, v, w, rows);
  blockStride<<<8, 256>>>(a, o, rows, cols);
}
// CHECK:        rowSums<<<((rows + THREADS - 1) / THREADS) * 32, THREADS>>>(a, o, rows, cols);
// CHECK-NEXT:   rowPeak<<<64 * 32, 256>>>(a, o, rows, cols);
// CHECK-NEXT:   rowDot<<<((rows + 255) / 256) * 32, 256>>>(A, v, w, rows);
// CHECK-NEXT:   blockStride<<<8, 256>>>(a, o, rows, cols);

// LIST:      kernel rowSums at {{.*}}:{{[0-9]+}}:17
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST:      kernel rowPeak at {{.*}}:{{[0-9]+}}:17
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST:      kernel rowDot at {{.*}}:{{[0-9]+}}:17
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST:      kernel blockStride at {{.*}}:{{[0-9]+}}:17
// LIST-NEXT:   no proposal
// LIST-NEXT:   warp-per-row: not applied: `blockDim.x` at line {{[0-9]+}} is read other than in the thread's global index blockIdx.x * blockDim.x + threadIdx.x, the row, or in an index of another axis
