// Kernel templates are rewritten through their instantiations: an edit is
// proposed when every instantiation gets the same edit of the template's
// text (each launch gets its own), and refused when it would write a
// template argument into the template (float4 where it says T), when the
// instantiations need different edits, or when nothing instantiates it.

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST
// RUN: clang-autoprof optimize --dry-run --diff --transformations=warp-per-row %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF

template <typename T>
__global__ void relu_t(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] > T(0) ? in[i] : T(0);
}

template <int BLOCK>
__global__ void rowsum(const float *m, float *sums, int rows, int cols) {
  int r = blockIdx.x * BLOCK + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  sums[r] = s;
}

template <typename T>
__global__ void rowsum2(const T *m, T *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  T s = 0;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  sums[r] = s;
}

template <typename T> __global__ void never(T *p) { p[threadIdx.x] = 0; }

template <typename T> __global__ void fill(T *p) { p[threadIdx.x] = T(); }

void fillBoth(float *f, int *i) {
  fill<<<1, 128>>>(f);
  fill<<<1, 256>>>(i);
}

void run(const float *a, float *b, const double *da, double *db, int n) {
  relu_t<float><<<(n + 255) / 256, 256>>>(a, b, n);
  rowsum<256><<<n / 256, 256>>>(a, b, n, n);
  rowsum2<float><<<n / 256, 256>>>(a, b, n, n);
  rowsum2<double><<<n / 256, 256>>>(da, db, n, n);
}

// LIST:      kernel relu_t at {{.*}}
// LIST:        launch-bounds: add __launch_bounds__(B)
// LIST:        vectorize-float4: not applied: the edit writes `float4`, from a template argument of one of its instantiations, into the template
// LIST:      kernel rowsum at {{.*}}
// LIST:        warp-per-row: not applied: `blockIdx.x` at line {{[0-9]+}} is read other than in the thread's global index
// LIST:        launch-bounds: not applied: the edit writes `256`, from a template argument of one of its instantiations, into the template
// LIST:      kernel rowsum2 at {{.*}}
// LIST-NEXT:   warp-per-row: give each row
// LIST:        launch-block-size: not applied: in its instantiation `rowsum2<float>`: the launch at line {{[0-9]+}} has a grid
// LIST:      kernel never at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   tile-matmul-smem: not applied: the template is instantiated nowhere in this translation unit
// LIST:      kernel fill at {{.*}}
// LIST:        launch-bounds: not applied: its instantiations need different edits of the template

// DIFF:      # warp-per-row on kernel rowsum2
// DIFF:      +  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// DIFF:      +    s += __shfl_down_sync(0xffffffff, s, Offset);
// DIFF:      +  rowsum2<float><<<(n / 256) * 32, 256>>>(a, b, n, n);
// DIFF-NEXT: +  rowsum2<double><<<(n / 256) * 32, 256>>>(da, db, n, n);
// DIFF-NOT:  # warp-per-row
