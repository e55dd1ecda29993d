// pad-shared-arrays: the inner bound of 2-D __shared__ tiles of 4-byte
// elements, a multiple of 32, grows by one; 1-D, 8-byte, already padded and
// flat-accessed tiles are left alone.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=pad-shared-arrays -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=pad-shared-arrays --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=pad-shared-arrays --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=pad-shared-arrays %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

#define TILE 32

__global__ void transpose(const float *in, float *out) {
  __shared__ float tile[32][32];
  __shared__ int idx[TILE][TILE];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  idx[threadIdx.y][threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] =
      tile[threadIdx.x][threadIdx.y] + idx[threadIdx.x][threadIdx.y];
}
// CHECK:        __shared__ float tile[32][33];
// CHECK-NEXT:   __shared__ int idx[TILE][TILE + 1];

// A 1-D tile and a tile read through a flat pointer keep their shape.
__global__ void flat(const float *in, float *out) {
  __shared__ float row[1024];
  __shared__ float tile[32][32];
  row[threadIdx.x] = in[threadIdx.x];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const float *p = &tile[0][0];
  out[threadIdx.x] = row[threadIdx.x * 32 % 1024] + p[threadIdx.x * 32] +
                     tile[threadIdx.x][threadIdx.y];
}
// CHECK:        __shared__ float row[1024];
// CHECK-NEXT:   __shared__ float tile[32][32];

// DIFF:      # pad-shared-arrays on kernel transpose
// DIFF-NEXT: --- {{/.*}}pad-shared-arrays.cu
// DIFF-NEXT: +++ {{/.*}}pad-shared-arrays.cu
// DIFF-NEXT: @@ -{{[0-9]+}},8 +{{[0-9]+}},8 @@
// DIFF:      -  __shared__ float tile[32][32];
// DIFF-NEXT: -  __shared__ int idx[TILE][TILE];
// DIFF-NEXT: +  __shared__ float tile[32][33];
// DIFF-NEXT: +  __shared__ int idx[TILE][TILE + 1];
// DIFF-NOT:  on kernel

// YAML:      ReplacementText: '33'
// YAML:      ReplacementText: 'TILE + 1'
// YAML-NOT:  ReplacementText

// LIST:      kernel transpose at {{.*}}
// LIST-NEXT:   pad-shared-arrays: pad the inner dimension of 2-D __shared__ tiles T a[N][32k] to 32k + 1
// LIST-NEXT:     trigger: needs l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum, l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum, derived__shared_bank_conflict_pct
// LIST-NEXT: kernel flat at {{.*}}
// LIST-NEXT:   no proposal
