// tile-transpose-smem: the naive transpose is staged through a padded
// __shared__ tile when every launch uses the same block dim3(BX, BY) of
// whole warps, BX and BY powers of two and BX at least 8 (32 x 32, 16 x 16
// here); not with another block, nor for another body.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=tile-transpose-smem -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=tile-transpose-smem --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=tile-transpose-smem --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=tile-transpose-smem %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

__global__ void transpose(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows)
    return;
  out[x * rows + y] = in[y * cols + x];
}
// CHECK:      __global__ void transpose(const float *in, float *out, int rows, int cols) {
// CHECK-NEXT:   int x = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int y = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   // The block's 32 x 32 tile of the input, padded to 33 columns so that
// CHECK-NEXT:   // the transposed reads hit distinct banks.
// CHECK-NEXT:   __shared__ float Tile[32][33];
// CHECK-NEXT:   if (!(x >= cols || y >= rows))
// CHECK-NEXT:     Tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   // Thread Lin writes row Lin / 32 and column Lin % 32 of the block's
// CHECK-NEXT:   // 32 x 32 tile of the output.
// CHECK-NEXT:   {
// CHECK-NEXT:     int Lin = threadIdx.y * 32 + threadIdx.x;
// CHECK-NEXT:     int x = blockIdx.x * 32 + Lin / 32;
// CHECK-NEXT:     int y = blockIdx.y * 32 + Lin % 32;
// CHECK-NEXT:     if (!(x >= cols || y >= rows))
// CHECK-NEXT:       out[x * rows + y] = Tile[Lin % 32][Lin / 32];
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Launched with blocks of 16 x 16: a 16 x 16 tile, each row padded by two
// so that the 32 reads of a warp (two columns of 16 rows) meet no bank
// twice.
__global__ void narrow(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows)
    return;
  out[x * rows + y] = in[y * cols + x];
}
// CHECK:      __global__ void narrow(const float *in, float *out, int rows, int cols) {
// CHECK-NEXT:   int x = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int y = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   // The block's 16 x 16 tile of the input, padded to 18 columns so that
// CHECK-NEXT:   // the transposed reads hit distinct banks.
// CHECK-NEXT:   __shared__ float Tile[16][18];
// CHECK-NEXT:   if (!(x >= cols || y >= rows))
// CHECK-NEXT:     Tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   // Thread Lin writes row Lin / 16 and column Lin % 16 of the block's
// CHECK-NEXT:   // 16 x 16 tile of the output.
// CHECK-NEXT:   {
// CHECK-NEXT:     int Lin = threadIdx.y * 16 + threadIdx.x;
// CHECK-NEXT:     int x = blockIdx.x * 16 + Lin / 16;
// CHECK-NEXT:     int y = blockIdx.y * 16 + Lin % 16;
// CHECK-NEXT:     if (!(x >= cols || y >= rows))
// CHECK-NEXT:       out[x * rows + y] = Tile[Lin % 16][Lin / 16];
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Launched with blocks 24 wide: no power of two.
__global__ void odd(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows)
    return;
  out[x * rows + y] = in[y * cols + x];
}
// CHECK:      __global__ void odd(const float *in, float *out, int rows, int cols) {
// CHECK:        out[x * rows + y] = in[y * cols + x];

// A copy, not a transpose.
__global__ void copy(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows)
    return;
  out[y * cols + x] = in[y * cols + x];
}
// CHECK:      __global__ void copy(const float *in, float *out, int rows, int cols) {
// CHECK:        out[y * cols + x] = in[y * cols + x];

void run(const float *in, float *out, int rows, int cols) {
  dim3 block(32, 32);
  transpose<<<dim3((cols + 31) / 32, (rows + 31) / 32), block>>>(in, out, rows, cols);
  narrow<<<dim3((cols + 15) / 16, (rows + 15) / 16), dim3(16, 16)>>>(in, out, rows, cols);
  odd<<<dim3((cols + 23) / 24, (rows + 3) / 4), dim3(24, 4)>>>(in, out, rows, cols);
  copy<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols);
}

// DIFF:      # tile-transpose-smem on kernel transpose
// DIFF:      -  out[x * rows + y] = in[y * cols + x];
// DIFF:      +  __shared__ float Tile[32][33];
// DIFF:      # tile-transpose-smem on kernel narrow
// DIFF:      +  __shared__ float Tile[16][18];
// DIFF-NOT:  on kernel

// YAML-COUNT-2: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel transpose at {{.*}}
// LIST-NEXT:   tile-transpose-smem: stage the naive transpose out[x * rows + y] = in[y * cols + x] through a padded __shared__ tile
// LIST-NEXT:     trigger: needs l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio, l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio, derived__global_excess_sectors_pct, smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
// LIST-NEXT: kernel narrow at {{.*}}
// LIST-NEXT:   tile-transpose-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel odd at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel copy at {{.*}}
// LIST-NEXT:   no proposal
