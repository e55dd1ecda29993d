// Variables declared without a value and given it by a later assignment are
// read for what they hold, not for how they are written: an index assigned
// once before every read is the index, a sum set to zero before its loop
// starts at zero. Where the value is not known (assigned twice, or a sum
// that starts elsewhere than zero), the rewrite is refused with the reason.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,split-serial-loop,vectorize-float4 %s -- -std=c++17 | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.vec.cu %s -- -std=c++17
// RUN: %no-checks %t.vec.cu | FileCheck %s --check-prefix=VEC
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.vec.cu %}

__global__ void rows_assigned(const float *a, const float *x, float *y, int m,
                              int n) {
  int r;
  float acc;
  r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    acc = 0.0f;
    for (int c = 0; c < n; ++c)
      acc += a[r * n + c] * x[c];
    y[r] = acc;
  }
}

__global__ void rows_biased(const float *a, const float *x, const float *b,
                            float *y, int m, int n) {
  int r;
  float acc;
  r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    acc = 0.0f;
    acc = 2.0f;
    for (int c = 0; c < n; ++c)
      acc += a[r * n + c] * x[c];
    y[r] = acc;
  }
}

__global__ void rows_reassigned(const float *a, const float *x, float *y,
                                int m, int n) {
  int r;
  r = blockIdx.x * blockDim.x + threadIdx.x;
  r = r + 1;
  if (r < m) {
    float acc = 0.0f;
    for (int c = 0; c < n; ++c)
      acc += a[r * n + c] * x[c];
    y[r] = acc;
  }
}

__global__ void scale_copy(const float *x, float *y, int n) {
  int i, j;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  j = i;
  if (i < n)
    y[j] = 2.0f * x[j];
}

// The index assigned before the guard: the group of four starts from the
// value it holds.
__global__ void scale_assigned(const float *x, float *y, int n) {
  int i;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

// The index assigned after a guard written inline: the work sets a variable
// that the four elements of a thread would share, so the kernel is refused.
__global__ void scale_late(const float *x, float *y, int n) {
  int i;
  if (blockIdx.x * blockDim.x + threadIdx.x >= n)
    return;
  i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = 2.0f * x[i];
}

void launch(const float *a, const float *x, const float *b, float *y, int m,
            int n) {
  int blocks;
  blocks = (m + 127) / 128;
  rows_assigned<<<blocks, 128>>>(a, x, y, m, n);
  rows_biased<<<blocks, 128>>>(a, x, b, y, m, n);
  rows_reassigned<<<blocks, 128>>>(a, x, y, m, n);
  scale_copy<<<(n + 255) / 256, 256>>>(x, y, n);
  scale_assigned<<<(n + 255) / 256, 256>>>(x, y, n);
  scale_late<<<(n + 255) / 256, 256>>>(x, y, n);
}

// CHECK:      kernel rows_assigned at {{.*}}
// CHECK-NEXT:   warp-per-row: give each row {{.*}}
// CHECK:        split-serial-loop: give each output {{.*}}
// CHECK:      kernel rows_biased at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        warp-per-row: not applied: the sum `acc` does not start at zero before the loop at line 35
// CHECK:        split-serial-loop: not applied: `acc` does not start at zero before the loop at line 35: each slice would add its start
// CHECK:      kernel rows_reassigned at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        warp-per-row: not applied: the statement at line 46 is neither a declaration, a loop over the row nor a store
// CHECK:      kernel scale_copy at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        vectorize-float4: not applied: `j` holds a value of the index computed before the guard other than by a declaration of its own that nothing changes
// CHECK:      kernel scale_assigned at {{.*}}
// CHECK-NEXT:   vectorize-float4: {{.*}}
// CHECK:      kernel scale_late at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK:        vectorize-float4: not applied: `i` at line 77 is declared before the work and changed by it; the elements of a group of four would see each other's values

// VEC:      __global__ void scale_assigned(const float *x, float *y, int n) {
// VEC-NEXT:   int i;
// VEC-NEXT:   i = blockIdx.x * blockDim.x + threadIdx.x;
// VEC-NEXT:   int i4 = i;
// VEC:          for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {

// WARP:      __global__ void rows_assigned(const float *a, const float *x, float *y, int m,
// WARP:        r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
// WARP:          acc = 0.0f;
// WARP-NEXT:     for (int c = Lane; c < n; c += 32)
// WARP:        rows_assigned<<<blocks * 32, 128>>>(a, x, y, m, n);
