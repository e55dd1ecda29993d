// Kernels whose loops live in __device__ helpers: the helpers are inlined
// (never verified alone), and the other rewrites are proposed on the
// result. Helpers the inlining cannot keep exact are refused, with why.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}
// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=EXPLAIN
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.mm.cu %s -- -std=c++17
// RUN: %no-checks %t.mm.cu | FileCheck %s --check-prefix=TILE
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.mm.cu %}
// RUN: clang-autoprof optimize --dry-run --diff --kernel=widths --transformations=inline-device-helpers %s -- -std=c++17 | FileCheck %s --check-prefix=COPY

#include <cstddef>
#define N_COLS 1024

static __device__ __forceinline__ float dot_row(const float* __restrict__ r, const float* v, int len) {
  float acc = 0.f;
  for (int j = 0; j < len; j++) acc += r[j] * v[j];
  return acc;
}

__device__ inline double sum_sq(const float *p, int count)
{
	double t = 0;
	int q = 0;
	while (q < count) { t += (double)p[q] * p[q]; ++q; }
	return t;
}

__device__ void store_mean(float *dst, const float *src, int len)
{
    float s = 0;
    for (int j = 0; j < len; ++j)
        s += src[j];
    *dst = s / len;
}

// The call inside a larger expression; `v` and `N_COLS` are written in
// place of the parameters the helper only reads. The local pointer drops
// `__restrict__`: its promise would reach past the helper's body.
__global__ void gemv_axpby(int rows, float alpha, const float *M, const float *v, float beta, float *y) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  y[r] = alpha * dot_row(M + (size_t)r * N_COLS, v, N_COLS) + beta * y[r];
}
// CHECK-LABEL: __global__ void gemv_axpby(
// CHECK: unsigned r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK: const float *[[P:dot_row[0-9]*_]]r = M + (size_t)r * N_COLS;
// CHECK-NEXT: float [[P]]acc = 0.f;
// CHECK-NEXT: for (int [[P]]j = Lane; [[P]]j < N_COLS; [[P]]j += 32) [[P]]acc += [[P]]r[[[P]]j] * v[[[P]]j];
// CHECK: if (Lane == 0)
// CHECK-NEXT: y[r] = alpha * [[P]]acc + beta * y[r];

// An unbraced `if` body gets braces; a `double` helper under a cast.
__global__ void norms(const float *data, float *out, int rows, int cols)
{
	int r = threadIdx.x + blockDim.x * blockIdx.x;
	if (r < rows)
		out[r] = (float)sqrt(sum_sq(&data[r * cols], cols));
}
// CHECK-LABEL: __global__ void norms(
// CHECK: if (r < rows)
// CHECK-NEXT: {
// CHECK-NEXT: const float *[[S:sum_sq[0-9]*_]]p = &data[r * cols];
// CHECK-NEXT: double [[S]]t = 0;
// CHECK-NEXT: int [[S]]q = Lane;
// CHECK-NEXT: while ([[S]]q < cols) { [[S]]t += (double)[[S]]p[[[S]]q] * [[S]]p[[[S]]q]; [[S]]q += 32; }
// CHECK: out[r] = (float)sqrt([[S]]t);
// CHECK-NEXT: }

// A void helper that stores, called as the whole statement of a
// grid-stride loop.
__global__ void means(const float *src, float *dst, int rows, int len) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x)
    store_mean(dst + r, src + r * len, len);
}
// CHECK-LABEL: __global__ void means(
// CHECK: float *[[M:store_mean[0-9]*_]]dst = dst + r;
// CHECK-NEXT: const float *[[M]]src = src + r * len;
// CHECK: if (Lane == 0)
// CHECK-NEXT: *[[M]]dst = [[M]]s / len;
// CHECK-NEXT: }

// Two calls of one helper in one statement get two prefixes.
__global__ void diff_dots(const float *A, const float *B, const float *v, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float d = dot_row(A + r * N_COLS, v, N_COLS) - dot_row(B + r * N_COLS, v, N_COLS);
    y[r] = d;
  }
}
// CHECK-LABEL: __global__ void diff_dots(
// CHECK: const float *[[A:dot_row[0-9]*_]]r = A + r * N_COLS;
// CHECK: const float *[[B:dot_row[0-9]*_]]r = B + r * N_COLS;
// CHECK: float d = [[A]]acc - [[B]]acc;

// A struct passed by value that the helper only reads is the kernel's;
// one the helper changes is copied, as the call copies it.
struct Grid { int nx, ny, pitch; const float *cells; };
__device__ float row_total(Grid g, int y) {
  float t = 0;
  for (int x = 0; x < g.nx; ++x) t += g.cells[y * g.pitch + x];
  return t;
}
__device__ float doubled_total(Grid g, int y) {
  g.nx = 2 * g.nx;
  float t = 0;
  for (int x = 0; x < g.nx; ++x) t += g.cells[y * g.pitch + x];
  return t;
}
__global__ void totals(Grid g, float *out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y < g.ny) out[y] = row_total(g, y);
}
// CHECK-LABEL: __global__ void totals(
// CHECK: for (int [[T:row_total[0-9]*_]]x = Lane; [[T]]x < g.nx; [[T]]x += 32) [[T]]t += g.cells[y * g.pitch + [[T]]x];
__global__ void widths(Grid g, float *out) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y < g.ny) out[y] = doubled_total(g, y);
}
// COPY: # inline-device-helpers on kernel widths
// COPY: +  Grid [[D:doubled_total[0-9]*_]]g = g;
// COPY-NEXT: +  [[D]]g.nx = 2 * [[D]]g.nx;

// A product whose dot product is a helper taking `&A[row * n]`: the
// address initializes a read-only pointer, and the product is tiled.
__device__ float dotp(const float *a, const float *b, int len, int ldb)
{
    float s = 0.0f;
    for (int k = 0; k < len; ++k)
        s += a[k] * b[k * ldb];
    return s;
}
__global__ void mm(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n)
        C[row * n + col] = dotp(&A[row * n], &B[col], n, n);
}
// TILE-LABEL: __global__ void mm(
// TILE: const float *[[D:dotp[0-9]*_]]a = &A[row * n];
// TILE-NEXT: const float *[[D]]b = &B[col];
// TILE: __shared__ float As[16][16];
// TILE: ARow < n && AK < n ? [[D]]a[AK] : 0.0f;
// TILE: BK < n && BCol < n ? [[D]]b[BK * n] : 0.0f;
// TILE: [[D]]s += As[threadIdx.y][[[D]]k] * Bs[[[D]]k][threadIdx.x];
// TILE: C[row * n + col] = [[D]]s;

// A helper whose loop is in another helper: the kernel is prepared twice.
__device__ float row_total(const float *r, int n) {
  float t = 0.0f;
  for (int k = 0; k < n; ++k)
    t += r[k];
  return t;
}
__device__ float row_average(const float *A, int row, int n) {
  float total = row_total(&A[row * n], n);
  return total / n;
}
__global__ void averages(const float *A, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m)
    y[row] = row_average(A, row, n);
}
// CHECK-LABEL: __global__ void averages(
// CHECK: int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// CHECK: const float *[[T:row_total[0-9]*_]]r = &A[row * n];
// CHECK-NEXT: float [[T]]t = 0.0f;
// CHECK-NEXT: for (int [[T]]k = Lane; [[T]]k < n; [[T]]k += 32)
// CHECK: float [[A:row_average[0-9]*_]]total = [[T]]t;
// CHECK-NEXT: if (Lane == 0)
// CHECK-NEXT: y[row] = ([[A]]total / n);

// Refused: a helper in another namespace, one that names a global the
// kernel shadows, an early return, recursion, a call under `?:` or `&&`,
// a template, a call in a loop's condition.
namespace util {
__device__ float total(const float *p, int n) { float s = 0; for (int j = 0; j < n; ++j) s += p[j]; return s; }
}
__device__ float scale = 2.0f;
__device__ float scaled_total(const float *p, int n) { float s = 0; for (int j = 0; j < n; ++j) s += scale * p[j]; return s; }
__device__ float first_neg(const float *p, int n) { for (int j = 0; j < n; ++j) if (p[j] < 0) return p[j]; return 0; }
__device__ float fact(int n) { return n <= 1 ? 1.f : n * fact(n - 1); }
__device__ float loop_sum(const float *p, int n) { float s = 0; for (int j = 0; j < n; ++j) s += p[j]; return s; }
template <typename T> __device__ T tsum(const T *p, int n) { T s = 0; for (int j = 0; j < n; ++j) s += p[j]; return s; }

__global__ void k_namespace(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = util::total(a + r * n, n);
}
__global__ void k_shadow(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float scale = 3.0f;
  if (r < rows) o[r] = scaled_total(a + r * n, n) * scale;
}
__global__ void k_early(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = first_neg(a + r * n, n);
}
__global__ void k_recursive(float *o, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = fact(r % 8);
}
__global__ void k_cond(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = n > 0 ? loop_sum(a + r * n, n) : 0.0f;
}
__global__ void k_and(const float *a, int *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = n > 0 && loop_sum(a + r * n, n) > 0;
}
__global__ void k_template(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) o[r] = tsum(a + r * n, n);
}
__global__ void k_for_cond(const float *a, float *o, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) for (int j = 0; j < loop_sum(a, n); ++j) o[r] += 1;
}
// EXPLAIN-LABEL: kernel gemv_axpby at
// EXPLAIN: inline-device-helpers: write the body
// EXPLAIN-NEXT: prepares the kernel for the others; not tried by itself
// EXPLAIN: inline-device-helpers+warp-per-row: give each row
// EXPLAIN: warp-per-row: not applied: its threads may depend on each other: it calls `dot_row`, whose body the model does not read
// EXPLAIN: inline-device-helpers+vectorize-float4: not applied: `[[P:dot_row[0-9]*_]]r[[[P]]j]` at line {{[0-9]+}} is an element other than the index's
// EXPLAIN-LABEL: kernel averages at
// EXPLAIN-NOT: inline-device-helpers+warp-per-row: not applied
// EXPLAIN: inline-device-helpers+warp-per-row: give each row
// EXPLAIN-NOT: inline-device-helpers+warp-per-row: not applied
// EXPLAIN-LABEL: kernel k_namespace at
// EXPLAIN: inline-device-helpers: not applied: it calls `total` at line {{[0-9]+}}, which is not inlined: it is declared in another namespace than the kernel
// EXPLAIN-LABEL: kernel k_shadow at
// EXPLAIN: inline-device-helpers: not applied: it calls `scaled_total` at line {{[0-9]+}}, which is not inlined: the kernel declares `scale`, which the helper names
// EXPLAIN-LABEL: kernel k_early at
// EXPLAIN: inline-device-helpers: not applied: it calls `first_neg` at line {{[0-9]+}}, which is not inlined: it returns before its end
// EXPLAIN-LABEL: kernel k_recursive at
// EXPLAIN: inline-device-helpers: not applied: it calls `fact` at line {{[0-9]+}}, which is not inlined: it calls itself
// EXPLAIN-LABEL: kernel k_cond at
// EXPLAIN: inline-device-helpers: not applied: it calls `loop_sum` at line {{[0-9]+}}, which is not inlined: it is evaluated under a condition (`?:`)
// EXPLAIN-LABEL: kernel k_and at
// EXPLAIN: inline-device-helpers: not applied: it calls `loop_sum` at line {{[0-9]+}}, which is not inlined: it is evaluated under a condition (`&&`, `||`)
// EXPLAIN-LABEL: kernel k_template at
// EXPLAIN: inline-device-helpers: not applied: it calls `tsum` at line {{[0-9]+}}, which is not inlined: it is a template
// EXPLAIN-LABEL: kernel k_for_cond at
// EXPLAIN: inline-device-helpers: not applied: it calls `loop_sum` at line {{[0-9]+}}, which is not inlined: its statement is not one of a block or of a loop's or `if`'s body

int main() {
  float *M, *v, *y, *o; int rows = 8192, cols = 1024;
  cudaMalloc(&M, sizeof(float) * rows * cols); cudaMalloc(&v, 4 * cols); cudaMalloc(&y, 4 * rows); cudaMalloc(&o, 4 * rows);
  gemv_axpby<<<(rows + 127) / 128, 128>>>(rows, 2.f, M, v, 0.5f, y);
  norms<<<(rows + 255) / 256, 256>>>(M, o, rows, cols);
  means<<<(rows + 255) / 256, 256>>>(M, o, rows, cols);
  diff_dots<<<(rows + 255) / 256, 256>>>(M, M, v, y, rows);
  mm<<<dim3(cols / 16, cols / 16), dim3(16, 16)>>>(M, M, o, cols);
  averages<<<(rows + 255) / 256, 256>>>(M, o, rows, cols);
  Grid g = {cols, rows, cols, M};
  totals<<<(rows + 63) / 64, 64>>>(g, o);
  widths<<<(rows + 63) / 64, 64>>>(g, o);
  cudaDeviceSynchronize();
}
