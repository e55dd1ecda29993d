// A maximum or minimum written as a choice (`m = v > m ? v : m;`, `if (v <
// m) m = v;`) is the reduction `fmaxf`/`fminf` (`max`/`min` for integers)
// computes, when the choice takes the new value only where it lies beyond
// the old one: a NaN never replaces it, as in the call. Rows go to warps,
// columns to split loops, each combined with the function. A float choice
// that takes the new value where the comparison fails (a NaN) is not a
// maximum and is refused.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row,split-serial-loop -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT --match-full-lines
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}

#define ROWS 4096
#define COLS 700

__global__ void peak(const float *x, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= ROWS) return;
  float m = x[r * COLS];
  for (int j = 1; j < COLS; ++j) {
    float v = x[r * COLS + j];
    m = v > m ? v : m;
  }
  out[r] = m;
}
// CHECK:      __global__ void peak(const float *x, float *out) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r >= ROWS) return;
// CHECK-NEXT:   float m = x[r * COLS];
// CHECK-NEXT:   for (int j = 1 + Lane; j < COLS; j += 32) {
// CHECK-NEXT:     float v = x[r * COLS + j];
// CHECK-NEXT:     m = v > m ? v : m;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     m = fmaxf(m, __shfl_down_sync(0xffffffff, m, Offset));
// CHECK-NEXT:   if (Lane == 0)
// CHECK-NEXT:     out[r] = m;
// CHECK-NEXT: }

// Column minima of integers, few columns: each is split over 32 threads.
__global__ void low(const int *__restrict__ a, int *__restrict__ out, unsigned rows, unsigned cols) {
  unsigned c = threadIdx.x + blockDim.x * blockIdx.x;
  if (c < cols) {
    int lo = a[c];
    for (unsigned i = 1; i < rows; i++)
      if (a[(size_t)i * cols + c] < lo)
        lo = a[(size_t)i * cols + c];
    out[c] = lo;
  }
}
// CHECK:      __global__ void low(const int *__restrict__ a, int *__restrict__ out, unsigned rows, unsigned cols) {
// CHECK-NEXT:   unsigned c = (threadIdx.x + blockDim.x * blockIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// SPLIT:      __global__ void low(const int *__restrict__ a, int *__restrict__ out, unsigned rows, unsigned cols) {
// SPLIT-NEXT:   unsigned c = (blockIdx.x * 32 + threadIdx.x % 32);
// SPLIT-NEXT:   // 32 threads per output: slice s takes iterations s, s + 32, ...
// SPLIT-NEXT:   const int Slice = threadIdx.x / 32;
// SPLIT-NEXT:   __shared__ int Partial[32][32];
// SPLIT-NEXT:   const bool Active = (c < cols);
// SPLIT-NEXT:   {
// SPLIT-NEXT:     int lo = Active ? (a[c]) : 0;
// SPLIT-NEXT:     if (Active)
// SPLIT-NEXT:       for (unsigned i = 1 + Slice; i < rows; i += 32)
// SPLIT-NEXT:         if (a[(size_t)i * cols + c] < lo)
// SPLIT-NEXT:           lo = a[(size_t)i * cols + c];
// SPLIT-NEXT:     // The slices' partial results meet: every slice reads the total.
// SPLIT-NEXT:     Partial[Slice][threadIdx.x % 32] = lo;
// SPLIT-NEXT:     __syncthreads();
// SPLIT-NEXT:     lo = Partial[0][threadIdx.x % 32];
// SPLIT-NEXT:     for (int Q = 1; Q < 32; ++Q)
// SPLIT-NEXT:       lo = min(lo, Partial[Q][threadIdx.x % 32]);
// SPLIT-NEXT:     __syncthreads();
// SPLIT-NEXT:     if (Active && Slice == 0)
// SPLIT-NEXT:       out[c] = lo;
// SPLIT-NEXT:   }
// SPLIT-NEXT: }

// `m > v ? m : v` takes v where the comparison fails: also where v is a
// NaN.
__global__ void nan_taking(const float *x, float *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= ROWS) return;
  float m = x[r * COLS];
  for (int j = 1; j < COLS; ++j)
    m = m > x[r * COLS + j] ? m : x[r * COLS + j];
  out[r] = m;
}
// CHECK:      __global__ void nan_taking(const float *x, float *out) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

void run(const float *x, float *y, const int *a, int *b) {
  peak<<<ROWS / 128, 128>>>(x, y);
  low<<<1, 64>>>(a, b, 100000, 64);
  nan_taking<<<ROWS / 128, 128>>>(x, y);
}
// CHECK:      void run(const float *x, float *y, const int *a, int *b) {
// CHECK-NEXT:   peak<<<(ROWS / 128) * 32, 128>>>(x, y);
// CHECK-NEXT:   low<<<1 * 32, 64>>>(a, b, 100000, 64);
// CHECK-NEXT:   nan_taking<<<ROWS / 128, 128>>>(x, y);
// CHECK-NEXT: }
// SPLIT:      void run(const float *x, float *y, const int *a, int *b) {
// SPLIT:        low<<<1 * 2, 1024>>>(a, b, 100000, 64);

// WHY:      kernel nan_taking at {{.*}}extreme-choices.cu:86:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: the loop at line 90 sets `m` each iteration, which is neither a sum, a minimum or a maximum over the row nor a store of one element
