// Spellings that once fooled or crashed the rewriter: a tree reduction
// that updates its element through `*(s + i)` (it crashed the whole file),
// and element-wise kernels that copy the index, or offset their pointers
// by it, before the guard (vectorize-float4 rewrote them, and its scalar
// tail read the copies: the last elements were never written). Each is
// refused with its reason, and the other kernels of the file are still
// proposed.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-shuffle-reduce,vectorize-float4 %s -- -std=c++17 | FileCheck %s --match-full-lines

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
// CHECK-NEXT:   warp-shuffle-reduce: not applied: the update at line 18 is not `A[i] += A[i + h]` or `A[i] = f(A[i], A[i + h])` with f a minimum or maximum
// CHECK:      kernel axpb_copy at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        vectorize-float4: not applied: `j` at line 29 holds a value of the index computed before the guard
// CHECK:      kernel axpb_offset at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        vectorize-float4: not applied: `yp` at line 37 holds a value of the index computed before the guard
// CHECK:      kernel axpb at {{.*}}
// CHECK-NEXT:   vectorize-float4: {{.*}}
