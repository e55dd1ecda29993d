// Reductions whose update runs under a condition: a count (`if (v > t)
// ++n;`), a sum of the terms that pass a test, a maximum over some
// iterations, and an element accumulated where a coefficient is non-zero;
// and sums that subtract (`r[i] -= a * x`, `left--`).
// The condition only chooses which iterations take part, so the loop is
// still a reduction: split-serial-loop and warp-per-row split it as they
// split an unguarded one and keep the condition in each slice's loop.
// A condition with side effects, one that reads the accumulator, an `if`
// with an `else` and an `if` with more than the update are not reductions.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.warp.cu %s -- -std=c++17
// RUN: %no-checks %t.warp.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop,warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.warp.cu %}

#include <cstdint>

// Counts, per column, the entries above a threshold.
__global__ void tally_columns(const std::int32_t *grid, std::uint32_t *tally,
                              int height, int width, std::int32_t floor_value) {
  const int col = blockDim.x * blockIdx.x + threadIdx.x;
  if (col >= width)
    return;
  std::uint32_t seen = 0u;
  for (int y = 0; y < height; y++)
    if (grid[y * width + col] > floor_value)
      seen++;
  tally[col] = seen;
}
// SPLIT-LABEL: __global__ void tally_columns(
// SPLIT:         for (int y = Slice; y < height; y += 32)
// SPLIT-NEXT:      if (grid[y * width + col] > floor_value)
// SPLIT-NEXT:        seen++;
// SPLIT:         Partial[Slice][threadIdx.x % 32] = seen;
// SPLIT:         seen += Partial[Q][threadIdx.x % 32];
// WHY-LABEL: kernel tally_columns at {{.*}}
// WHY:         split-serial-loop: give each output {{.*}}

// A row's sum of positive entries and its largest entry below a cap, by
// rows, the updates in braces.
__global__ void positive_parts(const float *__restrict__ m, int n_rows,
                               int n_cols, float cap, float *pos_sum,
                               float *below_cap) {
  int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < n_rows) {
    float acc = 0.0f;
    float best = -1.0e30f;
    for (int c = 0; c < n_cols; ++c) {
      const float v = m[(size_t)r * n_cols + c];
      if (v > 0.0f) {
        acc += v;
      }
      if (v < cap) {
        best = fmaxf(best, v);
      }
    }
    pos_sum[r] = acc;
    below_cap[r] = best;
  }
}
// WARP-LABEL: __global__ void positive_parts(
// WARP:         for (int c = {{.*}}; c < n_cols; c += 32) {
// WARP:           if (v > 0.0f) {
// WARP-NEXT:        acc += v;
// WARP:           if (v < cap) {
// WARP-NEXT:        best = fmaxf(best, v);
// WARP:         __shfl_down_sync(0xffffffff, acc,
// WARP:         __shfl_down_sync(0xffffffff, best,
// WHY-LABEL: kernel positive_parts at {{.*}}
// WHY:         warp-per-row: give each row {{.*}}

// y[i] accumulated where the coefficient is non-zero: the lanes accumulate
// in a register under the same condition.
__global__ void sparse_rows(const double *coef, const double *x, double *y,
                            unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (unsigned k = 0; k < cols; k++) {
      double a = coef[i * cols + k];
      if (a != 0.0)
        y[i] += a * x[k];
    }
  }
}
// WARP-LABEL: __global__ void sparse_rows(
// WARP:           if (a != 0.0)
// WARP-NEXT:        RowAcc += a * x[k];
// WARP:         y[i] += RowAcc;
// WHY-LABEL: kernel sparse_rows at {{.*}}
// WHY:         warp-per-row: give each row {{.*}}

// Residuals r[i] = b[i] - sum_k A[i][k] x[k], subtracted into the output,
// and a budget counted down: a sum of negated terms is a sum.
__global__ void residuals(const float *A, const float *x, float *r,
                          int *budget, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int left = 0;
    for (int k = 0; k < n; ++k) {
      r[i] -= A[i * n + k] * x[k];
      if (A[i * n + k] < 0.f)
        left--;
    }
    budget[i] = left;
  }
}
// WARP-LABEL: __global__ void residuals(
// WARP:           RowAcc -= A[i * n + k] * x[k];
// WARP-NEXT:      if (A[i * n + k] < 0.f)
// WARP-NEXT:        left--;
// WARP:         r[i] += RowAcc;
// WHY-LABEL: kernel residuals at {{.*}}
// WHY:         warp-per-row: give each row {{.*}}

// Not reductions: the condition has a side effect, reads the sum, the `if`
// has an `else`, or does more than update.
__global__ void side_effect(const float *a, int *probe, float *out, int n,
                            int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0.f;
  int hits = 0;
  for (int j = 0; j < len; ++j)
    if (a[j * n + t] > probe[hits++])
      s += a[j * n + t];
  out[t] = s + hits;
}
// WHY-LABEL: kernel side_effect at {{.*}}
// WHY:         split-serial-loop: not applied: the condition of the update at line [[@LINE-5]] has side effects
// WHY:         warp-per-row: not applied: the loop at line [[@LINE-7]] accumulates under a condition with side effects

__global__ void reads_sum(const float *a, float *out, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0.f;
  for (int j = 0; j < len; ++j)
    if (s < 100.f)
      s += a[j * n + t];
  out[t] = s;
}
// WHY-LABEL: kernel reads_sum at {{.*}}
// WHY:         split-serial-loop: not applied: the loop at line [[@LINE-6]] does more than reduce: line [[@LINE-5]]

__global__ void with_else(const float *a, float *out, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0.f;
  for (int j = 0; j < len; ++j)
    if (a[j * n + t] > 0.f)
      s += a[j * n + t];
    else
      s -= a[j * n + t];
  out[t] = s;
}
// WHY-LABEL: kernel with_else at {{.*}}
// WHY:         split-serial-loop: not applied: the loop at line [[@LINE-8]] does more than reduce: line [[@LINE-7]]

__global__ void more_than_update(const float *a, float *out, int n, int len) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  float s = 0.f, last = 0.f;
  for (int j = 0; j < len; ++j)
    if (a[j * n + t] > 0.f) {
      s += a[j * n + t];
      last = s;
    }
  out[t] = s + last;
}
// WHY-LABEL: kernel more_than_update at {{.*}}
// WHY:         split-serial-loop: not applied: the loop at line [[@LINE-8]] does more than reduce: line [[@LINE-7]]

// The launches: one thread per column, row or output, 256 per block.
void launch_all(const std::int32_t *g, std::uint32_t *tally, int h, int w,
                const float *m, float *ps, float *bc, const double *coef,
                const double *x, double *y, const float *a, int *probe,
                float *out) {
  tally_columns<<<(w + 255) / 256, 256>>>(g, tally, h, w, 7);
  positive_parts<<<(h + 255) / 256, 256>>>(m, h, w, 1.5f, ps, bc);
  sparse_rows<<<(h + 255) / 256, 256>>>(coef, x, y, h, w);
  residuals<<<(h + 255) / 256, 256>>>(m, bc, ps, probe, h);
  side_effect<<<(w + 255) / 256, 256>>>(a, probe, out, w, h);
  reads_sum<<<(w + 255) / 256, 256>>>(a, out, w, h);
  with_else<<<(w + 255) / 256, 256>>>(a, out, w, h);
  more_than_update<<<(w + 255) / 256, 256>>>(a, out, w, h);
}

