// Launch shapes set field by field: `dim3 threads; threads.x = 16;` is a
// block as constant as `dim3 threads(16, 16)` when the assignments follow
// the declaration in its block, before anything reads it. block-shape and
// launch-block-size read it so; a field set under a condition is not a
// constant of the launch.

// RUN: clang-autoprof optimize --dry-run --transformations=block-shape,launch-block-size --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape,launch-block-size --diff %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=DIFF
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape,launch-block-size -o %t.cu %s -- -std=c++17
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void scaleImage(float *img, unsigned w, unsigned h, float k) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] *= k;
}

void runScale(float *img, unsigned w, unsigned h) {
  dim3 threads;
  threads.x = 16;
  threads.y = 16;
  dim3 blocks;
  blocks.x = (w + threads.x - 1) / threads.x;
  blocks.y = (h + threads.y - 1) / threads.y;
  scaleImage<<<blocks, threads>>>(img, w, h, 2.0f);
}
// LIST: kernel scaleImage at {{.*}}dim3-fields.cu:{{[0-9]+}}:17
// LIST-NEXT:   block-shape(32x8): {{.*}}
// DIFF: # block-shape(32x8) on kernel scaleImage
// DIFF: +  scaleImage<<<dim3((w + 32 - 1) / 32, (h + 8 - 1) / 8), dim3(32, 8)>>>(img, w, h, 2.0f);

__global__ void offsetImage(float *img, unsigned w, unsigned h, float k) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] += k;
}

void runOffset(float *img, unsigned w, unsigned h, bool wide) {
  dim3 threads(16, 16);
  if (wide)
    threads.x = 32;
  dim3 blocks((w + threads.x - 1) / threads.x, (h + 15) / 16);
  offsetImage<<<blocks, threads>>>(img, w, h, 1.0f);
}
// LIST: kernel offsetImage at {{.*}}dim3-fields.cu:{{[0-9]+}}:17
// LIST-NEXT:   no proposal
// LIST-NEXT:   block-shape: not applied: the launch at line [[@LINE-4]] has a block whose size is not a compile-time constant

__global__ void axpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

void runAxpy(int n, float a, const float *x, float *y) {
  dim3 block;
  block.x = 128;
  dim3 grid;
  grid.x = (n + block.x - 1) / block.x;
  axpy<<<grid, block>>>(n, a, x, y);
}
// LIST: kernel axpy at {{.*}}dim3-fields.cu:{{[0-9]+}}:17
// LIST-NEXT:   launch-block-size(256): {{.*}}
// DIFF: # launch-block-size(256) on kernel axpy
// DIFF: +  axpy<<<(n + 256 - 1) / 256, 256>>>(n, a, x, y);

__global__ void shift(int n, float a, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a;
}

// The block is read before its x is set: the read sees 64, the launch 128.
void runShift(int n, float a, float *y) {
  dim3 block(64);
  unsigned first = block.x;
  block.x = 128;
  shift<<<(n + first - 1) / first, block>>>(n, a, y);
}
// LIST: kernel shift at {{.*}}dim3-fields.cu:{{[0-9]+}}:17
// LIST-NEXT:   no proposal
// LIST: launch-block-size: not applied: the launch at line [[@LINE-4]] has a block whose size is not a compile-time constant
