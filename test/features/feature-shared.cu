// Shared memory: arrays, static bytes, extern (dynamic) arrays, and the
// bank-conflict risk of two-dimensional tiles.

// RUN: clang-autoprof features %s --kernel='^shared_decls$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=DECLS
// RUN: clang-autoprof features %s --kernel='^dynamic_only$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=DYN
// RUN: clang-autoprof features %s --kernel='^shared_scalar$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=SCALAR
// RUN: clang-autoprof features %s --kernel='^transpose_conflict$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=CONFLICT
// RUN: clang-autoprof features %s --kernel='^transpose_padded$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=PADDED
// RUN: clang-autoprof features %s --kernel='^no_conflict_rows$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOROWS

// tile (16*17*4) + acc (8*8) + counter (4) static bytes; dyn is extern;
// regs is the only local array.
__global__ void shared_decls(float *out) {
  __shared__ float tile[16][17];
  __shared__ double acc[8];
  __shared__ int counter;
  extern __shared__ float dyn[];
  float regs[4];
  regs[threadIdx.x % 4] = out[threadIdx.x];
  tile[threadIdx.y][threadIdx.x] = regs[0];
  dyn[threadIdx.x] = tile[0][threadIdx.x] + acc[0] + counter;
  out[threadIdx.x] = dyn[threadIdx.x];
}
// DECLS-LABEL: kernel shared_decls at {{.*}}
// DECLS:      global_loads: 1
// DECLS-NEXT: global_stores: 1
// DECLS-NEXT: global_loads_in_loops: 0
// DECLS-NEXT: global_stores_in_loops: 0
// DECLS-NEXT: shared_arrays: 3
// DECLS-NEXT: shared_bytes_static: 1156
// DECLS-NEXT: uses_dynamic_shared: 1
// DECLS-NEXT: local_arrays: 1
// DECLS:      shared_bank_conflict_risk: 0

// Only an extern __shared__ array: an array, but no static bytes.
__global__ void dynamic_only(float *out) {
  extern __shared__ float dyn[];
  dyn[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
// DYN-LABEL: kernel dynamic_only at {{.*}}
// DYN:      shared_arrays: 1
// DYN-NEXT: shared_bytes_static: 0
// DYN-NEXT: uses_dynamic_shared: 1
// DYN-NEXT: local_arrays: 0
// DYN:      shared_bank_conflict_risk: 0

// A __shared__ scalar is no array but has static bytes; a static const
// table is not a per-thread local array.
__global__ void shared_scalar(int *out) {
  __shared__ int flag;
  static const int lut[4] = {1, 2, 4, 8};
  if (threadIdx.x == 0)
    flag = lut[blockIdx.x % 4];
  __syncthreads();
  out[threadIdx.x] = flag;
}
// SCALAR-LABEL: kernel shared_scalar at {{.*}}
// SCALAR:      shared_arrays: 0
// SCALAR-NEXT: shared_bytes_static: 4
// SCALAR-NEXT: uses_dynamic_shared: 0
// SCALAR-NEXT: local_arrays: 0
// SCALAR:      shared_bank_conflict_risk: 0

// float[32][32] and double[16][16] rows are 128 bytes and are indexed with
// threadIdx.x in the row position: two arrays at risk (tile counts once).
__global__ void transpose_conflict(const float *in, float *out, double *d) {
  __shared__ float tile[32][32];
  __shared__ double dtile[16][16];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  dtile[threadIdx.x % 16][threadIdx.y] = d[threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  out[threadIdx.x] += tile[threadIdx.x][0];
  d[threadIdx.x] = dtile[threadIdx.y][threadIdx.x % 16];
}
// CONFLICT-LABEL: kernel transpose_conflict at {{.*}}
// CONFLICT:      shared_arrays: 2
// CONFLICT-NEXT: shared_bytes_static: 6144
// CONFLICT:      shared_bank_conflict_risk: 2

// The padded tile: rows of 33 floats (132 bytes) are not a multiple of 128.
__global__ void transpose_padded(const float *in, float *out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
// PADDED-LABEL: kernel transpose_padded at {{.*}}
// PADDED:      shared_arrays: 1
// PADDED-NEXT: shared_bytes_static: 4224
// PADDED:      shared_bank_conflict_risk: 0

// 128-byte rows, but the row index does not vary with threadIdx.x (y, a
// warp index, a constant), and a one-dimensional array has no rows.
__global__ void no_conflict_rows(float *out) {
  __shared__ float tile[32][32];
  __shared__ float flat[1024];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  tile[threadIdx.x / 32][threadIdx.x % 32] = 2.0f;
  flat[threadIdx.x * 32] = tile[0][threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = flat[threadIdx.x];
}
// NOROWS-LABEL: kernel no_conflict_rows at {{.*}}
// NOROWS:      shared_arrays: 2
// NOROWS-NEXT: shared_bytes_static: 8192
// NOROWS:      shared_bank_conflict_risk: 0
