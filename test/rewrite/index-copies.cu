// Spellings that once fooled or crashed the rewriter: a tree reduction
// that updates its element through `*(s + i)` (it crashed the whole file),
// and element-wise kernels that copy the index, or offset their pointers
// by it, before the guard (vectorize-float4 once rewrote them, and its
// scalar tail read the copies: the last elements were never written). The
// reduction is refused with its reason; the copies move into the tail,
// which declares them for each of its elements.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-shuffle-reduce,vectorize-float4 %s -- -std=c++17 | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=VEC
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.cu %}

__global__ void tree(float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = out[blockIdx.x * 256 + t];
  __syncthreads();
  for (unsigned h = blockDim.x / 2; h > 0; h >>= 1) {
    if (t < h)
      *(s + t) += s[t + h];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = s[0];
}

__global__ void axpb_copy(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i;
  if (i < n)
    y[j] = a * x[j] + 1.0f;
}

__global__ void axpb_offset(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float *xp = x + i;
  float *yp = y + i;
  if (i < n)
    *yp = a * *xp + 1.0f;
}

__global__ void axpb(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + 1.0f;
}

void launch(const float *x, float *y, float *o, float a, int n) {
  tree<<<4, 256>>>(o);
  axpb_copy<<<(n + 255) / 256, 256>>>(x, y, a, n);
  axpb_offset<<<(n + 255) / 256, 256>>>(x, y, a, n);
  axpb<<<(n + 255) / 256, 256>>>(x, y, a, n);
}

// CHECK:      kernel tree at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK-NEXT:   warp-shuffle-reduce: not applied: the update at line 21 is not `A[i] += A[i + h]` or `A[i] = f(A[i], A[i + h])` with f a minimum or maximum
// CHECK:      kernel axpb_copy at {{.*}}
// CHECK-NEXT:   vectorize-float4: {{.*}}
// CHECK:      kernel axpb_offset at {{.*}}
// CHECK-NEXT:   vectorize-float4: {{.*}}
// CHECK:      kernel axpb at {{.*}}
// CHECK-NEXT:   vectorize-float4: {{.*}}

// The copies leave the code before the guard, and each element of the tail
// declares them from its own index.
// VEC:      __global__ void axpb_copy(const float *x, float *y, float a, int n) {
// VEC-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;
// VEC-NEXT:   int i4 = i;
// VEC:            y4.w = a * x4.w + 1.0f;
// VEC:          for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// VEC-NEXT:       int j = i;
// VEC-NEXT:       y[j] = a * x[j] + 1.0f;
// VEC:      __global__ void axpb_offset(const float *x, float *y, float a, int n) {
// VEC-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;
// VEC-NEXT:   int i4 = i;
// VEC:          for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// VEC-NEXT:       const float *xp = x + i;
// VEC-NEXT:       float *yp = y + i;
// VEC-NEXT:       *yp = a * *xp + 1.0f;
