// Batches whose guard also bounds the batch (`i < n && b < batches`, an
// early return on `blockIdx.y >= rows`): a bound of a value of the blocks
// of another axis by the launch's values holds for every thread of a block
// or for none. vectorize-float4 keeps it as an exit before the group of
// four, and launch-block-size, which changes only x, keeps the kernel as
// it is. A bound that also reads the index is not one of the batch, and
// the guard is then refused.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4,launch-block-size %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -c -o /dev/null %t.cu %}

template <typename T> struct Span {
  T *data;
  unsigned len;
};

__global__ void scaleBatches(const float *__restrict__ src,
                             float *__restrict__ dst, int n, int batches,
                             float k)
{
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int b = blockIdx.y;
  if (i < n && b < batches)
    dst[b * n + i] = k * src[b * n + i];
}
// CHECK:      __global__ void scaleBatches(const float *__restrict__ src,
// CHECK:        const int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   const int b = blockIdx.y;
// CHECK-NEXT:   if (!(b < batches)) return;
// CHECK-NEXT:   int i4 = i;
// CHECK:        if (i4 < n / 4 &&
// CHECK-NEXT:     ((reinterpret_cast<unsigned long long>(&src[b * n + 4 * i4]) |
// CHECK:        } else if (i4 < (n + 3) / 4) {
// CHECK-NEXT:     for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// CHECK-NEXT:       dst[b * n + i] = k * src[b * n + i];

// An early return on the rows of the grid and the columns, with a
// condition of the launch, and a row pointer of the work that only reaches
// elements: the lanes do not declare it, and the group's address writes
// its value.
__global__ void clampRows(float *m, unsigned cols, unsigned rows, bool on)
{
  unsigned c = threadIdx.x + blockIdx.x * blockDim.x;
  if (!on || c >= cols || blockIdx.y >= rows)
    return;
  float *row = m + blockIdx.y * cols;
  row[c] = fminf(row[c], 1.0f);
}
// CHECK:      __global__ void clampRows(float *m, unsigned cols, unsigned rows, bool on)
// CHECK-NEXT: {
// CHECK-NEXT:   if (!on || (blockIdx.y >= rows)) return;
// CHECK-NEXT:   unsigned int c4 = threadIdx.x + blockIdx.x * blockDim.x;
// CHECK:        if (c4 < cols / 4 &&
// CHECK-NEXT:     ((reinterpret_cast<unsigned long long>(&(m + blockIdx.y * cols)[4 * c4])) % 16) == 0) {
// CHECK-NEXT:     float4 m4 = *reinterpret_cast<const float4 *>(&(m + blockIdx.y * cols)[4 * c4]);
// CHECK-NEXT:     {
// CHECK-NEXT:       m4.x = fminf(m4.x, 1.0f);
// CHECK:          *reinterpret_cast<float4 *>(&(m + blockIdx.y * cols)[4 * c4]) = m4;
// CHECK-NEXT:   } else if (c4 < (cols + 3) / 4) {
// CHECK-NEXT:     for (unsigned int c = 4 * c4; c < cols && c < 4 * c4 + 4; ++c) {
// CHECK-NEXT:       float *row = m + blockIdx.y * cols;
// CHECK-NEXT:       row[c] = fminf(row[c], 1.0f);

// Refused: the second bound reads the index.
__global__ void skewed(float *out, int n, int m)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && blockIdx.y + i < m)
    out[blockIdx.y * n + i] = 0.0f;
}
// WHY-LABEL: kernel scaleBatches at
// WHY-NEXT:    vectorize-float4: {{.*}}
// WHY-LABEL: kernel clampRows at
// WHY-NEXT:    vectorize-float4: {{.*}}
// WHY-LABEL: kernel skewed at
// WHY:         vectorize-float4: not applied: its guard at line [[@LINE-8]] is not one bound of the global index
// WHY:         launch-block-size: not applied: its guard at line [[@LINE-9]] is not one bound of the global index

void run(float *a, float *b, int n, int batches)
{
  scaleBatches<<<dim3((n + 255) / 256, batches), 256>>>(a, b, n, batches, 3.0f);
  clampRows<<<dim3((n + 127) / 128, batches), 128>>>(b, n, batches, true);
  skewed<<<dim3((n + 255) / 256, batches), 256>>>(b, n, n);
}
// CHECK:      void run(float *a, float *b, int n, int batches)
// CHECK-NEXT: {
// CHECK-NEXT:   scaleBatches<<<dim3(((n + 3) / 4 + 256 - 1) / 256, batches), 256>>>(a, b, n, batches, 3.0f);
// CHECK-NEXT:   clampRows<<<dim3(((n + 3) / 4 + 128 - 1) / 128, batches), 128>>>(b, n, batches, true);
// CHECK-NEXT:   skewed<<<dim3((n + 255) / 256, batches), 256>>>(b, n, n);
// CHECK-NEXT: }
