// An iteration that skips the rest of its body (`if (c) continue;` in a
// `for` loop, c without side effects) decides so by itself, wherever and
// in whatever order it runs: rows go to warps and columns to split loops
// with the `continue` kept. A `break` ends the loop for every later
// iteration and is refused, as is a `continue` whose condition changes
// something.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}

template <typename T>
__global__ void sparse_row_sums(const T *m, T *sums, long n, long w) {
  long r = threadIdx.x + (long)blockIdx.x * blockDim.x;
  if (r < n) {
    T acc = T(0);
    for (long k = 0; k < w; ++k) {
      T v = m[r * w + k];
      if (v == T(0))
        continue;
      acc += v * v;
    }
    sums[r] = acc;
  }
}
// CHECK:      __global__ void sparse_row_sums(const T *m, T *sums, long n, long w) {
// CHECK-NEXT:   long r = (threadIdx.x + (long)blockIdx.x * blockDim.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r < n) {
// CHECK-NEXT:     T acc = T(0);
// CHECK-NEXT:     for (long k = Lane; k < w; k += 32) {
// CHECK-NEXT:       T v = m[r * w + k];
// CHECK-NEXT:       if (v == T(0))
// CHECK-NEXT:         continue;
// CHECK-NEXT:       acc += v * v;
// CHECK-NEXT:     }
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       acc += __shfl_down_sync(0xffffffff, acc, Offset);
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       sums[r] = acc;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Few columns, each long: the count of its entries above the threshold.
__global__ void tall_counts(const float *x, int *count, int h, int c, float t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= c) return;
  int n = 0;
  for (int i = 0; i < h; i++) {
    if (!(x[i * c + j] > t)) { continue; }
    n++;
  }
  count[j] = n;
}
// CHECK:      __global__ void tall_counts(const float *x, int *count, int h, int c, float t) {
// CHECK-NEXT:   int j = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// SPLIT:      __global__ void tall_counts(const float *x, int *count, int h, int c, float t) {
// SPLIT-NEXT:   int j = (blockIdx.x * 32 + threadIdx.x % 32);
// SPLIT-NEXT:   // 32 threads per output: slice s takes iterations s, s + 32, ...
// SPLIT-NEXT:   const int Slice = threadIdx.x / 32;
// SPLIT-NEXT:   __shared__ int Partial[32][32];
// SPLIT-NEXT:   const bool Active = !(j >= c);
// SPLIT-NEXT:   int n = 0;
// SPLIT-NEXT:   if (Active)
// SPLIT-NEXT:     for (int i = Slice; i < h; i += 32) {
// SPLIT-NEXT:       if (!(x[i * c + j] > t)) { continue; }
// SPLIT-NEXT:       n++;
// SPLIT-NEXT:     }
// SPLIT-NEXT:   // The slices' partial results meet: every slice reads the total.
// SPLIT-NEXT:   Partial[Slice][threadIdx.x % 32] = n;
// SPLIT-NEXT:   __syncthreads();
// SPLIT-NEXT:   n = Partial[0][threadIdx.x % 32];
// SPLIT-NEXT:   for (int Q = 1; Q < 32; ++Q)
// SPLIT-NEXT:     n += Partial[Q][threadIdx.x % 32];
// SPLIT-NEXT:   __syncthreads();
// SPLIT-NEXT:   if (Active && Slice == 0)
// SPLIT-NEXT:     count[j] = n;
// SPLIT-NEXT: }

// Clamps the row's entries, leaving the negative ones alone.
__global__ void clamp_positive(float *y, int n, int w, float hi) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float peak = 0.f;
  for (int k = 0; k < w; ++k) peak = fmaxf(peak, y[r * w + k]);
  for (int k = 0; k < w; ++k) {
    if (y[r * w + k] < 0.f) continue;
    y[r * w + k] = fminf(y[r * w + k], hi * peak);
  }
}
// CHECK:      __global__ void clamp_positive(float *y, int n, int w, float hi) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r >= n) return;
// CHECK-NEXT:   float peak = 0.f;
// CHECK-NEXT:   for (int k = Lane; k < w; k += 32) peak = fmaxf(peak, y[r * w + k]);
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     peak = fmaxf(peak, __shfl_xor_sync(0xffffffff, peak, Offset));
// CHECK-NEXT:   for (int k = Lane; k < w; k += 32) {
// CHECK-NEXT:     if (y[r * w + k] < 0.f) continue;
// CHECK-NEXT:     y[r * w + k] = fminf(y[r * w + k], hi * peak);
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Stops at the first zero: the later iterations depend on the earlier.
__global__ void up_to_zero(const float *x, float *out, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float s = 0.f;
  for (int k = 0; k < w; ++k) {
    if (x[r * w + k] == 0.f) break;
    s += x[r * w + k];
  }
  out[r] = s;
}
// CHECK:      __global__ void up_to_zero(const float *x, float *out, int n, int w) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

void run(const double *a, double *b, const float *x, float *y, int *c) {
  sparse_row_sums<<<256, 128>>>(a, b, 32768L, 1024L);
  tall_counts<<<1, 128>>>(x, c, 1 << 20, 48, 0.5f);
  clamp_positive<<<64, 256>>>(y, 16384, 512, 0.9f);
  up_to_zero<<<64, 256>>>(x, y, 16384, 512);
}
// CHECK:      void run(const double *a, double *b, const float *x, float *y, int *c) {
// CHECK-NEXT:   sparse_row_sums<<<256 * 32, 128>>>(a, b, 32768L, 1024L);
// CHECK-NEXT:   tall_counts<<<1 * 32, 128>>>(x, c, 1 << 20, 48, 0.5f);
// CHECK-NEXT:   clamp_positive<<<64 * 32, 256>>>(y, 16384, 512, 0.9f);
// CHECK-NEXT:   up_to_zero<<<64, 256>>>(x, y, 16384, 512);
// CHECK-NEXT: }

// WHY:      kernel up_to_zero at {{.*}}skipped-iterations.cu:113:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: the loop at line 117 does more than declare values, accumulate and store elements: the statement at line 118 is none of these
