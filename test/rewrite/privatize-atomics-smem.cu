// privatize-atomics-smem: a kernel whose threads add atomically into a small
// array of global counters adds into a per-block copy in shared memory
// instead, strides over a grid capped at 1024 blocks, and adds the copy's
// non-zero entries to the counters once per block; an index without a
// static bound uses a copy of 4096 entries and the global counters beyond
// it. Kernels that read the counters, use the value of the addition, or
// return early in their work are left alone.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

__global__ void histogram(const unsigned char *data, unsigned int *bins,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}
// CHECK:      __global__ void histogram(const unsigned char *data, unsigned int *bins,
// CHECK-NEXT:                           int n) {
// CHECK-NEXT:   // Each block adds into its own copy of bins in shared memory
// CHECK-NEXT:   // and adds the copy to it once, at the end.
// CHECK-NEXT:   __shared__ unsigned int binsBlock[256];
// CHECK-NEXT:   for (int E = threadIdx.x; E < 256; E += blockDim.x)
// CHECK-NEXT:     binsBlock[E] = 0;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
// CHECK-NEXT:        i += gridDim.x * blockDim.x)
// CHECK-NEXT:     atomicAdd(&binsBlock[data[i]], 1u);
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int E = threadIdx.x; E < 256; E += blockDim.x)
// CHECK-NEXT:     if (binsBlock[E] != 0)
// CHECK-NEXT:       atomicAdd(&bins[E], binsBlock[E]);
// CHECK-NEXT: }

// Two additions of 64 bins, after an early exit; the name E is taken.
__global__ void pairs(const int *v, int *counts, int n) {
  int E = threadIdx.x + blockIdx.x * blockDim.x;
  if (E >= n)
    return;
  int x = v[E];
  atomicAdd(&counts[x & 63], 1);

  atomicAdd(&counts[(unsigned)x % 64u], 2);
}
// CHECK:      __global__ void pairs(const int *v, int *counts, int n) {
// CHECK-NEXT:   // Each block adds into its own copy of counts in shared memory
// CHECK-NEXT:   // and adds the copy to it once, at the end.
// CHECK-NEXT:   __shared__ int countsBlock[64];
// CHECK-NEXT:   for (int E_ = threadIdx.x; E_ < 64; E_ += blockDim.x)
// CHECK-NEXT:     countsBlock[E_] = 0;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int E = threadIdx.x + blockIdx.x * blockDim.x; E < n;
// CHECK-NEXT:        E += gridDim.x * blockDim.x) {
// CHECK-NEXT:     int x = v[E];
// CHECK-NEXT:     atomicAdd(&countsBlock[x & 63], 1);
// CHECK-EMPTY:
// CHECK-NEXT:     atomicAdd(&countsBlock[(unsigned)x % 64u], 2);
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int E_ = threadIdx.x; E_ < 64; E_ += blockDim.x)
// CHECK-NEXT:     if (countsBlock[E_] != 0)
// CHECK-NEXT:       atomicAdd(&counts[E_], countsBlock[E_]);
// CHECK-NEXT: }

// A scatter-add whose indices have no static bound.
__global__ void scatter(const int *idx, const float *val, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&out[idx[i]], val[i]);
  }
}
// CHECK:      __global__ void scatter(const int *idx, const float *val, float *out, int n) {
// CHECK:        __shared__ float outBlock[4096];
// CHECK:        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
// CHECK-NEXT:        i += gridDim.x * blockDim.x) {
// CHECK-NEXT:     ((unsigned long long)(idx[i]) < 4096 ? atomicAdd(&outBlock[idx[i]], val[i]) : atomicAdd(&out[idx[i]], val[i]));
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int E = threadIdx.x; E < 4096; E += blockDim.x)
// CHECK-NEXT:     if (outBlock[E] != 0)
// CHECK-NEXT:       atomicAdd(&out[E], outBlock[E]);
// CHECK-NEXT: }

// Reads the counters it adds to.
__global__ void reads(const unsigned char *data, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && bins[0] < 10)
    atomicAdd(&bins[data[i]], 1u);
}
// CHECK:      __global__ void reads(const unsigned char *data, unsigned int *bins, int n) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// Uses the value of the addition.
__global__ void ticket(const unsigned char *data, unsigned int *bins,
                       unsigned int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = atomicAdd(&bins[data[i]], 1u);
}
// CHECK:      __global__ void ticket(const unsigned char *data, unsigned int *bins,
// CHECK-NEXT:                        unsigned int *out, int n) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

// Launched with a block size known only at run time.
__global__ void dynamic(const unsigned char *data, unsigned int *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}
// CHECK:      __global__ void dynamic(const unsigned char *data, unsigned int *bins, int n) {
// CHECK-NEXT:   int i = blockIdx.x * blockDim.x + threadIdx.x;

void run(const unsigned char *data, unsigned int *bins, const int *v, int *c,
         const int *idx, const float *val, float *out, unsigned int *o, int n,
         int block) {
  histogram<<<(n + 255) / 256, 256>>>(data, bins, n);
  pairs<<<(n + 127) / 128, 128>>>(v, c, n);
  scatter<<<(n + 255) / 256, 256>>>(idx, val, out, n);
  reads<<<(n + 255) / 256, 256>>>(data, bins, n);
  ticket<<<(n + 255) / 256, 256>>>(data, bins, o, n);
  dynamic<<<(n + block - 1) / block, block>>>(data, bins, n);
}

// DIFF:      # privatize-atomics-smem on kernel histogram
// DIFF:      -  histogram<<<(n + 255) / 256, 256>>>(data, bins, n);
// DIFF-NEXT: +  histogram<<<(((n + 255) / 256) < 1024 ? ((n + 255) / 256) : 1024), 256>>>(data, bins, n);
// DIFF:      # privatize-atomics-smem on kernel pairs
// DIFF:      # privatize-atomics-smem on kernel scatter
// DIFF-NOT:  on kernel

// YAML-COUNT-18: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel histogram at {{.*}}
// LIST-NEXT:   privatize-atomics-smem: add into a per-block copy of the atomic counters in shared memory and add each copy to the global counters once, over a grid of at most 1024 blocks
// LIST-NEXT:     trigger: needs l1tex__t_requests_pipe_lsu_mem_global_op_red.sum, l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum
// LIST-NEXT: kernel pairs at {{.*}}
// LIST-NEXT:   privatize-atomics-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel scatter at {{.*}}
// LIST-NEXT:   privatize-atomics-smem: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel reads at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel ticket at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel dynamic at {{.*}}
// LIST-NEXT:   no proposal
