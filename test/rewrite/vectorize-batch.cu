// vectorize-float4 on element-wise kernels over batches: the index is the
// thread's own within its batch (blockIdx.y), and each pointer's element is
// the index plus an offset fixed for the thread (`b * n`, a pointer to the
// batch's row, a parameter). A pointer with an offset is read and written
// at the address of the group's first element, tested at run time for
// 16-byte alignment like the pointers themselves. A dim3 grid keeps its
// other dimensions, and the block stays, so rows of the block's threads
// on y are taken too. Batches that no stored element depends on and two
// elements of one pointer per index are refused with their reasons.
// launch-block-size takes the same kernels but those of 2-D blocks, whose
// block it would change, and changes only the x dimension of their grids.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size -o %t.lbs.cu %s -- -std=c++17
// RUN: %no-checks %t.lbs.cu | FileCheck %s --check-prefix=LBS --match-full-lines
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.lbs.cu %}

#include <cstddef>

// A bias added to every row of a batch, the batch on y.
__global__ void addBias(float *out, const float *in, const float *bias, int n) {
  int b = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[b * n + i] = in[b * n + i] + bias[i];
}
// CHECK:      __global__ void addBias(float *out, const float *in, const float *bias, int n) {
// CHECK-NEXT:   int b = blockIdx.y;
// CHECK-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   // Four elements per thread: float4 when every vectorised pointer is
// CHECK-NEXT:   // 16-byte aligned, one by one otherwise and for the tail.
// CHECK-NEXT:   if (i4 < n / 4 &&
// CHECK-NEXT:     ((reinterpret_cast<unsigned long long>(&in[b * n + 4 * i4]) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(bias) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(&out[b * n + 4 * i4])) % 16) == 0) {
// CHECK-NEXT:     const float4 in4 = *reinterpret_cast<const float4 *>(&in[b * n + 4 * i4]);
// CHECK-NEXT:     const float4 bias4 = reinterpret_cast<const float4 *>(bias)[i4];
// CHECK-NEXT:     float4 out4;
// CHECK-NEXT:     {
// CHECK-NEXT:       out4.x = in4.x + bias4.x;
// CHECK-NEXT:     }
// CHECK:          *reinterpret_cast<float4 *>(&out[b * n + 4 * i4]) = out4;
// CHECK-NEXT:   } else if (i4 < (n + 3) / 4) {
// CHECK-NEXT:     for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// CHECK-NEXT:       out[b * n + i] = in[b * n + i] + bias[i];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Row pointers of the batch, the index written second, an early return.
__global__ void scaleRows(const float *x, float *y, int cols, float s) {
  const float *src = x + (size_t)blockIdx.y * cols;
  float *dst = y + (size_t)blockIdx.y * cols;
  int c = threadIdx.x + blockDim.x * blockIdx.x;
  if (c >= cols) return;
  dst[c] = src[c] * s;
}
// CHECK:      __global__ void scaleRows(const float *x, float *y, int cols, float s) {
// CHECK:          ((reinterpret_cast<unsigned long long>(&src[4 * c4]) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(&dst[4 * c4])) % 16) == 0) {
// CHECK-NEXT:     const float4 x4 = *reinterpret_cast<const float4 *>(&src[4 * c4]);
// CHECK-NEXT:     float4 y4;
// CHECK-NEXT:     {
// CHECK-NEXT:       y4.x = x4.x * s;
// CHECK-NEXT:     }
// CHECK:          *reinterpret_cast<float4 *>(&dst[4 * c4]) = y4;

// An offset that is a parameter, on a 1-D launch.
__global__ void place(const float *in, float *out, int offset, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[offset + i] = 2.0f * in[i];
}
// CHECK:      __global__ void place(const float *in, float *out, int offset, int n) {
// CHECK:          *reinterpret_cast<float4 *>(&out[offset + 4 * i4]) = out4;

// The batch is read but no stored element depends on it.
__global__ void lastBatch(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[blockIdx.y * n + i];
}

// Threads of the block on y: vectorize-float4 keeps the block, so each
// thread keeps its row; launch-block-size would change it.
__global__ void tall(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[threadIdx.y * n + i] = 1.0f;
}

// Two elements of one pointer per index.
__global__ void centred(float *out, const float *in, int n) {
  int b = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[b * n + i] = in[b * n + i] - in[i];
}

// WHY-LABEL: kernel lastBatch at
// WHY:         vectorize-float4: not applied: `blockIdx.y` at line [[@LINE-20]] reads another axis of the grid, on which no element stored at line [[@LINE-20]] depends
// WHY-LABEL: kernel tall at
// WHY-NEXT:    vectorize-float4: make each thread {{.*}}
// WHY-LABEL: kernel centred at
// WHY:         vectorize-float4: not applied: `in[b * n + i]` at line [[@LINE-8]] is an element other than the index's

// An element off the index read through a load helper: the group's address
// cannot be taken from a call.
__device__ float at(const float *p, int k) { return p[k]; }
__global__ void viaHelper(float *out, const float *in, int n) {
  int b = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[b * n + i] = at(in, b * n + i);
}
// WHY-LABEL: kernel viaHelper at
// WHY:         vectorize-float4: not applied: `at(in, b * n + i)` at line [[@LINE-3]] reads an element off the index through a function

void run(float *o, float *x, float *bias, int n, int batches) {
  dim3 grid((n + 255) / 256, batches);
  addBias<<<grid, 256>>>(o, x, bias, n);
  scaleRows<<<dim3((n + 127) / 128, batches), 128>>>(x, o, n, 0.5f);
  place<<<(n + 255) / 256, 256>>>(x, o, 7, n);
  lastBatch<<<grid, 256>>>(o, x, n);
  tall<<<dim3((n + 127) / 128), dim3(128, 2)>>>(o, n);
  centred<<<grid, 256>>>(o, x, n);
  viaHelper<<<grid, 256>>>(o, x, n);
}
// CHECK:        addBias<<<dim3(((n + 3) / 4 + 256 - 1) / 256, grid.y, grid.z), 256>>>(o, x, bias, n);
// CHECK-NEXT:   scaleRows<<<dim3(((n + 3) / 4 + 128 - 1) / 128, batches), 128>>>(x, o, n, 0.5f);
// CHECK-NEXT:   place<<<((n + 3) / 4 + 256 - 1) / 256, 256>>>(x, o, 7, n);
// CHECK-NEXT:   lastBatch<<<grid, 256>>>(o, x, n);
// CHECK-NEXT:   tall<<<((n + 3) / 4 + 128 - 1) / 128, dim3(128, 2)>>>(o, n);
// LBS:        addBias<<<dim3((n + 128 - 1) / 128, grid.y, grid.z), 128>>>(o, x, bias, n);
// LBS-NEXT:   scaleRows<<<dim3((n + 256 - 1) / 256, batches), 256>>>(x, o, n, 0.5f);
// LBS-NEXT:   place<<<(n + 128 - 1) / 128, 128>>>(x, o, 7, n);
// LBS-NEXT:   lastBatch<<<grid, 256>>>(o, x, n);
// LBS-NEXT:   tall<<<dim3((n + 127) / 128), dim3(128, 2)>>>(o, n);
// LBS-NEXT:   centred<<<dim3((n + 128 - 1) / 128, grid.y, grid.z), 128>>>(o, x, n);
// LBS-NEXT:   viaHelper<<<dim3((n + 128 - 1) / 128, grid.y, grid.z), 128>>>(o, x, n);
