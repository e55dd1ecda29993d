// split-serial-loop: a kernel of one thread per output that reduces a long
// loop gets 32 threads per output, in blocks of 1024 holding 32 consecutive
// outputs; slice s takes iterations s, s + 32, ...; the partial results meet
// in shared memory after each loop, where every slice reads the total; the
// guard becomes a flag so that every thread reaches the barriers; slice 0
// stores; every launch's grid covers the same outputs. Sums that do not start
// at zero, loops that do more than reduce, accumulation into memory, and
// launches whose blocks are not whole warps are refused with their reasons.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.cu %s -- -std=c++17
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop %s -- -std=c++17 | FileCheck %s --check-prefix=WHY --match-full-lines
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#define ROWS 4096
#define COLS 2048

// Column maxima and sums, size_t indices, an enclosing guard; two results.
__global__ void column_stats(const double *table, double *peak, double *total) {
  size_t c = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
  if (c < COLS) {
    double hi = -1e300, s = 0;
    for (size_t r = 0; r < ROWS; ++r) {
      double v = table[r * COLS + c];
      hi = fmax(hi, v);
      s += v;
    }
    peak[c] = hi;
    total[c] = s;
  }
}
// CHECK:      __global__ void column_stats(const double *table, double *peak, double *total) {
// CHECK-NEXT:   size_t c = ((size_t)blockIdx.x * 32 + threadIdx.x % 32);
// CHECK-NEXT:   // 32 threads per output: slice s takes iterations s, s + 32, ...
// CHECK-NEXT:   const int Slice = threadIdx.x / 32;
// CHECK-NEXT:   __shared__ double Partial[32][32];
// CHECK-NEXT:   const bool Active = (c < COLS);
// CHECK-NEXT:   {
// CHECK-NEXT:     double hi = -1e300, s = 0;
// CHECK-NEXT:     if (Active)
// CHECK-NEXT:       for (size_t r = Slice; r < ROWS; r += 32) {
// CHECK:          hi = Partial[0][threadIdx.x % 32];
// CHECK-NEXT:     for (int Q = 1; Q < 32; ++Q)
// CHECK-NEXT:       hi = fmax(hi, Partial[Q][threadIdx.x % 32]);
// CHECK:          s = Partial[0][threadIdx.x % 32];
// CHECK-NEXT:     for (int Q = 1; Q < 32; ++Q)
// CHECK-NEXT:       s += Partial[Q][threadIdx.x % 32];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     if (Active && Slice == 0)
// CHECK-NEXT:       peak[c] = hi;
// CHECK-NEXT:     if (Active && Slice == 0)
// CHECK-NEXT:       total[c] = s;

// A dot product per output over a row range read from memory, the guard an
// early return written the other way round, the grid a dim3.
__global__ void segment_sums(const int *start, const float *vals, float *out,
                             int segments) {
  int seg = blockDim.x * blockIdx.x + threadIdx.x;
  if (segments <= seg)
    return;
  float acc = 0.0f;
  for (int k = start[seg]; k < start[seg + 1]; k++)
    acc += vals[k];
  out[seg] = acc * 0.5f;
}
// CHECK:      __global__ void segment_sums(
// CHECK:        int seg = (blockIdx.x * 32 + threadIdx.x % 32);
// CHECK-NEXT:   // 32 threads per output: slice s takes iterations s, s + 32, ...
// CHECK-NEXT:   const int Slice = threadIdx.x / 32;
// CHECK-NEXT:   __shared__ float Partial[32][32];
// CHECK-NEXT:   const bool Active = !(segments <= seg);
// CHECK-NEXT:   float acc = 0.0f;
// CHECK-NEXT:   if (Active)
// CHECK-NEXT:     for (int k = start[seg] + Slice; k < start[seg + 1]; k += 32)
// CHECK-NEXT:     acc += vals[k];
// CHECK:        if (Active && Slice == 0)
// CHECK-NEXT:     out[seg] = acc * 0.5f;

// Refused: the sum starts at the output's old value.
__global__ void biased(const float *in, float *out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float s = 1.0f;
    for (int i = 0; i < n; ++i)
      s += in[i * m + j];
    out[j] = s;
  }
}

// Refused: the loop also stores.
__global__ void copies(const float *in, float *out, float *copy, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float s = 0;
    for (int i = 0; i < n; ++i) {
      s += in[i * m + j];
      copy[i * m + j] = in[i * m + j];
    }
    out[j] = s;
  }
}

// Refused: blocks of 48 threads.
__global__ void odd_blocks(const float *in, float *out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m)
    return;
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i * m + j];
  out[j] = s;
}

// Refused: launch bounds below the new block.
__global__ void __launch_bounds__(128) bounded(const float *in, float *out,
                                              int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m)
    return;
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i * m + j];
  out[j] = s;
}

// The mean is stored by slice 0 and read back by every slice's second loop:
// a barrier follows the store.
__global__ void centred(const float *x, float *mean, float *spread, int rows,
                        int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r)
    s += x[r * cols + c];
  mean[c] = s / rows;
  float d = 0.0f;
  for (int r = 0; r < rows; ++r)
    d += fabsf(x[r * cols + c] - mean[c]);
  spread[c] = d;
}
// CHECK:      __global__ void centred(
// CHECK:          if (Active && Slice == 0)
// CHECK-NEXT:       mean[c] = s / rows;
// CHECK-NEXT:     __syncthreads(); // what slice 0 stored, seen by every slice
// CHECK-NEXT:     float d = 0.0f;

// Refused: a counter of 8 bits, which steps of 32 could wrap.
__global__ void narrow(const int *m, int *sums, unsigned char rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  int total = 0;
  for (unsigned char row = 0; row < rows; ++row)
    total += m[row * cols + col];
  sums[col] = total;
}

// Refused: the loop's variable is read after it.
__global__ void length_too(const int *m, int *sums, int *lens, int rows,
                           int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  int total = 0, row;
  for (row = 0; row < rows; ++row)
    total += m[row * cols + col];
  sums[col] = total;
  lens[col] = row;
}

// The column's sum subtracted from the element: slice 0 updates it once.
__global__ void drain(const float *x, float *level, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float used = 0.0f;
    for (int r = 0; r < rows; ++r)
      used += x[r * cols + c];
    level[c] -= used;
  }
}
// CHECK:      __global__ void drain(
// CHECK:          if (Active && Slice == 0)
// CHECK-NEXT:       level[c] -= used;

// Values loaded before the loop: a sparse row's bounds, and a maximum that
// starts at the row's first element. The threads the guard stops take zero
// instead of loading them.
__global__ void csr_rows(const int *rowptr, const int *colidx,
                         const float *val, const float *x, float *y,
                         int nrows) {
  const int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r >= nrows) return;
  int b = rowptr[r], e = rowptr[r + 1];
  float dot = 0.f;
  for (int j = b; j < e; ++j)
    dot += val[j] * x[colidx[j]];
  y[r] = dot;
}
// CHECK:      __global__ void csr_rows(
// CHECK:        const bool Active = !(r >= nrows);
// CHECK-NEXT:   int b = Active ? (rowptr[r]) : 0, e = Active ? (rowptr[r + 1]) : 0;
// CHECK:          for (int j = b + Slice; j < e; j += 32)
// CHECK:        if (Active && Slice == 0)
// CHECK-NEXT:     y[r] = dot;

__global__ void row_peak(const float *x, float *peak, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *xr = x + (size_t)r * cols;
    float m = xr[0];
    for (int j = 1; j < cols; ++j)
      m = fmaxf(m, xr[j]);
    peak[r] = m;
  }
}
// CHECK:      __global__ void row_peak(
// CHECK:          const float *xr = x + (size_t)r * cols;
// CHECK-NEXT:     float m = Active ? (xr[0]) : 0;
// CHECK-NEXT:     if (Active)
// CHECK-NEXT:       for (int j = 1 + Slice; j < cols; j += 32)

// Refused: a value loaded after slice 0's store, which the other slices
// would load before it.
__global__ void after_store(const float *x, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  out[r] = 0.f;
  float first = out[r];
  float s = 0.f;
  for (int j = 0; j < cols; ++j)
    s += x[r * cols + j];
  out[r] = s + first;
}

void run(const double *t, double *p, double *q, const int *st, const float *v,
         float *o, float *cp, int segments) {
  column_stats<<<(COLS + 127) / 128, 128>>>(t, p, q);
  dim3 grid((segments + 255) / 256);
  segment_sums<<<grid, 256>>>(st, v, o, segments);
  biased<<<16, 128>>>(v, o, 100, 2048);
  copies<<<16, 128>>>(v, o, cp, 100, 2048);
  odd_blocks<<<16, 48>>>(v, o, 100, 768);
  bounded<<<16, 128>>>(v, o, 100, 2048);
  centred<<<16, 128>>>(v, o, cp, 100, 2048);
  narrow<<<16, 128>>>(st, (int *)o, 100, 2048);
  length_too<<<16, 128>>>(st, (int *)o, (int *)cp, 100, 2048);
  drain<<<16, 128>>>(v, o, 100, 2048);
  csr_rows<<<16, 128>>>(st, st, v, v, o, 2048);
  row_peak<<<16, 128>>>(v, o, 100, 2048);
  after_store<<<16, 128>>>(v, o, 100, 2048);
}
// CHECK:      {{^ *}}column_stats<<<((COLS + 127) / 128) * 4, 1024>>>(t, p, q);
// CHECK:      {{^ *}}segment_sums<<<dim3(grid.x * 8, grid.y, grid.z), 1024>>>(st, v, o, segments);
// CHECK:      {{^ *}}drain<<<16 * 4, 1024>>>(v, o, 100, 2048);

// WHY: kernel biased at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: `s` does not start at zero before the loop at line 85: each slice would add its start
// WHY: kernel copies at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: the loop at line {{[0-9]+}} does more than reduce: line {{[0-9]+}}
// WHY: kernel odd_blocks at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: the launch at line {{[0-9]+}} has blocks of 48 threads, not whole warps
// WHY: kernel bounded at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: the kernel declares __launch_bounds__, which blocks of 1024 threads may exceed
// WHY: kernel narrow at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: the loop at line {{[0-9]+}} counts in `unsigned char`, which steps of 32 could wrap
// WHY: kernel length_too at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: `row` is read outside the loop at line {{[0-9]+}}, at line {{[0-9]+}}
// WHY: kernel after_store at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   split-serial-loop: not applied: the declaration at line {{[0-9]+}} reads memory outside a loop
