// autoprof-shared-bank-conflict: a 2-D __shared__ tile of 4-byte elements
// with rows of 32k elements, read column-wise; the fix pads the rows.

// RUN: clang-autoprof check --checks='-*,autoprof-shared-bank-conflict' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cp %s %t.cu
// RUN: clang-autoprof check --checks='-*,autoprof-shared-bank-conflict' --fix %t.cu -- -std=c++17 2>&1 \
// RUN:   | FileCheck %s --check-prefix=APPLIED
// RUN: FileCheck %s --check-prefix=FIX --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof check --checks='-*,autoprof-shared-bank-conflict' %t.cu -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=CLEAN --allow-empty

constexpr int Tile = 32;

__global__ void transpose(const float *__restrict__ in, float *__restrict__ out,
                          int n) {
  __shared__ float tile[Tile][Tile];
  // FIX: __shared__ float tile[Tile][Tile + 1];
  int x = blockIdx.x * Tile + threadIdx.x, y = blockIdx.y * Tile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  // CHECK: shared-bank-conflict.cu:[[@LINE+1]]:20: warning: __shared__ array 'tile' (float[32][32]) is indexed column-wise: the threads of a warp hit one bank; pad its rows to 33 elements [autoprof-shared-bank-conflict]
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void literal(float *__restrict__ out) {
  __shared__ int counts[64][64];
  // FIX: __shared__ int counts[64][65];
  counts[threadIdx.y][threadIdx.x] = 0;
  __syncthreads();
  // CHECK: shared-bank-conflict.cu:[[@LINE+1]]:22: warning: __shared__ array 'counts' (int[64][64]) is indexed column-wise
  out[threadIdx.x] = counts[threadIdx.x][0];
}

// Must not warn: row-wise reads, already padded tiles, 8-byte elements.
__global__ void clean(float *__restrict__ out) {
  __shared__ float rows[32][32];
  __shared__ float padded[32][33];
  __shared__ double wide[32][32];
  rows[threadIdx.y][threadIdx.x] = 1.0f;
  padded[threadIdx.y][threadIdx.x] = 1.0f;
  wide[threadIdx.y][threadIdx.x] = 1.0;
  __syncthreads();
  out[threadIdx.x] = rows[threadIdx.y][threadIdx.x] +
                     padded[threadIdx.x][threadIdx.y] +
                     wide[threadIdx.y][threadIdx.x];
}
// FIX: __shared__ float rows[32][32];
// FIX: __shared__ float padded[32][33];

// APPLIED: clang-autoprof: applied 2 of 2 suggested fixes
// CLEAN-NOT: warning:
