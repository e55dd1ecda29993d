// Reads through small device helpers (`__device__ float at(const float *p,
// int i) { return p[i]; }`, `__ldg` inside, several index arguments) are
// the reads they return: the kernel's threads still work alone, and each
// call is an access of the pointer argument at the index the helper
// computes from the call's arguments. A helper that writes, or whose index
// reads memory, is not read through.

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.warp.cu %s -- -std=c++17
// RUN: %no-checks %t.warp.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.tile.cu %s -- -std=c++17
// RUN: %no-checks %t.tile.cu | FileCheck %s --check-prefix=TILE
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.warp.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.tile.cu %}

__device__ __forceinline__ float at(const float *p, int i) { return p[i]; }

static __device__ float elem(const float *__restrict__ m, int r, int c,
                             int ld) {
  return __ldg(&m[r * ld + c]);
}

// Row sums through `at`.
__global__ void row_sums(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += at(a, r * cols + c);
  out[r] = s;
}
// WHY-LABEL: kernel row_sums at {{.*}}
// WHY:         warp-per-row: give each row
// WHY:         split-serial-loop: give each output
// WARP-LABEL: __global__ void row_sums(
// WARP:         for (int c = Lane; c < cols; c += 32)
// WARP-NEXT:      s += at(a, r * cols + c);

// C = A B through `elem(m, row, col, ld)`.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += elem(A, row, k, n) * elem(B, k, col, n);
    C[row * n + col] = acc;
  }
}
// WHY-LABEL: kernel matmul at {{.*}}
// WHY:         tile-matmul-smem: stage the naive product
// TILE-LABEL: __global__ void matmul(
// TILE:         __shared__ float As[16][16];
// TILE:         As[threadIdx.y][threadIdx.x] =
// TILE-NEXT:      ARow < n && AK < n ? A[ARow * n + AK] : 0.0f;

// A sum accumulated in its output, reading another array through `at`
// that may overlap it: the run-time test of overlap cannot watch a read
// through a helper. Reading the output itself through it is no
// reduction.
__global__ void smooth(float *y, const float *x, int n, int taps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int t = 0; t < taps; ++t)
      y[i] += 0.5f * at(x, i + t);
}
// WHY-LABEL: kernel smooth at {{.*}}
// WHY:         register-accumulate: not applied: the loop at {{.*}} reads at(x, i + t) through a helper, whose address the run-time test of overlap cannot watch; declare y __restrict__

__global__ void smooth_self(float *y, int n, int taps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int t = 0; t < taps; ++t)
      y[i] += 0.5f * at(y, (i + t) % n);
}
// WHY-LABEL: kernel smooth_self at {{.*}}
// WHY:         register-accumulate: not applied: the kernel model shows no loop that accumulates into one global element

// Not load helpers: one that writes, one whose index reads memory.
__device__ float take(float *p, int i) { return p[i]++; }
__device__ float gather(const float *p, const int *idx, int i) {
  return p[idx[i]];
}

__global__ void row_take(float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += take(a, r * cols + c);
  out[r] = s;
}
// WHY-LABEL: kernel row_take at {{.*}}
// WHY:         warp-per-row: not applied: {{.*}}it calls `take`, whose body the model does not read

__global__ void row_gather(const float *a, const int *idx, float *out,
                           int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += gather(a, idx, r * cols + c);
  out[r] = s;
}
// WHY-LABEL: kernel row_gather at {{.*}}
// WHY:         warp-per-row: not applied: {{.*}}it calls `gather`, whose body the model does not read

void run(const float *a, float *b, float *c, const int *idx, int n) {
  row_sums<<<(n + 255) / 256, 256>>>(a, b, n, n);
  dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
  matmul<<<grid, block>>>(a, a, c, n);
  smooth<<<(n + 255) / 256, 256>>>(b, a, n, 8);
  smooth_self<<<(n + 255) / 256, 256>>>(b, n, 8);
  row_take<<<(n + 255) / 256, 256>>>(b, c, n, n);
  row_gather<<<(n + 255) / 256, 256>>>(a, idx, c, n, n);
}
