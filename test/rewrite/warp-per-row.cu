// warp-per-row: a thread-per-row reduction gives each row to a warp whose
// lanes split the row's loop and add their sums with shuffles, lane 0
// storing the row, and its grid is multiplied by 32; so does a row kernel
// of several loops (a layer norm, a softmax), whose lanes combine each sum
// or maximum with shuffles and write the row element by element; lane 0
// does a store outside the loops. Loops that do more than accumulate and
// store, sums read inside the loop, sums that do not start at zero, loops
// whose lanes would meet on an element, and launches whose blocks are not
// whole warps are left alone.

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

// A layer norm: two sums, each read by every lane after its loop, and a
// loop that writes the row element by element (every subscript is the loop
// variable, so iteration j touches element j of each row only).
__global__ void rowNorm(const float *in, const float *gamma, float *out,
                        int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  const float *r = in + (size_t)row * cols;
  float sum = 0.0f;
  for (int j = 0; j < cols; ++j)
    sum += r[j];
  float mean = sum / cols;
  float sq = 0;
  for (int j = 0; j < cols; j++) {
    float d = r[j] - mean;
    sq += d * d;
  }
  float rstd = rsqrtf(sq / cols + 1e-5f);
  float *o = out + (size_t)row * cols;
  for (int j = 0; j < cols; ++j)
    o[j] = (r[j] - mean) * rstd * gamma[j];
}
// CHECK:      __global__ void rowNorm(const float *in, const float *gamma, float *out,
// CHECK-NEXT:                         int rows, int cols) {
// CHECK-NEXT:   int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row >= rows)
// CHECK-NEXT:     return;
// CHECK-NEXT:   const float *r = in + (size_t)row * cols;
// CHECK-NEXT:   float sum = 0.0f;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     sum += r[j];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     sum += __shfl_xor_sync(0xffffffff, sum, Offset);
// CHECK-NEXT:   float mean = sum / cols;
// CHECK-NEXT:   float sq = 0;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32) {
// CHECK-NEXT:     float d = r[j] - mean;
// CHECK-NEXT:     sq += d * d;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     sq += __shfl_xor_sync(0xffffffff, sq, Offset);
// CHECK-NEXT:   float rstd = rsqrtf(sq / cols + 1e-5f);
// CHECK-NEXT:   float *o = out + (size_t)row * cols;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     o[j] = (r[j] - mean) * rstd * gamma[j];
// CHECK-NEXT: }

// A softmax: a maximum, then a sum, guarded instead of an early exit.
__global__ void rowSoftmax(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const float *r = in + (size_t)row * cols;
    float *o = out + (size_t)row * cols;
    float m = -INFINITY;
    for (int j = 0; j < cols; ++j)
      m = fmaxf(r[j], m);
    float s = 0.0f;
    for (int j = 0; j < cols; ++j)
      s += expf(r[j] - m);
    for (int j = 0; j < cols; ++j)
      o[j] = expf(r[j] - m) / s;
  }
}
// CHECK:      __global__ void rowSoftmax(const float *in, float *out, int rows, int cols) {
// CHECK-NEXT:   int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row < rows) {
// CHECK-NEXT:     const float *r = in + (size_t)row * cols;
// CHECK-NEXT:     float *o = out + (size_t)row * cols;
// CHECK-NEXT:     float m = -INFINITY;
// CHECK-NEXT:     for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:       m = fmaxf(r[j], m);
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, Offset));
// CHECK-NEXT:     float s = 0.0f;
// CHECK-NEXT:     for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:       s += expf(r[j] - m);
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       s += __shfl_xor_sync(0xffffffff, s, Offset);
// CHECK-NEXT:     for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:       o[j] = expf(r[j] - m) / s;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// A sum that starts from a value other than zero: each lane would add it.
__global__ void biased(const float *x, const float *b, float *y, int n,
                       int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = b[i];
  for (int k = 0; k < m; ++k)
    s += x[i * m + k];
  y[i] = s;
}
// CHECK:      __global__ void biased(const float *x, const float *b, float *y, int n,
// CHECK-NEXT:                        int m) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// The writing loop indexes by more than the loop variable (here the next
// element): its iterations could depend on each other's order.
__global__ void shifted(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int j = 0; j < cols; ++j)
    s += in[row * cols + j];
  for (int j = 0; j < cols - 1; ++j)
    out[row * cols + j] = in[row * cols + j + 1] / s;
}
// CHECK:      __global__ void shifted(const float *in, float *out, int rows, int cols) {
// CHECK-NEXT:   int row = blockIdx.x * blockDim.x + threadIdx.x;

// A statement between the loops writes memory: lane 0 does it, once per
// row.
__global__ void countRow(const float *in, float *out, int *count, int rows,
                         int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int j = 0; j < cols; ++j)
    s += in[row * cols + j];
  count[row] = cols;
  for (int j = 0; j < cols; ++j)
    out[row * cols + j] = in[row * cols + j] / s;
}
// CHECK:      __global__ void countRow(const float *in, float *out, int *count, int rows,
// CHECK-NEXT:                          int cols) {
// CHECK-NEXT:   int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row >= rows)
// CHECK-NEXT:     return;
// CHECK-NEXT:   float s = 0.0f;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     s += in[row * cols + j];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     s += __shfl_xor_sync(0xffffffff, s, Offset);
// CHECK-NEXT:   if (Lane == 0)
// CHECK-NEXT:     count[row] = cols;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     out[row * cols + j] = in[row * cols + j] / s;
// CHECK-NEXT: }

// A loop reduces what an earlier loop stored, one element behind from a
// first value one higher: each lane reads the elements it stored itself.
__global__ void storeThenSum(const float *in, float *out, float *tot,
                             int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float *o = out + (size_t)row * cols;
  const float *r = in + (size_t)row * cols;
  float m = 0.0f;
  for (int j = 0; j < cols; ++j)
    m += r[j];
  for (int j = 0; j < cols; ++j)
    o[j] = r[j] - m;
  float s = 0.0f;
  for (int j = 1; j < cols; ++j)
    s += o[j - 1];
  for (int j = 0; j < cols; ++j)
    o[j] = o[j] / s;
}
// CHECK:      __global__ void storeThenSum(const float *in, float *out, float *tot,
// CHECK-NEXT:                              int rows, int cols) {
// CHECK-NEXT:   int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row >= rows)
// CHECK-NEXT:     return;
// CHECK-NEXT:   float *o = out + (size_t)row * cols;
// CHECK-NEXT:   const float *r = in + (size_t)row * cols;
// CHECK-NEXT:   float m = 0.0f;
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     m += r[j];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     m += __shfl_xor_sync(0xffffffff, m, Offset);
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     o[j] = r[j] - m;
// CHECK-NEXT:   float s = 0.0f;
// CHECK-NEXT:   for (int j = 1 + Lane; j < cols; j += 32)
// CHECK-NEXT:     s += o[j - 1];
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     s += __shfl_xor_sync(0xffffffff, s, Offset);
// CHECK-NEXT:   for (int j = Lane; j < cols; j += 32)
// CHECK-NEXT:     o[j] = o[j] / s;
// CHECK-NEXT: }


// The row's result subtracted from the element (`y[r] -= v`), and stored
// through a pointer named after values: lane 0 does either, once per row.
__global__ void residual(const float *A, const float *x, float *y, int rows,
                         int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float acc = 0.0f;
    for (int c = 0; c < cols; ++c)
      acc += A[r * cols + c] * x[c];
    y[r] -= acc;
  }
}
// CHECK:      __global__ void residual(const float *A, const float *x, float *y, int rows,
// CHECK:          acc += __shfl_down_sync(0xffffffff, acc, Offset);
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       y[r] -= acc;
// CHECK-NEXT:   }
// CHECK-NEXT: }

__global__ void throughPointer(const float *A, float *Y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float m = 0.0f;
    for (int c = 0; c < cols; ++c)
      m = fmaxf(m, A[r * cols + c]);
    const float half = m * 0.5f;
    float *dst = Y + r;
    *dst = half;
  }
}
// CHECK:      __global__ void throughPointer(const float *A, float *Y, int rows, int cols) {
// CHECK:          m = fmaxf(m, __shfl_down_sync(0xffffffff, m, Offset));
// CHECK-NEXT:     const float half = m * 0.5f;
// CHECK-NEXT:     float *dst = Y + r;
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       *dst = half;
// CHECK-NEXT:   }
// CHECK-NEXT: }


// Two results of one row, each stored at the end: lane 0 stores both.
__global__ void rowStats(const float *A, float *mean, float *peak, int rows,
                         int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f, hi = 0.0f;
    for (int c = 0; c < cols; ++c) {
      s += A[r * cols + c];
      hi = fmaxf(hi, A[r * cols + c]);
    }
    mean[r] = s / cols;
    float top = hi;
    peak[r] = top;
  }
}
// CHECK:      __global__ void rowStats(const float *A, float *mean, float *peak, int rows,
// CHECK:          hi = fmaxf(hi, __shfl_down_sync(0xffffffff, hi, Offset));
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       mean[r] = s / cols;
// CHECK-NEXT:     float top = hi;
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       peak[r] = top;
// CHECK-NEXT:   }
// CHECK-NEXT: }

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
  rowNorm<<<grid, Block>>>(x, A, y, n, m);
  rowSoftmax<<<grid, Block>>>(x, y, n, m);
  biased<<<grid, Block>>>(x, A, y, n, m);
  shifted<<<grid, Block>>>(x, y, n, m);
  countRow<<<grid, Block>>>(x, y, (int *)z, n, m);
  storeThenSum<<<grid, Block>>>(x, y, z, n, m);
  residual<<<grid, Block>>>(A, x, y, n, m);
  throughPointer<<<grid, Block>>>(x, y, n, m);
  rowStats<<<grid, Block>>>(x, y, z, n, m);
}

// DIFF:      # warp-per-row on kernel gemv
// DIFF:      -  gemv<<<grid, Block>>>(A, x, y, n, m);
// DIFF-NEXT: +  gemv<<<grid * 32, Block>>>(A, x, y, n, m);
// DIFF:      # warp-per-row on kernel spmv
// DIFF:      -  spmv<<<(n + 255) / 256, 256>>>(rowPtr, col, (const double *)A,
// DIFF-NEXT: +  spmv<<<((n + 255) / 256) * 32, 256>>>(rowPtr, col, (const double *)A,
// DIFF:      # warp-per-row on kernel rowNorm
// DIFF:      -  rowNorm<<<grid, Block>>>(x, A, y, n, m);
// DIFF-NEXT: +  rowNorm<<<grid * 32, Block>>>(x, A, y, n, m);
// DIFF:      # warp-per-row on kernel rowSoftmax
// DIFF:      -  rowSoftmax<<<grid, Block>>>(x, y, n, m);
// DIFF-NEXT: +  rowSoftmax<<<grid * 32, Block>>>(x, y, n, m);
// DIFF:      # warp-per-row on kernel residual
// DIFF:      # warp-per-row on kernel throughPointer
// DIFF:      # warp-per-row on kernel rowStats
// DIFF-NOT:  {{^}}# warp-per-row on kernel

// YAML-COUNT-75: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel gemv at {{.*}}
// LIST-NEXT:   warp-per-row: give each row of a thread-per-row kernel to a warp whose lanes split the row's loops and combine their sums, minima or maxima (and where those are) with shuffles, and multiply the grid by 32
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
// LIST-NEXT: kernel rowNorm at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel rowSoftmax at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel biased at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel shifted at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel countRow at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel storeThenSum at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel residual at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel throughPointer at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel rowStats at {{.*}}
// LIST-NEXT:   warp-per-row: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
