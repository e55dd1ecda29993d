// Loops that count down by one (`for (j = n - 1; j >= 0; --j)`,
// `j > 0; j--`, `j != 0; j -= 1`, a `while` ending in `--j`, `j-- > 0`
// with no step) take the same
// values as the loop counting up: the model reads them as that set, and
// split-serial-loop and warp-per-row give their slices the values from the
// low bound up, by the stride. A counter that is unsigned and may pass
// zero, or steps down by more than one, is not read.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.warp.cu %s -- -std=c++17
// RUN: %no-checks %t.warp.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop,warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.warp.cu %}

#define ROWS 2048
#define COLS 4096

// y = A x by rows, the columns walked from the last.
__global__ void gemv_backwards(const float *A, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ROWS) {
    float s = 0.f;
    for (int j = COLS - 1; j >= 0; --j)
      s += A[i * COLS + j] * x[j];
    y[i] = s;
  }
}
// WARP-LABEL: __global__ void gemv_backwards(
// WARP:         for (int j = Lane; j <= (COLS - 1); j += 32)
// WARP-NEXT:      s += A[i * COLS + j] * x[j];
// SPLIT-LABEL: __global__ void gemv_backwards(
// SPLIT:         for (int j = Slice; j <= (COLS - 1); j += 32)

// Per-column sums, the rows counted down from the height to one.
__global__ void colsum_from_bottom(const double *m, double *out, int height,
                                   int width) {
  int c = threadIdx.x + blockIdx.x * blockDim.x;
  if (c >= width)
    return;
  double acc = 0.0;
  for (int r = height; r > 0; r--)
    acc += m[(r - 1) * width + c];
  out[c] = acc;
}
// SPLIT-LABEL: __global__ void colsum_from_bottom(
// SPLIT:         for (int r = 1 + Slice; r <= height; r += 32)
// SPLIT-NEXT:      acc += m[(r - 1) * width + c];

// A row's squared norm, `!=` and `-= 1`, the low bound a parameter.
__global__ void tail_norms(const float *v, float *out, int rows, int cols,
                           int skip) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float q = 0.0f;
    for (int k = cols - 1; k != skip; k -= 1)
      q += v[row * cols + k] * v[row * cols + k];
    out[row] = q;
  }
}
// WARP-LABEL: __global__ void tail_norms(
// WARP:         for (int k = skip + 1 + Lane; k <= (cols - 1); k += 32)

// A `while` loop counting down.
__global__ void while_down(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  int k = cols - 1;
  while (k >= 0) {
    s += a[r * cols + k];
    --k;
  }
  out[r] = s;
}
// WARP-LABEL: __global__ void while_down(
// WARP:         int k = Lane;
// WARP-NEXT:    while (k <= (cols - 1)) {
// WARP-NEXT:      s += a[r * cols + k];
// WARP-NEXT:      k += 32;

// An unsigned counter that stops above zero never wraps: it is read.
__global__ void unsigned_down(const float *a, float *out, int rows,
                              unsigned cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (unsigned k = cols; k > 0; --k)
    s += a[r * cols + k - 1];
  out[r] = s;
}
// SPLIT-LABEL: __global__ void unsigned_down(
// SPLIT:         for (unsigned k = 1 + Slice; k <= cols; k += 32)
// SPLIT-NEXT:      s += a[r * cols + k - 1];
// WARP-LABEL: __global__ void unsigned_down(
// WARP:          for (unsigned k = 1 + Lane; k <= cols; k += 32)

// Conditions that decrement as they test: the body sees cols - 1 down to 0,
// and hi - 1 down to lo.
__global__ void post_decrement(const float *__restrict__ a,
                               float *__restrict__ out, int rows,
                               unsigned cols) {
  const int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned k = cols; k--;)
      s += a[(size_t)r * cols + k];
    out[r] = s;
  }
}
// SPLIT-LABEL: __global__ void post_decrement(
// SPLIT:         for (unsigned k = Slice; k < cols; k += 32)
// SPLIT-NEXT:      s += a[(size_t)r * cols + k];
// WARP-LABEL: __global__ void post_decrement(
// WARP:          for (unsigned k = Lane; k < cols; k += 32)

__global__ void post_decrement_window(const float *a, float *out, int rows,
                                      int cols, int lo, int hi) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float m = a[r * cols + lo];
  for (int k = hi; k-- > lo;)
    m = fmaxf(m, a[r * cols + k]);
  out[r] = m;
}
// WARP-LABEL: __global__ void post_decrement_window(
// WARP:          for (int k = lo + Lane; k < hi; k += 32)

// Not read: an unsigned counter that may reach zero (`k >= lo` never ends
// when lo is 0), and a step of two.
__global__ void unsigned_to_low(const float *a, float *out, int rows,
                                unsigned cols, unsigned lo) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (unsigned k = cols - 1; k >= lo; --k)
    s += a[r * cols + k];
  out[r] = s;
}
// WHY-LABEL: kernel unsigned_to_low at {{.*}}
// WHY:         warp-per-row: {{.*}}counts `k` down in an unsigned type

__global__ void down_by_two(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int k = cols - 1; k >= 0; k -= 2)
    s += a[r * cols + k];
  out[r] = s;
}
// WHY-LABEL: kernel down_by_two at {{.*}}
// WHY:         warp-per-row: {{.*}}counts `k` down by 2; loops counting down are read by ones

void run(const float *A, const float *x, float *y, const double *m, double *cs,
         int h, int w, const float *v, float *n, int skip) {
  gemv_backwards<<<ROWS / 128, 128>>>(A, x, y);
  colsum_from_bottom<<<(w + 127) / 128, 128>>>(m, cs, h, w);
  tail_norms<<<(h + 255) / 256, 256>>>(v, n, h, w, skip);
  while_down<<<(h + 255) / 256, 256>>>(v, n, h, w);
  unsigned_down<<<(h + 255) / 256, 256>>>(v, n, h, w);
  post_decrement<<<(h + 255) / 256, 256>>>(v, n, h, w);
  post_decrement_window<<<(h + 255) / 256, 256>>>(v, n, h, w, skip, w - 1);
  unsigned_to_low<<<(h + 255) / 256, 256>>>(v, n, h, w, 1u);
  down_by_two<<<(h + 255) / 256, 256>>>(v, n, h, w);
}
