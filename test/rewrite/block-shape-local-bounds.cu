// Bounds held in locals with constant values (`int width = 4096`): the
// grid's arithmetic is computed in its own type, so a grid that covers them
// is read as covering, and one whose arithmetic overflows is not: that
// launch only keeps its threads in the new blocks.
//
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --kernel=scale2d -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=NEW
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void scale2d(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = 2.0f * in[y * width + x];
}

__global__ void shift2d(const float *in, float *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = in[y * width + x] + 1.0f;
}

void runScale(const float *in, float *out, int reps) {
  const int width = 4096, height = 2048;
  dim3 block(8, 32);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  for (int it = 0; it < reps; ++it)
    scale2d<<<grid, block>>>(in, out, width, height);
}

void runShift(const float *in, float *out) {
  int width = 2147483647, height = 16;
  dim3 grid((width + 7) / 8, (height + 31) / 32);
  shift2d<<<grid, dim3(8, 32)>>>(in, out, width, height);
}

// LIST:      kernel scale2d at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST:      kernel shift2d at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --kernel=shift2d -o %t.shift.cu %s -- -std=c++17
// RUN: %no-checks %t.shift.cu | FileCheck %s --check-prefix=SHIFT
// SHIFT-NOT: width + 32
// SHIFT: const dim3 autoprof_grid_(grid);

// NEW: scale2d<<<dim3((width + 32 - 1) / 32, (height + 8 - 1) / 8), dim3(32, 8)>>>(in, out, width, height);
