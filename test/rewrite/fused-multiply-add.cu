// Sums of products written as fused multiply-adds (`s = fmaf(a, b, s)`,
// `fma`, `__fmaf_rn`) are sums for the kernel model: warp-per-row,
// split-serial-loop, register-accumulate and tile-matmul-smem rewrite them
// and keep the fused operation; a call whose sum is not its third argument
// is no sum.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.wpr.cu %s -- -std=c++17
// RUN: %no-checks %t.wpr.cu | FileCheck %s --check-prefix=WPR
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.tile.cu %s -- -std=c++17
// RUN: %no-checks %t.tile.cu | FileCheck %s --check-prefix=TILE
// RUN: clang-autoprof optimize --dry-run --transformations=register-accumulate -o %t.reg.cu %s -- -std=c++17
// RUN: %no-checks %t.reg.cu | FileCheck %s --check-prefix=REG
// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,split-serial-loop %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.wpr.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.tile.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.reg.cu %}
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.split.cu %}

#define NCOLS 2048

__global__ void gemv_fma(const float *A, const float *x, float *y, int M,
                         int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < M) {
    float sum = 0.0f;
    for (int j = 0; j < N; ++j)
      sum = fmaf(A[i * N + j], x[j], sum);
    y[i] = sum;
  }
}
// WPR:      for (int j = Lane; j < N; j += 32)
// WPR-NEXT:   sum = fmaf(A[i * N + j], x[j], sum);

// Accumulated in the output, in double, the vector's element first.
__global__ void gemv_out(const double *A, const double *x, double *y, int M,
                         int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M)
    return;
  for (int j = 0; j < N; ++j)
    y[i] = fma(x[j], A[i * N + j], y[i]);
}
// WPR:      double RowAcc = 0;
// WPR:        RowAcc = fma(x[j], A[i * N + j], RowAcc);
// WPR:        y[i] += RowAcc;
// REG:      auto acc = *accAt;
// REG:      bool accOverlap = spanReaches_gemv_out(x[{{.*}}], x[{{.*}}], accAt, sizeof(*accAt)) ||
// REG:        acc = fma(x[j], A[i * N + j], acc);
// REG-NEXT: *accAt = acc;

__global__ void mm_fma(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= M || c >= N)
    return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc = __fmaf_rn(A[r * K + k], B[k * N + c], acc);
  C[r * N + c] = acc;
}
// TILE:      __shared__ float As[16][16];
// TILE:          acc = __fmaf_rn(As[threadIdx.y][k], Bs[k][threadIdx.x], acc);

// A column's sum of squares over too few threads.
__global__ void colsum_sq(const float *m, float *out, int rows) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < NCOLS) {
    float s = 0;
    for (int r = 0; r < rows; ++r) {
      float v = m[r * NCOLS + c];
      s = fmaf(v, v, s);
    }
    out[c] = s;
  }
}
// SPLIT:      __global__ void colsum_sq(const float *m, float *out, int rows) {
// SPLIT:          s = fmaf(v, v, s);

// Not a sum: the running value is a factor, not the addend.
__global__ void horner(const float *coef, float *out, float x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = 0.0f;
    for (int k = 0; k < 16; ++k)
      p = fmaf(p, x, coef[i * 16 + k]);
    out[i] = p;
  }
}

// LIST:      kernel horner at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   warp-per-row: not applied: the loop at line {{[0-9]+}} sets `p` each iteration, which is neither a sum, a minimum or a maximum over the row nor a store of one element
// LIST-NEXT:   split-serial-loop: not applied: {{.*}}

void run(const float *A, const float *x, float *y, const double *Ad,
         const double *xd, double *yd, float *C, int M, int N, int K) {
  gemv_fma<<<(M + 127) / 128, 128>>>(A, x, y, M, N);
  gemv_out<<<(M + 127) / 128, 128>>>(Ad, xd, yd, M, N);
  mm_fma<<<dim3((N + 15) / 16, (M + 15) / 16), dim3(16, 16)>>>(A, x, C, M, N,
                                                                K);
  colsum_sq<<<NCOLS / 128, 128>>>(A, y, M);
  horner<<<(M + 127) / 128, 128>>>(A, y, 0.5f, M);
}
