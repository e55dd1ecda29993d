// warp-per-row on a row's sum accumulated in its output element, where the
// loop is the body of an `if` without braces, or follows a `#pragma
// unroll`: the lanes' register is declared before the loop (and before its
// pragma), in braces with it when the loop is not a statement of a block.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void gemv_into(const float *__restrict__ a,
                          const float *__restrict__ x, float *__restrict__ y,
                          int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    for (int c = 0; c < cols; c++)
      y[row] += a[row * cols + c] * x[c];
}
// CHECK-LABEL: __global__ void gemv_into(
// CHECK:         if (row < rows)
// CHECK-NEXT:      {
// CHECK-NEXT:      float RowAcc = 0;
// CHECK-NEXT:      for (int c = Lane; c < cols; c += 32)
// CHECK-NEXT:        RowAcc += a[row * cols + c] * x[c];
// CHECK:           if (Lane == 0)
// CHECK-NEXT:        y[row] += RowAcc;
// CHECK-NEXT:      }
// CHECK-NEXT:  }

__global__ void unrolled_into(const float *__restrict__ a,
                              float *__restrict__ y, int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
#pragma unroll 4
  for (int c = 0; c < cols; c++)
    y[row] += a[row * cols + c];
}
// CHECK-LABEL: __global__ void unrolled_into(
// CHECK:         float RowAcc = 0;
// CHECK-NEXT:  #pragma unroll 4
// CHECK-NEXT:    for (int c = Lane; c < cols; c += 32)
// CHECK-NEXT:      RowAcc += a[row * cols + c];
// CHECK:         if (Lane == 0)
// CHECK-NEXT:      y[row] += RowAcc;

void run(const float *a, const float *x, float *y, int n) {
  gemv_into<<<(n + 127) / 128, 128>>>(a, x, y, n, n);
  unrolled_into<<<(n + 127) / 128, 128>>>(a, y, n, n);
}
