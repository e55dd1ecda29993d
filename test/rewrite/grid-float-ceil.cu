// Grids computed in floating point on constant sizes, as PolyBench's GPU
// codes write them (`(size_t)ceil(((float)N) / ((float)block.x))`): the
// grid's value is computed as the host computes it, each operation rounded
// in its own type, so a grid that covers the bound is read as covering and
// one that float rounding leaves a block short is not (2^24 + 1 rounds to
// 2^24 in float: 65536 blocks of 256 miss the last element). That launch
// gets other blocks only with the same threads, not a grid written from
// the bound.
//
// RUN: clang-autoprof optimize --dry-run --explain --transformations=launch-block-size,block-shape %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --kernel=addMat -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=NEW
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size --kernel=scaleOdd --diff %s -- -std=c++17 | FileCheck %s --check-prefix=ODD

#include <math.h>

#define N_SMALL (1 << 20)
#define N_ODD 16777217
#define NI 2048
#define NJ 1024

__global__ void scaleSmall(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N_SMALL)
    x[i] *= 2.0f;
}

__global__ void scaleOdd(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N_ODD)
    x[i] *= 2.0f;
}

__global__ void scaleOddDouble(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N_ODD)
    x[i] *= 3.0f;
}

__global__ void addMat(const float *a, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NI) && (j < NJ))
    c[i * NJ + j] += a[i * NJ + j];
}

void run(float *a, float *b, float *c) {
  dim3 block(256);
  dim3 grid((size_t)(ceil(((float)N_SMALL) / ((float)block.x))));
  scaleSmall<<<grid, block>>>(a);
  dim3 grid2((size_t)(ceil(((float)N_ODD) / ((float)block.x))));
  scaleOdd<<<grid2, block>>>(b);
  scaleOddDouble<<<(unsigned)ceil(((double)N_ODD) / 256.0), 256>>>(b);
  dim3 block2(32, 8);
  dim3 grid3((size_t)(ceil(((float)NJ) / ((float)block2.x))),
             (size_t)(ceil(((float)NI) / ((float)block2.y))));
  addMat<<<grid3, block2>>>(a, c);
}

// LIST:      kernel scaleSmall at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST:      kernel scaleOdd at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST:      kernel scaleOddDouble at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST:      kernel addMat at {{.*}}
// LIST-NEXT:   block-shape(16x16): {{.*}}

// ODD:     # launch-block-size(128) on kernel scaleOdd
// ODD-NOT: N_ODD + 128
// ODD:     if (autoprof_x_ % 128 == 0 && autoprof_y_ % 1 == 0 && autoprof_y_ / 1 <= 65535)
// ODD:     # launch-block-size(512) on kernel scaleOdd

// NEW: addMat<<<dim3((NJ + 16 - 1) / 16, (NI + 16 - 1) / 16), dim3(16, 16)>>>(a, c);
