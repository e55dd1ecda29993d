// Kernel templates are rewritten through their instantiations: an edit is
// proposed when every instantiation gets the same edit of the template's
// text (each launch gets its own). An edit that writes a template argument
// into the template (float4 where it says T, but not a number the rewrite
// writes from its own constants) runs in that instantiation alone, under
// `if constexpr` (test/rewrite/template-specialize.cu); one outside the
// body is refused, as are edits that differ between instantiations and
// templates that nothing instantiates.

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST
// RUN: clang-autoprof optimize --dry-run --diff --transformations=warp-per-row %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=DIFF
// RUN: clang-autoprof optimize --dry-run --diff --transformations=tile-matmul-smem %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=TILE
// RUN: %if nvcc %{ clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.cu %s -- -std=c++17 && %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

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

// A product templated on its element type, run in float and double: the
// tiles are written in `T`.
template <typename T>
__global__ void mm_t(const T *A, const T *B, T *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    T sum = 0;
    for (int k = 0; k < K; ++k)
      sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

void products(const float *a, float *c, const double *da, double *dc, int n) {
  dim3 b(16, 16), g((n + 15) / 16, (n + 15) / 16);
  mm_t<float><<<g, b>>>(a, a, c, n, n, n);
  mm_t<double><<<g, b>>>(da, da, dc, n, n, n);
}

// A tuning parameter the template never names: the 16 its tiles are
// written with comes from the launch's blocks, not from the argument.
template <typename T, int TILE>
__global__ void mm_tuned(const T *A, const T *B, T *C, int M, int N, int K) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    T acc = T(0);
    for (int k = 0; k < K; ++k)
      acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = acc;
  }
}

void tuned(const float *a, float *c, int n) {
  dim3 b(16, 16), g((n + 15) / 16, (n + 15) / 16);
  mm_tuned<float, 16><<<g, b>>>(a, a, c, n, n, n);
}

template <typename T> __global__ void never(T *p) { p[threadIdx.x] = 0; }

template <typename T> __global__ void fill(T *p) { p[threadIdx.x] = T(); }

void fillBoth(float *f, int *i) {
  fill<<<1, 128>>>(f);
  fill<<<1, 256>>>(i);
}

// One instantiation whose argument is the warp's width: the 32 and the 16
// that warp-per-row writes are its own constants, not the argument.
template <int DIM>
__global__ void norms_of(const float *v, float *out, unsigned batch) {
  unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch)
    return;
  float ss = 0.0f;
  for (unsigned k = 0; k < DIM; ++k)
    ss += v[b * DIM + k] * v[b * DIM + k];
  out[b] = ss;
}

void norms(const float *v, float *out, unsigned batch) {
  norms_of<32><<<(batch + 127) / 128, 128>>>(v, out, batch);
}

void run(const float *a, float *b, const double *da, double *db, int n) {
  relu_t<float><<<(n + 255) / 256, 256>>>(a, b, n);
  rowsum<256><<<n / 256, 256>>>(a, b, n, n);
  rowsum2<float><<<n / 256, 256>>>(a, b, n, n);
  rowsum2<double><<<n / 256, 256>>>(da, db, n, n);
}

// LIST:      kernel relu_t at {{.*}}
// LIST-NEXT:   vectorize-float4: make each thread
// LIST:        launch-bounds: add __launch_bounds__(B)
// The block size as a template argument that every launch's block has:
// `blockIdx.x * BLOCK` is the block's first row.
// LIST:      kernel rowsum at {{.*}}
// LIST-NEXT:   warp-per-row: give each row
// LIST:        launch-bounds: not applied: the edit writes `256`, from a template argument of one of its instantiations, into the template; the edit changes the template outside its body
// LIST:      kernel rowsum2 at {{.*}}
// LIST-NEXT:   warp-per-row: give each row
// A grid rounded down keeps its threads in the new blocks (same-threads
// launches, one per instantiation's launch).
// LIST:        launch-block-size(128): {{.*}}
// LIST:      kernel mm_tuned at {{.*}}
// LIST-NEXT:   tile-matmul-smem: stage the naive product
// LIST:      kernel never at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   tile-matmul-smem: not applied: the template is instantiated nowhere in this translation unit
// LIST:      kernel fill at {{.*}}
// LIST:        launch-bounds: not applied: its instantiations need different edits of the template
// LIST:      kernel norms_of at {{.*}}
// LIST-NEXT:   warp-per-row: give each row

// DIFF:      # warp-per-row on kernel rowsum
// DIFF:      +  int r = (blockIdx.x * BLOCK + threadIdx.x) / 32;
// DIFF:      +  rowsum<256><<<(n / 256) * 32, 256>>>(a, b, n, n);
// DIFF:      # warp-per-row on kernel rowsum2
// DIFF:      +  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// DIFF:      +    s += __shfl_down_sync(0xffffffff, s, Offset);
// DIFF:      +  rowsum2<float><<<(n / 256) * 32, 256>>>(a, b, n, n);
// DIFF-NEXT: +  rowsum2<double><<<(n / 256) * 32, 256>>>(da, db, n, n);
// DIFF:      # warp-per-row on kernel norms_of
// DIFF:      +  for (unsigned k = Lane; k < DIM; k += 32)
// DIFF:      +  for (int Offset = 16; Offset > 0; Offset /= 2)
// DIFF:      +  norms_of<32><<<((batch + 127) / 128) * 32, 128>>>(v, out, batch);
// DIFF-NOT:  # warp-per-row

// TILE:      # tile-matmul-smem on kernel mm_t
// TILE:      +  __shared__ T As[16][16];
// TILE-NEXT: +  __shared__ T Bs[16][16];
// TILE-NEXT: +  T sum = 0;
// TILE:      +        ARow < M && AK < K ? A[ARow * K + AK] : T(0);
// TILE:      # tile-matmul-smem on kernel mm_tuned
// TILE:      +  __shared__ T As[16][16];
// TILE-NOT:  # tile-matmul-smem
