// tile-matmul-smem: the naive matrix product is staged through T x T
// __shared__ tiles of A and B when every launch uses the same block
// dim3(T, T) with T 16 or 32. With other blocks, every launch gets blocks of
// 16 x 16 and a grid written from the bounds, when each launch's grid
// provably covers them; not otherwise, nor for another body.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=tile-matmul-smem %s -- -std=c++17 | FileCheck %s --check-prefix=EXPLAIN --match-full-lines

__global__ void matmul(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
  C[(size_t)row * N + col] = acc;
}
// CHECK:      __global__ void matmul(const float *A, const float *B, float *C, int M, int N,
// CHECK-NEXT:                        int K) {
// CHECK-NEXT:   int row = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int col = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   // 16 x 16 tiles of A and B in shared memory: each thread loads one
// CHECK-NEXT:   // element of each (zero outside the matrices) and every thread reaches
// CHECK-NEXT:   // the barriers; the sum keeps the order of k.
// CHECK-NEXT:   __shared__ float As[16][16];
// CHECK-NEXT:   __shared__ float Bs[16][16];
// CHECK-NEXT:   float acc = 0.0f;
// CHECK-NEXT:   for (int K0 = 0; K0 < K; K0 += 16) {
// CHECK-NEXT:     int ARow = blockIdx.y * 16 + threadIdx.y;
// CHECK-NEXT:     int AK = K0 + threadIdx.x;
// CHECK-NEXT:     int BK = K0 + threadIdx.y;
// CHECK-NEXT:     int BCol = blockIdx.x * 16 + threadIdx.x;
// CHECK-NEXT:     As[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         ARow < M && AK < K ? A[(size_t)ARow * K + AK] : 0.0f;
// CHECK-NEXT:     Bs[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         BK < K && BCol < N ? B[(size_t)BK * N + BCol] : 0.0f;
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     for (int k = 0; k < 16 && K0 + k < K; ++k)
// CHECK-NEXT:       acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   if (!(row >= M || col >= N))
// CHECK-NEXT:     C[(size_t)row * N + col] = acc;
// CHECK-NEXT: }

// Guarded, rows along x, the product written B * A, names that clash.
__global__ void guarded(const double *x, const double *As, double *out,
                        unsigned rows, unsigned cols, unsigned inner) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned c = threadIdx.y + blockDim.y * blockIdx.y;
  if (r < rows && cols > c) {
    double sum = 0;
    for (unsigned i = 0; i < inner; i++) {
      sum += As[i * cols + c] * x[r * inner + i];
    }
    out[c + r * cols] = sum;
  }
}
// CHECK:      __global__ void guarded(const double *x, const double *As, double *out,
// CHECK:        unsigned c = threadIdx.y + blockDim.y * blockIdx.y;
// CHECK-NEXT:   // 32 x 32 tiles of A and B in shared memory: each thread loads one
// CHECK-NEXT:   // element of each (zero outside the matrices) and every thread reaches
// CHECK-NEXT:   // the barriers; the sum keeps the order of k.
// CHECK-NEXT:   __shared__ double As_[32][32 + 1];
// CHECK-NEXT:   __shared__ double Bs[32][32];
// CHECK-NEXT:   double sum = 0;
// CHECK-NEXT:   for (unsigned int K0 = 0; K0 < inner; K0 += 32) {
// CHECK-NEXT:     unsigned int ARow = blockIdx.x * 32 + threadIdx.y;
// CHECK-NEXT:     unsigned int AK = K0 + threadIdx.x;
// CHECK-NEXT:     unsigned int BK = K0 + threadIdx.y;
// CHECK-NEXT:     unsigned int BCol = blockIdx.y * 32 + threadIdx.x;
// CHECK-NEXT:     As_[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         ARow < rows && AK < inner ? x[ARow * inner + AK] : 0.0;
// CHECK-NEXT:     Bs[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         BK < inner && BCol < cols ? As[BK * cols + BCol] : 0.0;
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:     for (unsigned int i = 0; i < 32 && K0 + i < inner; ++i)
// CHECK-NEXT:       sum += Bs[i][threadIdx.y] * As_[threadIdx.x][i];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   if (r < rows && cols > c)
// CHECK-NEXT:     out[c + r * cols] = sum;
// CHECK-NEXT: }

// Launched with 8 x 8 blocks.
__global__ void smallBlock(const float *A, const float *B, float *C, int M,
                           int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
// CHECK:      __global__ void smallBlock(const float *A, const float *B, float *C, int M,
// CHECK:        __shared__ float As[16][16];
// CHECK:            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];

// Launched with 8 x 8 blocks, a grid rounded down: not known to cover M and N.
__global__ void roundedDown(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
// CHECK:      __global__ void roundedDown(const float *A, const float *B, float *C, int M,
// CHECK-NOT:    __shared__
// CHECK:        acc += A[row * K + k] * B[k * N + col];

// B is read transposed: not the pattern.
__global__ void transposedB(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[col * K + k];
  C[row * N + col] = acc;
}
// CHECK:      __global__ void transposedB(const float *A, const float *B, float *C, int M,
// CHECK:        __shared__ float As[16][16];
// CHECK-NEXT:   __shared__ float Bs[16][16 + 1];
// CHECK:        int BK = K0 + threadIdx.x;
// CHECK-NEXT:   int BCol = blockIdx.x * 16 + threadIdx.y;
// CHECK:        Bs[threadIdx.x][threadIdx.y] =
// CHECK-NEXT:       BK < K && BCol < N ? B[BCol * K + BK] : 0.0f;
// CHECK:          acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];

// A^T B: A stored k-major, its tile loaded along its rows and padded.
__global__ void transposedA(const float *A, const float *B, float *C, int M,
                            int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float acc = 0.0f;
    for (int k = 0; k < K; ++k)
      acc += A[k * M + row] * B[k * N + col];
    C[row * N + col] = acc;
  }
}
// CHECK:      __global__ void transposedA(const float *A, const float *B, float *C, int M,
// CHECK:        __shared__ float As[16][16 + 1];
// CHECK:        int ARow = blockIdx.y * 16 + threadIdx.x;
// CHECK-NEXT:   int AK = K0 + threadIdx.y;
// CHECK:        As[threadIdx.x][threadIdx.y] =
// CHECK-NEXT:       ARow < M && AK < K ? A[AK * M + ARow] : 0.0f;
// CHECK:          acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];

// A B^T through pointers to the thread's own rows: B's tile is loaded by
// other threads than the row's, so it reads B itself; the pointer, unused
// then, is not declared.
__global__ void ownRowsNT(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && j < n) {
    const float *a = A + (size_t)i * n;
    const float *b = B + (size_t)j * n;
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += a[k] * b[k];
    C[i * n + j] = acc;
  }
}
// CHECK:      __global__ void ownRowsNT(const float *A, const float *B, float *C, int n) {
// CHECK:        const float *a = A + (size_t)i * n;
// CHECK-NOT:    const float *b = {{.*}}
// CHECK:        ARow < n && AK < n ? a[AK] : 0.0f;
// CHECK:        BK < n && BCol < n ? B[(size_t)BCol * n + BK] : 0.0f;

// Scales the result: the store after the loop is any store of C's element
// without side effects; it stays under the guard.
__global__ void scaled(const float *A, const float *B, float *C, int M, int N,
                       int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = 2.0f * acc;
}
// CHECK:      __global__ void scaled(const float *A, const float *B, float *C, int M, int N,
// CHECK:        __shared__ float As[16][16];
// CHECK:        if (!(row >= M || col >= N))
// CHECK-NEXT:     C[row * N + col] = 2.0f * acc;

// The accumulator, moved out of the guarded block, would clash with a
// parameter.
__global__ void clash(const float *A, const float *B, float *C, int M, int N,
                      int K, float sum) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
      sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}
// CHECK:      __global__ void clash(const float *A, const float *B, float *C, int M, int N,
// CHECK-NOT:    __shared__
// CHECK:          sum += A[row * K + k] * B[k * N + col];

// A batch of products: blockIdx.z picks the batch, whose matrices are
// declared after the early exit from the parameters and an offset.
__global__ void batched(const float *A, const float *B, float *C, int M,
                        int N, int K) {
  int b = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  const float *Ab = A + (size_t)b * M * K;
  const float *Bb = B + (size_t)b * K * N;
  float *Cb = C + (size_t)b * M * N;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += Ab[(size_t)row * K + k] * Bb[(size_t)k * N + col];
  Cb[(size_t)row * N + col] = acc;
}
// CHECK:      __global__ void batched(const float *A, const float *B, float *C, int M,
// CHECK-NEXT:                         int N, int K) {
// CHECK-NEXT:   int b = blockIdx.z;
// CHECK-NEXT:   int row = blockIdx.y * blockDim.y + threadIdx.y;
// CHECK-NEXT:   int col = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   const float *Ab = A + (size_t)b * M * K;
// CHECK-NEXT:   const float *Bb = B + (size_t)b * K * N;
// CHECK-NEXT:   float *Cb = C + (size_t)b * M * N;
// CHECK-NEXT:   // 16 x 16 tiles of A and B in shared memory: each thread loads one
// CHECK:        for (int K0 = 0; K0 < K; K0 += 16) {
// CHECK:          As[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         ARow < M && AK < K ? Ab[(size_t)ARow * K + AK] : 0.0f;
// CHECK-NEXT:     Bs[threadIdx.y][threadIdx.x] =
// CHECK-NEXT:         BK < K && BCol < N ? Bb[(size_t)BK * N + BCol] : 0.0f;
// CHECK:        if (!(row >= M || col >= N))
// CHECK-NEXT:     Cb[(size_t)row * N + col] = acc;
// CHECK-NEXT: }

// A batch's matrix whose offset depends on the row.
__global__ void rowOffset(const float *A, const float *B, float *C, int M,
                          int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  const float *Ar = A + row;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += Ar[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
// CHECK:      __global__ void rowOffset(const float *A, const float *B, float *C, int M,
// CHECK-NOT:    __shared__
// CHECK:          acc += Ar[row * K + k] * B[k * N + col];

// The product writes into a batch of its own input.
__global__ void inPlace(float *A, const float *B, int M, int N, int K) {
  int b = blockIdx.z;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  const float *Ab = A + b * M * K;
  float *Cb = A + (b + 1) * M * K;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k)
    acc += Ab[row * K + k] * B[k * N + col];
  Cb[row * N + col] = acc;
}
// CHECK:      __global__ void inPlace(float *A, const float *B, int M, int N, int K) {
// CHECK-NOT:    __shared__
// CHECK:          acc += Ab[row * K + k] * B[k * N + col];
// CHECK:        smallBlock<<<dim3((N + 16 - 1) / 16, (M + 16 - 1) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
// CHECK-NEXT:   roundedDown<<<dim3(N / 8, M / 8), dim3(8, 8)>>>(A, B, C, M, N, K);

void run(const float *A, const float *B, float *C, const double *x,
         const double *y, double *z, int M, int N, int K) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  matmul<<<grid, block>>>(A, B, C, M, N, K);
  guarded<<<dim3((M + 31) / 32, (N + 31) / 32), dim3(32, 32)>>>(x, y, z, M, N, K);
  smallBlock<<<dim3((N + 7) / 8, (M + 7) / 8), dim3(8, 8)>>>(A, B, C, M, N, K);
  roundedDown<<<dim3(N / 8, M / 8), dim3(8, 8)>>>(A, B, C, M, N, K);
  transposedB<<<grid, block>>>(A, B, C, M, N, K);
  transposedA<<<grid, block>>>(A, B, C, M, N, K);
  ownRowsNT<<<grid, block>>>(A, B, C, N);
  scaled<<<grid, block>>>(A, B, C, M, N, K);
  clash<<<grid, block>>>(A, B, C, M, N, K, 1.0f);
  batched<<<dim3((N + 15) / 16, (M + 15) / 16, 8), block>>>(A, B, C, M, N, K);
  rowOffset<<<grid, block>>>(A, B, C, M, N, K);
  inPlace<<<grid, block>>>(C, B, M, N, K);
}

// DIFF:      # tile-matmul-smem on kernel matmul
// DIFF:      -  if (row >= M || col >= N)
// DIFF-NEXT: -    return;
// DIFF:      # tile-matmul-smem on kernel guarded
// DIFF:      # tile-matmul-smem on kernel smallBlock
// DIFF:      -  smallBlock<<<dim3((N + 7) / 8, (M + 7) / 8), dim3(8, 8)>>>(A, B, C, M, N, K);
// DIFF-NEXT: +  smallBlock<<<dim3((N + 16 - 1) / 16, (M + 16 - 1) / 16), dim3(16, 16)>>>(A, B, C, M, N, K);
// DIFF:      # tile-matmul-smem on kernel scaled
// DIFF:      # tile-matmul-smem on kernel batched
// DIFF-NOT:  on kernel

// YAML-COUNT-10: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel matmul at {{.*}}
// LIST-NEXT:   tile-matmul-smem: stage the naive product acc += A[row * K + k] * B[k * N + col] (either matrix may be transposed) through T x T __shared__ tiles of A and B
// LIST-NEXT:     trigger: needs smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio, l1tex__throughput.avg.pct_of_peak_sustained_active, lts__throughput.avg.pct_of_peak_sustained_elapsed, gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed, l1tex__t_sector_hit_rate.pct, derived__global_excess_sectors_pct
// LIST-NEXT: kernel guarded at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel smallBlock at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel roundedDown at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel transposedB at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel transposedA at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel ownRowsNT at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel scaled at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel clash at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel batched at {{.*}}
// LIST-NEXT:   tile-matmul-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel rowOffset at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel inPlace at {{.*}}
// LIST-NEXT:   no proposal

// EXPLAIN:      kernel roundedDown at {{.*}}
// EXPLAIN:        tile-matmul-smem: not applied: its launches neither share a square constant block of 16 x 16 or 32 x 32 threads nor can take blocks of 16 x 16: the launch at line {{[0-9]+}} has a grid that does not provably cover the bound `N` in x
// EXPLAIN:      kernel clash at {{.*}}
// EXPLAIN:        tile-matmul-smem: not applied: `sum` would leave the guarded block and hide a parameter
// EXPLAIN:      kernel rowOffset at {{.*}}
// EXPLAIN:        tile-matmul-smem: not applied: the pointer `Ar` at line {{[0-9]+}} moves with the thread: the tiles need one matrix per block
// EXPLAIN:      kernel inPlace at {{.*}}
// EXPLAIN:        tile-matmul-smem: not applied: C is A or B
