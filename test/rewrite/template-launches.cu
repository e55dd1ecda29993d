// A launch written in a host template (a launch helper whose block size or
// shape are template arguments) is the launches of its instantiations, each
// with its own grid and block. A rewrite that edits the launch must give
// every instantiation the same edit of its one text; a launch in a template
// that nothing instantiates is one this translation unit does not show.

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST
// RUN: clang-autoprof optimize --dry-run --diff --transformations=warp-per-row,block-shape %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=DIFF
// RUN: clang-autoprof optimize --dry-run --diff --transformations=tile-matmul-smem %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=TILE
// RUN: %if nvcc %{ clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17 && %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#include <cstddef>

__global__ void row_norm2(const double *__restrict__ x, double *__restrict__ out,
                          std::size_t nrows, std::size_t ncols) {
  const std::size_t row = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x;
  if (row < nrows) {
    double acc = 0.0;
    for (std::size_t c = 0; c < ncols; c++)
      acc += x[row * ncols + c] * x[row * ncols + c];
    out[row] = acc;
  }
}

template <unsigned THREADS>
void launch_row_norm2(const double *x, double *out, std::size_t nrows,
                      std::size_t ncols) {
  const unsigned blocks = (unsigned)((nrows + THREADS - 1) / THREADS);
  row_norm2<<<blocks, THREADS>>>(x, out, nrows, ncols);
}

__global__ void scale_rows(float *m, const float *s, int n, int w) {
  int r = threadIdx.x + blockDim.x * blockIdx.x;
  if (r >= n) return;
  float t = 0.f;
  for (int j = 0; j < w; ++j) t += m[r * w + j];
  m[r * w] = t * s[r];
}

template <class F> void never_called(F *m, const F *s, int n, int w) {
  scale_rows<<<(n + 127) / 128, 128>>>(m, s, n, w);
}

template <int DIM>
__global__ void sq_norms(const float *v, float *norms, int count) {
  int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < count) {
    float ss = 0;
    for (int k = 0; k < DIM; ++k)
      ss += v[b * DIM + k] * v[b * DIM + k];
    norms[b] = ss;
  }
}

template <int DIM> void run_sq_norms(const float *v, float *norms, int count) {
  constexpr int kThreads = 256;
  sq_norms<DIM><<<(count + kThreads - 1) / kThreads, kThreads>>>(v, norms, count);
}

__global__ void mm(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];
    C[i * n + j] = s;
  }
}

template <int TX, int TY> void mm_launch(const float *A, const float *B, float *C, int n) {
  dim3 block(TX, TY);
  dim3 grid((n + TX - 1) / TX, (n + TY - 1) / TY);
  mm<<<grid, block>>>(A, B, C, n);
}

template <typename T> struct Sums {
  static constexpr int kBlock = 128;
  static void run(const T *m, T *out, int rows, int cols);
};

__global__ void col_total(const float *m, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float t = 0;
    for (int r = 0; r < rows; ++r) t += m[r * cols + c];
    out[c] = t;
  }
}

template <typename T>
void Sums<T>::run(const T *m, T *out, int rows, int cols) {
  col_total<<<(cols + kBlock - 1) / kBlock, kBlock>>>(m, out, rows, cols);
}

void host(const double *x, double *o, float *m, const float *s, float *C) {
  launch_row_norm2<128>(x, o, 4096, 512);
  launch_row_norm2<256>(x, o, 8192, 256);
  scale_rows<<<64, 128>>>(m, s, 8192, 64);
  run_sq_norms<16>(s, m, 1 << 16);
  run_sq_norms<64>(s, m, 1 << 15);
  mm_launch<16, 16>(s, s, C, 1024);
  mm_launch<32, 8>(s, s, C, 1024);
  Sums<float>::run(s, m, 64, 4096);
}

// Two instantiations of the launch helper: warp-per-row multiplies the one
// grid by 32 for both; split-serial-loop, whose grid depends on each one's
// block, would need two texts for one.
// LIST:      kernel row_norm2 at {{.*}}
// LIST-NEXT:   warp-per-row: give each row
// LIST:        split-serial-loop: not applied: its launch at line 29 is made by several instantiations of a template, which need different edits of it
// LIST:      kernel scale_rows at {{.*}}
// LIST:        warp-per-row: not applied: its launch at line 41 lies in a template that this translation unit does not instantiate
// LIST:        launch-block-size: not applied: its launch at line 41 lies in a template that this translation unit does not instantiate
// Instantiated with 16 and 64: the shuffle's 16 is not the argument.
// LIST:      kernel sq_norms at {{.*}}
// LIST:        warp-per-row: give each row
// Instantiated with blocks of 16 x 16 and 32 x 8: the tiles take blocks of
// 16 x 16 in the one launch text of both.
// LIST:      kernel mm at {{.*}}
// LIST-NEXT:   tile-matmul-smem: stage the naive product {{.*}}
// LIST:        block-shape(32x8): {{.*}}
// TILE:      # tile-matmul-smem on kernel mm
// TILE:      -  mm<<<grid, block>>>(A, B, C, n);
// TILE-NEXT: +  mm<<<dim3((n + 16 - 1) / 16, (n + 16 - 1) / 16), dim3(16, 16)>>>(A, B, C, n);
// A member of a class template launches it with its static constant.
// LIST:      kernel col_total at {{.*}}
// LIST-NEXT:   warp-per-row: give each row

// DIFF:      # warp-per-row on kernel row_norm2
// DIFF:      +  row_norm2<<<blocks * 32, THREADS>>>(x, out, nrows, ncols);
// DIFF:      # warp-per-row on kernel sq_norms
// DIFF:      +    for (int k = Lane; k < DIM; k += 32)
// DIFF:      +  sq_norms<DIM><<<((count + kThreads - 1) / kThreads) * 32, kThreads>>>(v, norms, count);
// DIFF:      # block-shape(32x8) on kernel mm
// DIFF-NEXT: --- {{.*}}
// DIFF-NEXT: +++ {{.*}}
// DIFF:        dim3 block(TX, TY);
// DIFF-NEXT:   dim3 grid((n + TX - 1) / TX, (n + TY - 1) / TY);
// DIFF-NEXT: -  mm<<<grid, block>>>(A, B, C, n);
// DIFF-NEXT: +  mm<<<dim3((n + 32 - 1) / 32, (n + 8 - 1) / 8), dim3(32, 8)>>>(A, B, C, n);
// Coarsening would make each instantiation's grid its own.
// DIFF-NOT:  -per-thread) on kernel mm
// DIFF:      # warp-per-row on kernel col_total
// DIFF:      +  col_total<<<((cols + kBlock - 1) / kBlock) * 32, kBlock>>>(m, out, rows, cols);
