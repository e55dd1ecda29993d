// vectorize-float4 on grid-stride loops: the loop strides over groups of
// four elements with float4 loads and stores, then over the last n % 4
// elements one by one, when every vectorised pointer is 16-byte aligned;
// otherwise the original loop runs. Any grid strides over every group, so
// a launch may stay as it is. The start and the step are written anew
// from their values, whatever their spelling: a `for` or a `while`, the
// step in a local, the loop inside a guard of conditions. A loop whose
// variable is read outside it, or that leaves an iteration early, is
// refused with its reason. A launch whose grid covers the bound with one
// thread per element gets a quarter of the blocks, as for a guarded
// kernel; other launches stay as they are.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#define THREADS 256
typedef unsigned long long u64;

// In place, 64-bit counts, Allman braces, one statement as the body.
__global__ void
clampInPlace(float *v, u64 count, float lo)
{
    for (u64 k = threadIdx.x + (u64)blockDim.x * blockIdx.x; k < count;
         k += (u64)gridDim.x * blockDim.x)
        v[k] = v[k] < lo ? lo : v[k];
}
// CHECK:      clampInPlace(float *v, u64 count, float lo)
// CHECK-NEXT: {
// CHECK-NEXT:     // Four elements per thread: float4 when every vectorised pointer is
// CHECK-NEXT:     // 16-byte aligned, one by one otherwise and for the tail.
// CHECK-NEXT:     if (((reinterpret_cast<unsigned long long>(v)) % 16) == 0) {
// CHECK-NEXT:       for (u64 k4 = (u64)blockIdx.x * blockDim.x + threadIdx.x; k4 < count / 4;
// CHECK-NEXT:            k4 += (u64)blockDim.x * gridDim.x) {
// CHECK-NEXT:         float4 v4 = reinterpret_cast<const float4 *>(v)[k4];
// CHECK-NEXT:         {
// CHECK-NEXT:           v4.x = v4.x < lo ? lo : v4.x;
// CHECK-NEXT:         }
// CHECK:              reinterpret_cast<float4 *>(v)[k4] = v4;
// CHECK-NEXT:       }
// CHECK-NEXT:       for (u64 k = 4 * (count / 4) + ((u64)blockIdx.x * blockDim.x + threadIdx.x); k < count;
// CHECK-NEXT:            k += (u64)blockDim.x * gridDim.x) {
// CHECK-NEXT:         v[k] = v[k] < lo ? lo : v[k];
// CHECK-NEXT:       }
// CHECK-NEXT:     } else {
// CHECK-NEXT:       for (u64 k = threadIdx.x + (u64)blockDim.x * blockIdx.x; k < count;
// CHECK-NEXT:            k += (u64)gridDim.x * blockDim.x)
// CHECK-NEXT:           v[k] = v[k] < lo ? lo : v[k];
// CHECK-NEXT:     }
// CHECK-NEXT: }

// A `while` with the step in a local and the counter declared before it,
// under a guard of conditions; two inputs and a local per element: the
// tail sets the counter declared before the loop.
__global__ void blend(const float *a, const float *b, float *out, int len,
                      float t, int enabled) {
  if (!enabled) return;
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  const int step = gridDim.x * blockDim.x;
  while (tid < len) {
    float d = b[tid] - a[tid];
    out[tid] = a[tid] + t * d;
    tid += step;
  }
}
// CHECK:      __global__ void blend(const float *a, const float *b, float *out, int len,
// CHECK-NEXT:                       float t, int enabled) {
// CHECK-NEXT:   if (!enabled) return;
// CHECK-NEXT:   int tid = threadIdx.x + blockIdx.x * blockDim.x;
// CHECK-NEXT:   const int step = gridDim.x * blockDim.x;
// CHECK-NEXT:   // Four elements per thread: float4 when every vectorised pointer is
// CHECK-NEXT:   // 16-byte aligned, one by one otherwise and for the tail.
// CHECK-NEXT:   if (((reinterpret_cast<unsigned long long>(b) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(a) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(out)) % 16) == 0) {
// CHECK-NEXT:     for (int tid4 = (int)blockIdx.x * blockDim.x + threadIdx.x; tid4 < len / 4;
// CHECK-NEXT:          tid4 += (int)blockDim.x * gridDim.x) {
// CHECK-NEXT:       const float4 b4 = reinterpret_cast<const float4 *>(b)[tid4];
// CHECK-NEXT:       const float4 a4 = reinterpret_cast<const float4 *>(a)[tid4];
// CHECK-NEXT:       float4 out4;
// CHECK-NEXT:       {
// CHECK-NEXT:         float d = b4.x - a4.x;
// CHECK-NEXT:         out4.x = a4.x + t * d;
// CHECK-NEXT:       }
// CHECK:            reinterpret_cast<float4 *>(out)[tid4] = out4;
// CHECK-NEXT:     }
// CHECK-NEXT:     for (tid = 4 * (len / 4) + ((int)blockIdx.x * blockDim.x + threadIdx.x); tid < len;
// CHECK-NEXT:          tid += (int)blockDim.x * gridDim.x) {
// CHECK-NEXT:       float d = b[tid] - a[tid];
// CHECK-NEXT:       out[tid] = a[tid] + t * d;
// CHECK-NEXT:     }
// CHECK-NEXT:   } else {
// CHECK-NEXT:     while (tid < len) {
// CHECK-NEXT:       float d = b[tid] - a[tid];
// CHECK-NEXT:       out[tid] = a[tid] + t * d;
// CHECK-NEXT:       tid += step;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// The counter read after the loop, which then is not the work's end: the
// vector loop would leave it at another value.
__global__ void lastIndex(float *x, int n, int *last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (; i < n; i += blockDim.x * gridDim.x)
    x[i] *= 2.0f;
  last[0] = i;
}

// A `continue` of the loop would skip the other lanes of a group.
__global__ void skipNegative(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (x[i] >= 0.0f)
      continue;
    x[i] = -x[i];
  }
}

// A neighbour of the element is another element.
__global__ void diffs(const float *x, float *d, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n - 1;
       i += blockDim.x * gridDim.x)
    d[i] = x[i + 1] - x[i];
}

// WHY-LABEL: kernel lastIndex at
// WHY:         vectorize-float4: not applied: it has no guard of the global index blockIdx.x * blockDim.x + threadIdx.x and does not end with a grid-stride loop
// WHY-LABEL: kernel skipNegative at
// WHY:         vectorize-float4: not applied: the work at line [[@LINE-15]] leaves its iteration early, which would leave the other elements of its group of four
// WHY-LABEL: kernel diffs at
// WHY:         vectorize-float4: not applied: `x[i + 1]` at line [[@LINE-8]] is an element other than the index's

void run(float *v, float *a, float *b, float *o, int *l, int n) {
  clampInPlace<<<1024, THREADS>>>(v, n, 0.0f);
  blend<<<(n + THREADS - 1) / THREADS, THREADS>>>(a, b, o, n, 0.25f, 1);
  blend<<<n / THREADS, THREADS>>>(a, b, o, n, 0.25f, 1);
  lastIndex<<<1024, THREADS>>>(v, n, l);
  skipNegative<<<1024, THREADS>>>(v, n);
  diffs<<<1024, THREADS>>>(a, o, n);
}
// CHECK:        clampInPlace<<<1024, THREADS>>>(v, n, 0.0f);
// CHECK-NEXT:   blend<<<((n + 3) / 4 + THREADS - 1) / THREADS, THREADS>>>(a, b, o, n, 0.25f, 1);
// CHECK-NEXT:   blend<<<n / THREADS, THREADS>>>(a, b, o, n, 0.25f, 1);
