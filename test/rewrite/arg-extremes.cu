// A row kernel that finds where its row's greatest or least value is
// first reached (`if (v > best) { best = v; at = j; }`): warp-per-row
// gives the row to a warp whose lanes search their slices and combine the
// (value, position) pairs with shuffles, the greater (lesser) value and,
// of equal values, the earlier position, as the thread's strict
// comparison kept it. A search that keeps the last position (`>=`) or
// whose position does not grow with the loop is refused.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#include <float.h>
#include <math.h>

__global__ void argmax_rows(const float *logits, int *label, int rows, int classes) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float best = -FLT_MAX;
    int arg = 0;
    for (int c = 0; c < classes; c++) {
      float v = logits[r * classes + c];
      if (v > best) {
        best = v;
        arg = c;
      }
    }
    label[r] = arg;
  }
}
// CHECK:      __global__ void argmax_rows(const float *logits, int *label, int rows, int classes) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r < rows) {
// CHECK-NEXT:     float best = -FLT_MAX;
// CHECK-NEXT:     int arg = 0;
// CHECK-NEXT:     for (int c = Lane; c < classes; c += 32) {
// CHECK-NEXT:       float v = logits[r * classes + c];
// CHECK-NEXT:       if (v > best) {
// CHECK-NEXT:         best = v;
// CHECK-NEXT:         arg = c;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2) {
// CHECK-NEXT:       float Other = __shfl_down_sync(0xffffffff, best, Offset);
// CHECK-NEXT:       int OtherAt = __shfl_down_sync(0xffffffff, arg, Offset);
// CHECK-NEXT:       if (Other > best || (Other == best && OtherAt < arg)) {
// CHECK-NEXT:         best = Other;
// CHECK-NEXT:         arg = OtherAt;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       label[r] = arg;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// The least, the extreme on the left, its assignment second, from 1.
__global__ void nearest(const double *__restrict__ d, long *where, double *dist, unsigned n, unsigned m) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const double *row = d + (size_t)i * m;
    double lo = row[0];
    long at = 0;
    for (unsigned k = 1; k < m; ++k)
      if (lo > row[k]) { at = k; lo = row[k]; }
    where[i] = at;
    dist[i] = lo;
  }
}
// CHECK:      __global__ void nearest(const double *__restrict__ d, long *where, double *dist, unsigned n, unsigned m) {
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   for (unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += (gridDim.x * blockDim.x) / 32) {
// CHECK-NEXT:     const double *row = d + (size_t)i * m;
// CHECK-NEXT:     double lo = row[0];
// CHECK-NEXT:     long at = 0;
// CHECK-NEXT:     for (unsigned k = 1 + Lane; k < m; k += 32)
// CHECK-NEXT:       if (lo > row[k]) { at = k; lo = row[k]; }
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2) {
// CHECK-NEXT:       double Other = __shfl_down_sync(0xffffffff, lo, Offset);
// CHECK-NEXT:       long OtherAt = __shfl_down_sync(0xffffffff, at, Offset);
// CHECK-NEXT:       if (Other < lo || (Other == lo && OtherAt < at)) {
// CHECK-NEXT:         lo = Other;
// CHECK-NEXT:         at = OtherAt;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       where[i] = at;
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       dist[i] = lo;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// A later loop of every lane reads both.
__global__ void shift_by_peak(const float *x, float *y, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float b = -INFINITY; int p = 0;
  for (int j = 0; j < w; ++j) if (x[r * w + j] > b) { b = x[r * w + j]; p = j; }
  for (int j = 0; j < w; ++j) y[r * w + j] = x[r * w + j] - b + (float)p;
}
// CHECK:      __global__ void shift_by_peak(const float *x, float *y, int n, int w) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r >= n) return;
// CHECK-NEXT:   float b = -INFINITY; int p = 0;
// CHECK-NEXT:   for (int j = Lane; j < w; j += 32) if (x[r * w + j] > b) { b = x[r * w + j]; p = j; }
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2) {
// CHECK-NEXT:     float Other = __shfl_xor_sync(0xffffffff, b, Offset);
// CHECK-NEXT:     int OtherAt = __shfl_xor_sync(0xffffffff, p, Offset);
// CHECK-NEXT:     if (Other > b || (Other == b && OtherAt < p)) {
// CHECK-NEXT:       b = Other;
// CHECK-NEXT:       p = OtherAt;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int j = Lane; j < w; j += 32) y[r * w + j] = x[r * w + j] - b + (float)p;
// CHECK-NEXT: }

// `>=` keeps the last position of the greatest value.
__global__ void last_max(const float *x, int *o, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float b = x[r * w]; int p = 0;
  for (int j = 0; j < w; ++j) { float v = x[r * w + j]; if (v >= b) { b = v; p = j; } }
  o[r] = p;
}
// CHECK:      __global__ void last_max(const float *x, int *o, int n, int w) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

// The position falls as the loop goes on.
__global__ void from_the_end(const float *x, int *o, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float b = -INFINITY; int p = -1;
  for (int j = 0; j < w; ++j) { float v = x[r * w + j]; if (v > b) { b = v; p = w - 1 - j; } }
  o[r] = p;
}
// CHECK:      __global__ void from_the_end(const float *x, int *o, int n, int w) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

// Another search, in another loop, starts from what the first found.
__global__ void two_searches(const float *x, int *o, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float b = -INFINITY; int p = 0;
  for (int j = 0; j < w; ++j) if (x[r * w + j] > b) { b = x[r * w + j]; p = j; }
  for (int j = 0; j < w; ++j) if (x[r * w + j] * 2 > b) { b = x[r * w + j] * 2; p = j; }
  o[r] = p;
}
// CHECK:      __global__ void two_searches(const float *x, int *o, int n, int w) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

void launch(float *a, int *l, double *d, long *wh) {
  argmax_rows<<<100, 256>>>(a, l, 25600, 1000);
  nearest<<<64, 128>>>(d, wh, d, 4096, 512);
  shift_by_peak<<<64, 128>>>(a, a, 4096, 512);
  last_max<<<64, 128>>>(a, l, 4096, 512);
  from_the_end<<<64, 128>>>(a, l, 4096, 512);
  two_searches<<<64, 128>>>(a, l, 4096, 512);
}
// CHECK:      void launch(float *a, int *l, double *d, long *wh) {
// CHECK-NEXT:   argmax_rows<<<100 * 32, 256>>>(a, l, 25600, 1000);
// CHECK-NEXT:   nearest<<<64 * 32, 128>>>(d, wh, d, 4096, 512);
// CHECK-NEXT:   shift_by_peak<<<64 * 32, 128>>>(a, a, 4096, 512);
// CHECK-NEXT:   last_max<<<64, 128>>>(a, l, 4096, 512);
// CHECK-NEXT:   from_the_end<<<64, 128>>>(a, l, 4096, 512);
// CHECK-NEXT:   two_searches<<<64, 128>>>(a, l, 4096, 512);
// CHECK-NEXT: }

// WHY:      kernel last_max at {{.*}}arg-extremes.cu:122:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: the loop at line 126 neither accumulates over the row nor stores one element per iteration
// WHY:      kernel from_the_end at {{.*}}arg-extremes.cu:133:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: the loop at line 137 records `w - 1 - j` as the extreme's position, which does not grow with `j`
// WHY:      kernel two_searches at {{.*}}arg-extremes.cu:144:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: `b` is found by more than one statement
