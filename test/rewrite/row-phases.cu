// A row kernel of several phases (a softmax, a layer norm, a scaling) may
// store elements of its row in one loop and read them in a later one:
// warp-per-row gives the row to a warp when each lane reads back only the
// elements it stored itself (the same element of the iteration one lane
// runs in both loops, whatever each loop's first value), and otherwise
// puts a __syncwarp() between the two loops, after the shuffles that
// separate them when there are any. A loop whose lanes would meet on an
// element inside it is refused; a store between the loops is lane 0's.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#include <math.h>

// Stores the exponentials while it sums them, then rescales them in place.
__global__ void softmax_store_sum(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* x = in + (size_t)r * cols;
  float* y = out + (size_t)r * cols;
  float m = -INFINITY;
  for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float e = __expf(x[c] - m);
    y[c] = e;
    sum += e;
  }
  float inv = 1.0f / sum;
  for (int c = 0; c < cols; ++c) y[c] *= inv;
}
// CHECK:      __global__ void softmax_store_sum(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r >= rows) return;
// CHECK-NEXT:   const float* x = in + (size_t)r * cols;
// CHECK-NEXT:   float* y = out + (size_t)r * cols;
// CHECK-NEXT:   float m = -INFINITY;
// CHECK-NEXT:   for (int c = Lane; c < cols; c += 32) m = fmaxf(m, x[c]);
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, Offset));
// CHECK-NEXT:   float sum = 0.0f;
// CHECK-NEXT:   for (int c = Lane; c < cols; c += 32) {
// CHECK-NEXT:     float e = __expf(x[c] - m);
// CHECK-NEXT:     y[c] = e;
// CHECK-NEXT:     sum += e;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:     sum += __shfl_xor_sync(0xffffffff, sum, Offset);
// CHECK-NEXT:   float inv = 1.0f / sum;
// CHECK-NEXT:   for (int c = Lane; c < cols; c += 32) y[c] *= inv;
// CHECK-NEXT: }

// x may be y: the maximum's loop starts at 1, so its lanes read elements
// other lanes store in the last loop; a __syncwarp() before the shuffles
// of the sum orders them.
__global__ void softmax_maybe_in_place(const float *x, float *y, unsigned n, unsigned d) {
  unsigned row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row < n) {
    float mx = x[row * d];
    for (unsigned k = 1; k < d; k++) mx = max(mx, x[row * d + k]);
    float z = 0;
    for (unsigned k = 0; k < d; k++) z += expf(x[row * d + k] - mx);
    for (unsigned k = 0; k < d; k++) y[row * d + k] = expf(x[row * d + k] - mx) / z;
  }
}
// CHECK:      __global__ void softmax_maybe_in_place(const float *x, float *y, unsigned n, unsigned d) {
// CHECK-NEXT:   unsigned row = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (row < n) {
// CHECK-NEXT:     float mx = x[row * d];
// CHECK-NEXT:     for (unsigned k = 1 + Lane; k < d; k += 32) mx = max(mx, x[row * d + k]);
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       mx = max(mx, __shfl_xor_sync(0xffffffff, mx, Offset));
// CHECK-NEXT:     float z = 0;
// CHECK-NEXT:     for (unsigned k = Lane; k < d; k += 32) z += expf(x[row * d + k] - mx);
// CHECK-NEXT:     __syncwarp();
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       z += __shfl_xor_sync(0xffffffff, z, Offset);
// CHECK-NEXT:     for (unsigned k = Lane; k < d; k += 32) y[row * d + k] = expf(x[row * d + k] - mx) / z;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// In place over a grid-stride loop: every lane reads back its own
// elements, and the warp meets at the end of each row before the next.
__global__ void layernorm_inplace(double *data, int n, int width, double eps) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n; row += blockDim.x * gridDim.x) {
    double *p = data + row * width;
    double mean = 0;
    for (int i = 0; i < width; i++) mean += p[i];
    mean /= width;
    for (int i = 0; i < width; i++) p[i] -= mean;
    double var = 0;
    for (int i = 0; i < width; i++) var += p[i] * p[i];
    double rs = 1.0 / sqrt(var / width + eps);
    for (int i = 0; i < width; i++) p[i] *= rs;
  }
}
// CHECK:      __global__ void layernorm_inplace(double *data, int n, int width, double eps) {
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   for (int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32; row < n; row += (blockDim.x * gridDim.x) / 32) {
// CHECK-NEXT:     double *p = data + row * width;
// CHECK-NEXT:     double mean = 0;
// CHECK-NEXT:     for (int i = Lane; i < width; i += 32) mean += p[i];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       mean += __shfl_xor_sync(0xffffffff, mean, Offset);
// CHECK-NEXT:     mean /= width;
// CHECK-NEXT:     for (int i = Lane; i < width; i += 32) p[i] -= mean;
// CHECK-NEXT:     double var = 0;
// CHECK-NEXT:     for (int i = Lane; i < width; i += 32) var += p[i] * p[i];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       var += __shfl_xor_sync(0xffffffff, var, Offset);
// CHECK-NEXT:     double rs = 1.0 / sqrt(var / width + eps);
// CHECK-NEXT:     for (int i = Lane; i < width; i += 32) p[i] *= rs;
// CHECK-NEXT:     __syncwarp();
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Reads the next element, then clears the row: no shuffle between the two
// loops, so a __syncwarp() before the second.
__global__ void shift_then_clear(float *a, float *__restrict__ b, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0;
    for (int j = 0; j < w; ++j) s += a[r * w + j];
    for (int j = 0; j < w - 1; ++j) b[r * w + j] = a[r * w + j + 1] + s;
    for (int j = 0; j < w; ++j) a[r * w + j] = 0.f;
  }
}
// CHECK:      __global__ void shift_then_clear(float *a, float *__restrict__ b, int n, int w) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r < n) {
// CHECK-NEXT:     float s = 0;
// CHECK-NEXT:     for (int j = Lane; j < w; j += 32) s += a[r * w + j];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       s += __shfl_xor_sync(0xffffffff, s, Offset);
// CHECK-NEXT:     for (int j = Lane; j < w - 1; j += 32) b[r * w + j] = a[r * w + j + 1] + s;
// CHECK-NEXT:     __syncwarp();
// CHECK-NEXT:     for (int j = Lane; j < w; j += 32) a[r * w + j] = 0.f;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Every lane reads the row's first element, which lane 0 overwrites in the
// next loop; the row's total is stored between the loops, by lane 0.
__global__ void first_then_scale(float *a, float *total, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0;
    for (int j = 0; j < w; ++j) s += a[r * w + j];
    float f = a[r * w];
    total[r] = s;
    for (int j = 0; j < w; ++j) a[r * w + j] = a[r * w + j] * f / s;
  }
}
// CHECK:      __global__ void first_then_scale(float *a, float *total, int n, int w) {
// CHECK-NEXT:   int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK-NEXT:   // One warp per row: its lanes split the row.
// CHECK-NEXT:   int Lane = threadIdx.x % 32;
// CHECK-NEXT:   if (r < n) {
// CHECK-NEXT:     float s = 0;
// CHECK-NEXT:     for (int j = Lane; j < w; j += 32) s += a[r * w + j];
// CHECK-NEXT:     for (int Offset = 16; Offset > 0; Offset /= 2)
// CHECK-NEXT:       s += __shfl_xor_sync(0xffffffff, s, Offset);
// CHECK-NEXT:     float f = a[r * w];
// CHECK-NEXT:     if (Lane == 0)
// CHECK-NEXT:       total[r] = s;
// CHECK-NEXT:     __syncwarp();
// CHECK-NEXT:     for (int j = Lane; j < w; j += 32) a[r * w + j] = a[r * w + j] * f / s;
// CHECK-NEXT:   }
// CHECK-NEXT: }

// One loop stores an element and reads the next: its lanes would meet.
__global__ void neighbour_in_loop(const float *__restrict__ x, float *__restrict__ y, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0;
    for (int j = 0; j < w - 1; ++j) {
      y[r * w + j] = x[r * w + j];
      s += y[r * w + j + 1];
    }
    y[r * w] = s;
  }
}
// CHECK:      __global__ void neighbour_in_loop(const float *__restrict__ x, float *__restrict__ y, int n, int w) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;

// A member of a local struct is set between the loops: were lane 0 alone
// to set it, the other lanes would divide by what they had before.
struct Bounds { float lo, hi; };
__global__ void scale_by_member(const float *x, float *y, unsigned n, unsigned w) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  Bounds b = {0.0f, 0.0f};
  float m = -INFINITY;
  for (unsigned j = 0; j < w; ++j) m = fmaxf(m, x[r * w + j]);
  b.hi = m;
  for (unsigned j = 0; j < w; ++j) y[r * w + j] = x[r * w + j] / b.hi;
}
// CHECK:      __global__ void scale_by_member(const float *x, float *y, unsigned n, unsigned w) {
// CHECK-NEXT:   unsigned r = blockIdx.x * blockDim.x + threadIdx.x;

void launch(float *a, float *b, double *d) {
  softmax_store_sum<<<64, 128>>>(a, b, 1000, 512);
  softmax_maybe_in_place<<<64, 128>>>(a, b, 1000, 512);
  layernorm_inplace<<<64, 128>>>(d, 1000, 512, 1e-5);
  shift_then_clear<<<64, 128>>>(a, b, 1000, 512);
  first_then_scale<<<64, 128>>>(a, b, 1000, 512);
  neighbour_in_loop<<<64, 128>>>(a, b, 1000, 512);
  scale_by_member<<<64, 128>>>(a, b, 1000, 512);
}
// CHECK:      void launch(float *a, float *b, double *d) {
// CHECK-NEXT:   softmax_store_sum<<<64 * 32, 128>>>(a, b, 1000, 512);
// CHECK-NEXT:   softmax_maybe_in_place<<<64 * 32, 128>>>(a, b, 1000, 512);
// CHECK-NEXT:   layernorm_inplace<<<64 * 32, 128>>>(d, 1000, 512, 1e-5);
// CHECK-NEXT:   shift_then_clear<<<64 * 32, 128>>>(a, b, 1000, 512);
// CHECK-NEXT:   first_then_scale<<<64 * 32, 128>>>(a, b, 1000, 512);
// CHECK-NEXT:   neighbour_in_loop<<<64, 128>>>(a, b, 1000, 512);
// CHECK-NEXT:   scale_by_member<<<64, 128>>>(a, b, 1000, 512);
// CHECK-NEXT: }

// WHY:      kernel neighbour_in_loop at {{.*}}row-phases.cu:180:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: `y` is read at line 186 at another element than the loop stores

// WHY:      kernel scale_by_member at {{.*}}row-phases.cu:197:17
// WHY-NEXT:   no proposal
// WHY-NEXT:   warp-per-row: not applied: the statement at line 203 is neither a declaration, a loop over the row nor a store
