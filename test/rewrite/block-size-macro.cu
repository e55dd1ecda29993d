// An index written with the block's size as a macro, `bx * BLOCK_SIZE +
// tx`, is the global index when every launch has blocks of BLOCK_SIZE.
// split-serial-loop and warp-per-row replace it with their own index, so
// the new block size leaves no value of the old one behind; launch-block-size
// keeps it, and so refuses.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop,warp-per-row,launch-block-size %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#define BLOCK_SIZE 128

// Column sums, Rodinia-style names for the block and the thread.
__global__ void col_sums(const float *a, float *out, int rows, int cols)
{
  int bx = blockIdx.x;
  int tx = threadIdx.x;
  int c = bx * BLOCK_SIZE + tx;
  if (c < cols)
  {
    float s = 0;
    for (int r = 0; r < rows; r++)
      s += a[r * cols + c];
    out[c] = s;
  }
}
// CHECK:      __global__ void col_sums(const float *a, float *out, int rows, int cols)
// CHECK-NEXT: {
// CHECK-NEXT:   int bx = blockIdx.x;
// CHECK-NEXT:   int tx = threadIdx.x;
// CHECK-NEXT:   int c = (blockIdx.x * 32 + threadIdx.x % 32);
// CHECK:            for (int r = Slice; r < rows; r += 32)
// CHECK-NEXT:         s += a[r * cols + c];

int main()
{
  col_sums<<<(128 + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(0, 0, 65536, 128);
  return 0;
}
// CHECK:        col_sums<<<((128 + BLOCK_SIZE - 1) / BLOCK_SIZE) * 4, 1024>>>(0, 0, 65536, 128);

// WHY:      kernel col_sums at {{.*}}
// WHY-NEXT:   split-serial-loop: {{.*}}
// WHY:        warp-per-row: {{.*}}
// WHY-NOT:    launch-block-size(
// WHY:        launch-block-size: not applied: `bx * BLOCK_SIZE + tx` at line 19 takes the block's size as the constant of its launches
