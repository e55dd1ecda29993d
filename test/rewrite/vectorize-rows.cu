// vectorize-float4 on 2-D element-wise kernels: the element is the x
// index plus a value fixed for the thread that reads the threads of the
// block in y (`img[y * w + x]`, a row pointer `src + row * pitch`). The
// block stays as it is, so those stay the thread's own; the guard's bound
// of the row (`y < h`) becomes an exit before the group of four, and the
// grid's x is divided by four, its y kept. An element whose x index is not
// the element's last term (a column-major image) is refused.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -c -o /dev/null %t.cu %}

#define TILE_W 16
#define TILE_H 16

__global__ void halve(const float *__restrict__ src, float *__restrict__ dst,
                      int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    dst[y * w + x] = src[y * w + x] * 0.5f;
  }
}
// CHECK:      __global__ void halve(const float *__restrict__ src, float *__restrict__ dst,
// CHECK-NEXT:                       int w, int h) {
// CHECK-NEXT:   int x = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int y = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   if (!(y < h)) return;
// CHECK-NEXT:   int x4 = x;
// CHECK:        if (x4 < w / 4 &&
// CHECK-NEXT:     ((reinterpret_cast<unsigned long long>(&src[y * w + 4 * x4]) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(&dst[y * w + 4 * x4])) % 16) == 0) {
// CHECK-NEXT:     const float4 src4 = *reinterpret_cast<const float4 *>(&src[y * w + 4 * x4]);
// CHECK:          *reinterpret_cast<float4 *>(&dst[y * w + 4 * x4]) = dst4;
// CHECK-NEXT:   } else if (x4 < (w + 3) / 4) {
// CHECK-NEXT:     for (int x = 4 * x4; x < w && x < 4 * x4 + 4; ++x) {
// CHECK-NEXT:       dst[y * w + x] = src[y * w + x] * 0.5f;

// Rows of a pitched image through row pointers declared after an early
// return: the lanes do not declare them.
__global__ void rectifyPitched(const float *__restrict__ src,
                               float *__restrict__ dst, int w, int h,
                               int pitch) {
  const int col = threadIdx.x + blockIdx.x * blockDim.x;
  const int row = threadIdx.y + blockIdx.y * blockDim.y;
  if (row >= h || col >= w)
    return;
  const float *s = src + row * pitch;
  float *d = dst + row * pitch;
  d[col] = s[col] > 0.f ? s[col] : 0.f;
}
// CHECK:      __global__ void rectifyPitched(const float *__restrict__ src,
// CHECK:        if (row >= h) return;
// CHECK-NEXT:   int col4 = col;
// CHECK:          const float4 src4 = *reinterpret_cast<const float4 *>(&(src + row * pitch)[4 * col4]);
// CHECK-NEXT:     float4 dst4;
// CHECK-NEXT:     {
// CHECK-NEXT:       dst4.x = src4.x > 0.f ? src4.x : 0.f;
// CHECK-NEXT:     }

// Column-major: consecutive x are h elements apart.
__global__ void copyColumns(const float *__restrict__ src,
                            float *__restrict__ dst, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    dst[x * h + y] = src[x * h + y];
}
// WHY-LABEL: kernel copyColumns at
// WHY:         vectorize-float4: not applied: `dst[x * h + y]` at line [[@LINE-3]] is an element other than the index's

void run(const float *a, float *b, int w, int h) {
  dim3 block(TILE_W, TILE_H);
  dim3 grid((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
  halve<<<grid, block>>>(a, b, w, h);
  rectifyPitched<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(a, b, w, h,
                                                                   w + 4);
  copyColumns<<<grid, block>>>(a, b, w, h);
}
// CHECK:      void run(const float *a, float *b, int w, int h) {
// CHECK-NEXT:   dim3 block(TILE_W, TILE_H);
// CHECK-NEXT:   dim3 grid((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
// CHECK-NEXT:   halve<<<dim3(((w + 3) / 4 + 16 - 1) / 16, grid.y, grid.z), block>>>(a, b, w, h);
// CHECK-NEXT:   rectifyPitched<<<dim3(((w + 3) / 4 + 32 - 1) / 32, (h + 7) / 8), dim3(32, 8)>>>(a, b, w, h,
// CHECK-NEXT:                                                                    w + 4);
// CHECK-NEXT:   copyColumns<<<grid, block>>>(a, b, w, h);
// CHECK-NEXT: }
