// warp-per-row: a thread-per-row reduction gives each row to a warp whose
// lanes split the row's loop and add their sums with shuffles, lane 0
// storing the row, and its grid is multiplied by 32; loops that do more
// than accumulate, sums read inside the loop, and launches whose blocks are
// not whole warps are left alone.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

__global__ void gemv(const float *A, const float *x, float *y, int rows,
                     int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c)
    sum += A[(size_t)row * cols + c] * x[c];
  y[row] = sum;
}
// CHECK:      __global__ void gemv(const float *A, const float *x, float *y, int rows,
// CHECK-NEXT:                      int cols) {
// CHECK-NEXT:   int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row >= rows)
// CHECK-NEXT:     return;
// CHECK-NEXT:   float sum = 0.0f;
// CHECK-NEXT:   for (int c = Lane; c < cols; c += 32)
// CHECK-NEXT:     sum += A[(size_t)row * cols + c] * x[c];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     sum += __shfl_down_sync(0xffffffff, sum, Offset);
// CHECK-NEXT:   if (Lane == 0)
// CHECK-NEXT:     y[row] = sum;
// CHECK-NEXT: }

// A scalar CSR SpMV in double precision, whose names are taken.
__global__ void spmv(const int *rowPtr, const int *col, const double *val,
                     const double *x, double *y, int n) {
  int Lane = threadIdx.x + blockIdx.x * blockDim.x;
  if (Lane < n) {
    double Offset = 0;
    for (int k = rowPtr[Lane]; k < rowPtr[Lane + 1]; k++) {
      Offset += val[k] * x[col[k]];
    }
    y[Lane] = 2 * Offset;
  }
}
// CHECK:      __global__ void spmv(const int *rowPtr, const int *col, const double *val,
// CHECK-NEXT:                      const double *x, double *y, int n) {
// CHECK-NEXT:   int Lane = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane_ = threadIdx.x % 32;
// CHECK-NEXT:   if (Lane < n) {
// CHECK-NEXT:     double Offset = 0;
// CHECK-NEXT:     for (int k = rowPtr[Lane] + Lane_; k < rowPtr[Lane + 1]; k += 32) {
// CHECK-NEXT:       Offset += val[k] * x[col[k]];
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int Offset_ = 16; Offset_ > 0; Offset_ /= 2)
// CHECK-NEXT:       Offset += __shfl_down_sync(0xffffffff, Offset, Offset_);
// CHECK-NEXT:     if (Lane_ == 0)
// CHECK-NEXT:       y[Lane] = 2 * Offset;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// The loop reads the sum.
__global__ void prefix(const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < m; ++k)
    s += s * x[k];
  y[i] = s;
}
// CHECK:      __global__ void prefix(const float *x, float *y, int n, int m) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// The loop does more than accumulate.
__global__ void twoSums(const float *x, float *y, float *z, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < m; ++k) {
    s += x[i * m + k];
    z[i] = s;
  }
  y[i] = s;
}
// CHECK:      __global__ void twoSums(const float *x, float *y, float *z, int n, int m) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// Launched with blocks that are not whole warps.
__global__ void odd(const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < m; ++k)
    s += x[i * m + k];
  y[i] = s;
}
// CHECK:      __global__ void odd(const float *x, float *y, int n, int m) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// Launched with a block size known only at run time.
__global__ void dynamic(const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.0f;
  for (int k = 0; k < m; ++k)
    s += x[i * m + k];
  y[i] = s;
}
// CHECK:      __global__ void dynamic(const float *x, float *y, int n, int m) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

void run(const float *A, float *x, float *y, float *z, const int *rowPtr,
         const int *col, int n, int m, int block) {
  const int Block = 128;
  int grid = (n + Block - 1) / Block;
  gemv<<<grid, Block>>>(A, x, y, n, m);
  spmv<<<(n + 255) / 256, 256>>>(rowPtr, col, (const double *)A,
                                 (const double *)x, (double *)y, n);
  prefix<<<grid, Block>>>(x, y, n, m);
  twoSums<<<grid, Block>>>(x, y, z, n, m);
  odd<<<(n + 99) / 100, 100>>>(x, y, n, m);
  dynamic<<<(n + block - 1) / block, block>>>(x, y, n, m);
}

// DIFF:      # warp-per-row on kernel gemv
// DIFF:      -  gemv<<<grid, Block>>>(A, x, y, n, m);
// DIFF-NEXT: +  gemv<<<grid * 32, Block>>>(A, x, y, n, m);
// DIFF:      # warp-per-row on kernel spmv
// DIFF:      -  spmv<<<(n + 255) / 256, 256>>>(rowPtr, col, (const double *)A,
// DIFF-NEXT: +  spmv<<<((n + 255) / 256) * 32, 256>>>(rowPtr, col, (const double *)A,
// DIFF-NOT:  on kernel

// YAML-COUNT-12: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel gemv at {{.*}}
// LIST-NEXT:   warp-per-row: give each row of a thread-per-row reduction to a warp whose lanes split the loop and add with __shfl_down_sync, and multiply the grid by 32
// LIST-NEXT:     trigger: needs l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio, derived__global_excess_sectors_pct, smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
// LIST-NEXT: kernel spmv at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel prefix at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel twoSums at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel odd at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel dynamic at {{.*}}
// LIST-NEXT:   no proposal
