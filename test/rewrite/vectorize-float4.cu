// vectorize-float4: an element-wise float kernel handles four elements per
// thread, with float4 loads and stores when its pointers are 16-byte
// aligned and a scalar loop otherwise and for the tail, and its grid is
// divided by four at every launch; kernels that use the index otherwise,
// read what they write, or whose launches do not provably cover the bound
// are left alone.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

__global__ void axpb(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = a * v + 1.0f;
  }
}
// CHECK:      __global__ void axpb(const float *x, float *y, float a, int n) {
// CHECK-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   // Four elements per thread: float4 when every vectorised pointer is
// CHECK-NEXT:   // 16-byte aligned, one by one otherwise and for the tail.
// CHECK-NEXT:   if (i4 < n / 4 &&
// CHECK-NEXT:     ((reinterpret_cast<unsigned long long>(x) |
// CHECK-NEXT:          reinterpret_cast<unsigned long long>(y)) % 16) == 0) {
// CHECK-NEXT:     const float4 x4 = reinterpret_cast<const float4 *>(x)[i4];
// CHECK-NEXT:     float4 y4;
// CHECK-NEXT:     {
// CHECK-NEXT:       float v = x4.x;
// CHECK-NEXT:       y4.x = a * v + 1.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:     {
// CHECK-NEXT:       float v = x4.y;
// CHECK-NEXT:       y4.y = a * v + 1.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:     {
// CHECK-NEXT:       float v = x4.z;
// CHECK-NEXT:       y4.z = a * v + 1.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:     {
// CHECK-NEXT:       float v = x4.w;
// CHECK-NEXT:       y4.w = a * v + 1.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:     reinterpret_cast<float4 *>(y)[i4] = y4;
// CHECK-NEXT:   } else if (i4 < (n + 3) / 4) {
// CHECK-NEXT:     for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// CHECK-NEXT:       float v = x[i];
// CHECK-NEXT:       y[i] = a * v + 1.0f;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n)
    return;
  c[i] = a[i] + b[i];
}
// CHECK:      __global__ void add(const float *a, const float *b, float *c, int n) {
// CHECK-NEXT:   int i4 = threadIdx.x + blockIdx.x * blockDim.x;
// CHECK:          c4.x = a4.x + b4.x;
// CHECK:          for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// CHECK-NEXT:       c[i] = a[i] + b[i];
// CHECK-NEXT:     }

// The index is used beyond p[i]: each lane declares it with its element.
__global__ void iota(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = i;
}
// CHECK:      __global__ void iota(float *p, int n) {
// CHECK-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:          float4 p4;
// CHECK-NEXT:     {
// CHECK-NEXT:       int i = 4 * i4;
// CHECK-NEXT:       p4.x = i;
// CHECK-NEXT:     }
// CHECK-NEXT:     {
// CHECK-NEXT:       int i = 4 * i4 + 1;
// CHECK-NEXT:       p4.y = i;
// CHECK:            int i = 4 * i4 + 3;
// CHECK-NEXT:       p4.w = i;
// CHECK-NEXT:     }
// CHECK-NEXT:     reinterpret_cast<float4 *>(p)[i4] = p4;

// Loads what it stores: the vector is loaded first and stored last.
__global__ void scale(float *p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = p[i] * s;
}
// CHECK:      __global__ void scale(float *p, float s, int n) {
// CHECK-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:          float4 p4 = reinterpret_cast<const float4 *>(p)[i4];
// CHECK-NEXT:     {
// CHECK-NEXT:       p4.x = p4.x * s;
// CHECK:          reinterpret_cast<float4 *>(p)[i4] = p4;

// Stores conditionally: the elements not stored keep the values loaded.
__global__ void clamp(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (x[i] > 0)
      y[i] = x[i];
  }
}
// CHECK:      __global__ void clamp(const float *x, float *y, int n) {
// CHECK-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:          const float4 x4 = reinterpret_cast<const float4 *>(x)[i4];
// CHECK-NEXT:     float4 y4 = reinterpret_cast<const float4 *>(y)[i4];
// CHECK-NEXT:     {
// CHECK-NEXT:       if (x4.x > 0)
// CHECK-NEXT:         y4.x = x4.x;
// CHECK-NEXT:     }
// CHECK:          reinterpret_cast<float4 *>(y)[i4] = y4;

// Doubles are not vectorised.
__global__ void twice(const double *x, double *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2 * x[i];
}
// CHECK:      __global__ void twice(const double *x, double *y, int n) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// Launched with a grid that does not cover n.
__global__ void partial(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = -x[i];
}
// CHECK:      __global__ void partial(const float *x, float *y, int n) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

void run(float *x, float *y, float *z, int n) {
  const int Block = 256;
  int grid = (n + Block - 1) / Block;
  axpb<<<grid, Block>>>(x, y, 2.0f, n);
  add<<<(n + 127) / 128, 128>>>(x, y, z, n);
  iota<<<(n + 255) / 256, 256>>>(y, n);
  scale<<<(n + 255) / 256, 256>>>(y, 2.0f, n);
  clamp<<<(n + 255) / 256, 256>>>(x, y, n);
  twice<<<(n + 255) / 256, 256>>>((double *)x, (double *)y, n);
  partial<<<n / 256, 256>>>(x, y, n);
}
// CHECK:      void run(float *x, float *y, float *z, int n) {
// CHECK-NEXT:   const int Block = 256;
// CHECK-NEXT:   int grid = (n + Block - 1) / Block;
// CHECK-NEXT:   axpb<<<((n + 3) / 4 + Block - 1) / Block, Block>>>(x, y, 2.0f, n);
// CHECK-NEXT:   add<<<((n + 3) / 4 + 128 - 1) / 128, 128>>>(x, y, z, n);
// CHECK-NEXT:   iota<<<((n + 3) / 4 + 256 - 1) / 256, 256>>>(y, n);
// CHECK-NEXT:   scale<<<((n + 3) / 4 + 256 - 1) / 256, 256>>>(y, 2.0f, n);
// CHECK-NEXT:   clamp<<<((n + 3) / 4 + 256 - 1) / 256, 256>>>(x, y, n);
// CHECK-NEXT:   twice<<<(n + 255) / 256, 256>>>((double *)x, (double *)y, n);
// CHECK-NEXT:   partial<<<n / 256, 256>>>(x, y, n);
// CHECK-NEXT: }

// DIFF:      # vectorize-float4 on kernel axpb
// DIFF:      -  int i = blockIdx.x * blockDim.x + threadIdx.x;
// DIFF:      +  int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// DIFF:      -  axpb<<<grid, Block>>>(x, y, 2.0f, n);
// DIFF-NEXT: +  axpb<<<((n + 3) / 4 + Block - 1) / Block, Block>>>(x, y, 2.0f, n);
// DIFF:      # vectorize-float4 on kernel add
// DIFF:      # vectorize-float4 on kernel scale
// DIFF:      # vectorize-float4 on kernel clamp
// DIFF-NOT:  on kernel

// YAML-COUNT-10: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel axpb at {{.*}}
// LIST-NEXT:   vectorize-float4: make each thread of an element-wise float kernel handle four elements with float4 loads and stores, and divide a grid of one thread per index by four
// LIST-NEXT:     trigger: needs gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed, smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
// LIST-NEXT: kernel add at {{.*}}
// LIST-NEXT:   vectorize-float4: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel iota at {{.*}}
// LIST-NEXT:   vectorize-float4: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel scale at {{.*}}
// LIST-NEXT:   vectorize-float4: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel clamp at {{.*}}
// LIST-NEXT:   vectorize-float4: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel twice at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel partial at {{.*}}
// LIST-NEXT:   no proposal
