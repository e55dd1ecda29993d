// Grids spelled other ways than `(n + 255) / 256`: the textbook
// `ceil(n / 256.0)` (in double, for a 32-bit n: exact), a host helper
// called in the launch, a dim3 of one dimension for a histogram, and the
// field of a struct passed by value as the bound. The
// rewrites that change or cap the grid read them as they read the integer
// forms; `ceilf` is refused (in float, n above 2^24 rounds before the
// ceiling and the grid may fall short).

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST
// RUN: clang-autoprof optimize --dry-run --diff %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=DIFF
// RUN: clang-autoprof optimize --dry-run -o %t.cu %s -- -std=c++17
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#include <cmath>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
void runSaxpy(int n, float a, const float *x, float *y) {
  saxpy<<<ceil(n / 256.0), 256>>>(n, a, x, y);
}
// LIST-LABEL: kernel saxpy at {{.*}}
// LIST:       launch-block-size(128): {{.*}}
// DIFF-LABEL: # launch-block-size(128) on kernel saxpy
// DIFF:       +  saxpy<<<(n + 128 - 1) / 128, 128>>>(n, a, x, y);

__global__ void scaleRows(const float *m, float *out, unsigned width,
                          unsigned height) {
  unsigned c = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned r = threadIdx.y + blockDim.y * blockIdx.y;
  if (c < width && r < height)
    out[r * width + c] = 0.5f * m[r * width + c];
}
void runScaleRows(const float *m, float *out, int width, int height) {
  dim3 threads(16, 16);
  dim3 tiles(std::ceil((double)width / 16), std::ceil((double)height / 16));
  scaleRows<<<tiles, threads>>>(m, out, width, height);
}
// LIST-LABEL: kernel scaleRows at {{.*}}
// LIST:       block-shape(32x8): {{.*}}
// DIFF-LABEL: # block-shape(32x8) on kernel scaleRows
// DIFF:       +  scaleRows<<<dim3((width + 32 - 1) / 32, (height + 8 - 1) / 8), dim3(32, 8)>>>(m, out, width, height);

// A thread per row summing the row: the grid from a helper, in the launch.
__global__ void rowDot(const float *A, const float *v, float *y, int rows,
                       int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j)
      acc += A[row * cols + j] * v[j];
    y[row] = acc;
  }
}
static int blocksFor(int count, int per) { return (count + per - 1) / per; }
void runRowDot(const float *A, const float *v, float *y, int rows, int cols) {
  rowDot<<<blocksFor(rows, 128), 128>>>(A, v, y, rows, cols);
}
// LIST-LABEL: kernel rowDot at {{.*}}
// LIST:       warp-per-row: {{.*}}
// DIFF-LABEL: # warp-per-row on kernel rowDot
// DIFF:       +  rowDot<<<blocksFor(rows, 128) * 32, 128>>>(A, v, y, rows, cols);

__global__ void histo(const unsigned char *bytes, unsigned *counts, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&counts[bytes[i]], 1u);
}
void runHisto(const unsigned char *bytes, unsigned *counts, int n) {
  dim3 grid((n + 255) / 256);
  histo<<<grid, 256>>>(bytes, counts, n);
}
// LIST-LABEL: kernel histo at {{.*}}
// LIST:       privatize-atomics-smem: {{.*}}
// DIFF-LABEL: # privatize-atomics-smem on kernel histo
// DIFF:       +  histo<<<[&] { dim3 Grid = (grid); Grid.x = Grid.x < 1024 ? Grid.x : 1024; return Grid; }(), 256>>>(bytes, counts, n);

__global__ void shift(int n, float s, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += s;
}
void runShift(int n, float s, float *y) {
  shift<<<ceilf(n / 256.0f), 256>>>(n, s, y);
}
// A float quotient is not read as covering: the launch keeps exactly its
// threads in the new blocks.
// LIST-LABEL: kernel shift at {{.*}}
// LIST:       launch-block-size(128): {{.*}}
// DIFF-LABEL: # launch-block-size(128) on kernel shift
// DIFF:       +    const dim3 autoprof_grid_(ceilf(n / 256.0f));
// DIFF:       +      shift<<<autoprof_grid_, 256>>>(n, s, y);

// The bound a field of a struct passed by value: the grid divides the same
// field of the same struct.
struct Extent {
  int count;
  float scale;
};
__global__ void scaleAll(Extent e, float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < e.count)
    v[i] *= e.scale;
}
void runScaleAll(Extent e, float *v) {
  scaleAll<<<(e.count + 255) / 256, 256>>>(e, v);
}
// LIST-LABEL: kernel scaleAll at {{.*}}
// LIST:       launch-block-size(128): {{.*}}
// DIFF-LABEL: # launch-block-size(128) on kernel scaleAll
// DIFF:       +  scaleAll<<<((e).count + 128 - 1) / 128, 128>>>(e, v);

// The grid divides a field of another struct, which the host changed: not
// the bound the kernel reads, so no grid is written from it; the launch
// keeps exactly its threads.
__global__ void halveAll(Extent e, float *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < e.count)
    v[i] *= 0.5f;
}
void runHalveAll(Extent e, float *v) {
  Extent other = e;
  other.count = e.count * 2;
  halveAll<<<(other.count + 255) / 256, 256>>>(e, v);
}
// LIST-LABEL: kernel halveAll at {{.*}}
// LIST:       launch-block-size(128): {{.*}}
// DIFF-LABEL: # launch-block-size(128) on kernel halveAll
// DIFF-NOT:   count + 128
// DIFF:       +    const dim3 autoprof_grid_((other.count + 255) / 256);

// A grid-stride loop launched with dim3s written at the launch, of one
// dimension (a functional cast) and of two: halving the block doubles the
// first argument alone.
__global__ void addOne(float *v, long n) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)blockDim.x * gridDim.x)
    v[i] += 1.0f;
}
void runAddOne(float *v, long n, int sms) {
  addOne<<<dim3(sms * 4), dim3(256)>>>(v, n);
  addOne<<<dim3(sms, 1), 256>>>(v, n);
}
// LIST-LABEL: kernel addOne at {{.*}}
// LIST:       launch-block-size(128): {{.*}}
// DIFF-LABEL: # launch-block-size(128) on kernel addOne
// DIFF:       +  addOne<<<dim3((sms * 4) * 2), 128>>>(v, n);
// DIFF-NEXT:  +  addOne<<<dim3(sms * 2, 1), 128>>>(v, n);
