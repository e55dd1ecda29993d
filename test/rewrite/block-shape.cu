// block-shape: a 2-D kernel of one thread per index pair is launched with
// blocks of 32x8, 16x16, 32x4 and 64x4 threads, or with 2 or 4 outputs per
// thread along x, one proposal each, and a grid that covers its bounds with
// them; a shape the launch already has is not proposed, and kernels that
// use the thread hierarchy otherwise are left alone. A launch whose grid
// does not provably cover a bound keeps exactly its threads, in the new
// blocks where they divide (test/rewrite/block-shape-same-threads.cu).

// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --diff %s -- -std=c++17 | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// -o writes the first shape of each kernel; the others are alternatives.
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape -o %t.cu %s -- -std=c++17 2> %t.err
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --check-prefix=FIRST --match-full-lines
// RUN: count 0 < %t.err
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}
// The coarsened kernels compile.
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --diff %s -- -std=c++17 > %t.diff
// RUN: awk '/^# block-shape\(2-per-thread\) on kernel blur_rows/ { p = 1; next } /^# / { p = 0 } p' %t.diff > %t.c2.diff
// RUN: awk '/^# block-shape\(4-per-thread\) on kernel scale_cols/ { p = 1; next } /^# / { p = 0 } p' %t.diff > %t.c4.diff
// RUN: cp %s %t.c2.cu && patch -s %t.c2.cu < %t.c2.diff
// RUN: cp %s %t.c4.cu && patch -s %t.c4.cu < %t.c4.diff
// RUN: grep -q "blockIdx.x \* 2 + c" %t.c2.cu
// RUN: grep -q "c_ < 4" %t.c4.cu
// RUN: clang-autoprof features %t.c2.cu -- -std=c++17 > /dev/null
// RUN: clang-autoprof features %t.c4.cu -- -std=c++17 > /dev/null
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.c2.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.c4.cu %}

#define TILE_W 16

// Early returns on each index, in separate statements; the column from a
// local written lane first; a lower bound of a stencil.
__global__ void blur_rows(const float *src, float *dst, int width,
                          int height) {
  int col = threadIdx.x + blockDim.x * blockIdx.x;
  int row = blockDim.y * blockIdx.y + threadIdx.y;
  if (col >= width - 1)
    return;
  if (row >= height)
    return;
  if (col < 1)
    return;
  const float *line = src + row * width;
  dst[row * width + col] = (line[col - 1] + line[col] + line[col + 1]) / 3;
}

// The indices inline, an enclosing conjunction, y tested first; the
// input's column is a sum of the row's offset and the block's parts.
__global__ void flip(const unsigned char *in, unsigned char *out, int nx,
                     int ny) {
  if (blockIdx.y * blockDim.y + threadIdx.y < ny &&
      blockIdx.x * blockDim.x + threadIdx.x < nx)
    out[(blockIdx.y * blockDim.y + threadIdx.y) * nx + nx - 1 -
        (blockIdx.x * blockDim.x + threadIdx.x)] =
        in[(blockIdx.y * blockDim.y + threadIdx.y) * nx +
           blockIdx.x * blockDim.x + threadIdx.x];
}

// The column from a helper, and a local named like the coarsening's
// counter.
__device__ inline int column_of_thread() {
  return blockIdx.x * blockDim.x + threadIdx.x;
}
__global__ void scale_cols(float *m, const float *f, int cols, int rows) {
  int c = column_of_thread();
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < cols && r < rows)
    m[r * cols + c] *= f[c];
}

// Refused: the block's first thread does more.
__global__ void tally(int *count, float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    img[y * w + x] = 0;
    if (threadIdx.x == 0)
      img[y * w + x] = 1;
  }
}

// Refused: one dimension only.
__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 0;
}

// A fixed grid that may not cover the bounds: the same threads, reshaped.
__global__ void clear(float *img, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    img[y * w + x] = 0;
}

void run(const float *s, float *d, const unsigned char *i, unsigned char *o,
         int *c, int w, int h) {
  dim3 threads(TILE_W, TILE_W);
  dim3 blocks((w + TILE_W - 1) / TILE_W, (h + TILE_W - 1) / TILE_W);
  blur_rows<<<blocks, threads>>>(s, d, w, h);
  flip<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(i, o, w, h);
  scale_cols<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(d, s, w, h);
  tally<<<blocks, threads>>>(c, d, w, h);
  fill<<<(w + 127) / 128, 128>>>(d, w);
  clear<<<dim3(64, 64), threads>>>(d, w, h);
}

// CHECK:      # block-shape(32x8) on kernel blur_rows
// CHECK:      -  blur_rows<<<blocks, threads>>>(s, d, w, h);
// CHECK-NEXT: +  blur_rows<<<dim3((w - 1 + 32 - 1) / 32, (h + 8 - 1) / 8), dim3(32, 8)>>>(s, d, w, h);
// CHECK:      # block-shape(32x4) on kernel blur_rows
// CHECK:      # block-shape(64x4) on kernel blur_rows
// Coarsening: each thread runs the body for 2 blocks of x, in a lambda that
// copies the parameters afresh and whose `return` ends one block's work;
// the launch keeps its block and halves its grid in x.
// CHECK:      # block-shape(2-per-thread) on kernel blur_rows
// CHECK:      +  for (int c = 0; c < 2; ++c)
// CHECK-NEXT: +    [=]() mutable {
// CHECK-NEXT: +  int col = threadIdx.x + blockDim.x * (blockIdx.x * 2 + c);
// CHECK:      +    }();
// CHECK-NEXT:  }
// CHECK:      -  blur_rows<<<blocks, threads>>>(s, d, w, h);
// CHECK-NEXT: +  blur_rows<<<dim3((w - 1 + 32 - 1) / 32, (h + 16 - 1) / 16), threads>>>(s, d, w, h);
// CHECK:      # block-shape(4-per-thread) on kernel blur_rows
// CHECK:      +  blur_rows<<<dim3((w - 1 + 64 - 1) / 64, (h + 16 - 1) / 16), threads>>>(s, d, w, h);
// CHECK:      # block-shape(16x16) on kernel flip
// CHECK:      +  flip<<<dim3((w + 16 - 1) / 16, (h + 16 - 1) / 16), dim3(16, 16)>>>(i, o, w, h);
// CHECK:      # block-shape(32x4) on kernel flip
// CHECK:      # block-shape(64x4) on kernel flip
// Every read of blockIdx.x moves to the lambda's block.
// CHECK:      # block-shape(2-per-thread) on kernel flip
// CHECK:      +      (blockIdx.x * 2 + c) * blockDim.x + threadIdx.x < nx)
// CHECK:      +        ((blockIdx.x * 2 + c) * blockDim.x + threadIdx.x)] =
// CHECK:      +           (blockIdx.x * 2 + c) * blockDim.x + threadIdx.x];
// CHECK:      +  flip<<<dim3((w + 64 - 1) / 64, (h + 8 - 1) / 8), dim3(32, 8)>>>(i, o, w, h);
// CHECK:      # block-shape(4-per-thread) on kernel flip
// CHECK:      # block-shape(16x16) on kernel scale_cols
// A helper's global index is moved by whole blocks; the counter gets a
// name of its own.
// CHECK:      # block-shape(4-per-thread) on kernel scale_cols
// CHECK:      +  for (int c_ = 0; c_ < 4; ++c_)
// CHECK:      +  int c = (column_of_thread() + (blockIdx.x * (4 - 1) + c_) * blockDim.x);
// CHECK:      +  scale_cols<<<dim3((w + 128 - 1) / 128, (h + 8 - 1) / 8), dim3(32, 8)>>>(d, s, w, h);
// CHECK:      # block-shape(32x8) on kernel clear
// CHECK:      +    const dim3 autoprof_grid_(dim3(64, 64));
// CHECK:      +      clear<<<autoprof_grid_, threads>>>(d, w, h);
// CHECK:      # block-shape(64x4) on kernel clear
// CHECK-NOT:  {{^# .*}}

// LIST:      kernel blur_rows at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST-NEXT:     trigger: needs derived__global_excess_sectors_pct, sm__warps_active.avg.pct_of_peak_sustained_active
// LIST-NEXT:   block-shape(32x4): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   block-shape(64x4): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   block-shape(2-per-thread): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   block-shape(4-per-thread): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel flip at {{.*}}
// LIST-NEXT:   block-shape(16x16): {{.*}}
// LIST:      kernel scale_cols at {{.*}}
// LIST-NEXT:   block-shape(16x16): {{.*}}
// LIST:      kernel tally at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   block-shape: not applied: `threadIdx.x` at line [[@LINE-91]] is read other than in the global indices x and y
// LIST-NEXT: kernel fill at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   block-shape: not applied: its guard does not bound the global index blockIdx.y * blockDim.y + threadIdx.y
// LIST-NEXT: kernel clear at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}

// FIRST: blur_rows<<<dim3((w - 1 + 32 - 1) / 32, (h + 8 - 1) / 8), dim3(32, 8)>>>(s, d, w, h);
// FIRST: flip<<<dim3((w + 16 - 1) / 16, (h + 16 - 1) / 16), dim3(16, 16)>>>(i, o, w, h);
