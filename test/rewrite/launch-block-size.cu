// launch-block-size: every launch of a kernel of one thread per index gets
// blocks of 128, 256 or 512 threads, one proposal each, and a grid that
// still covers its bound (grid-stride loops keep their number of threads
// when the block shrinks); a size every launch has already is not proposed,
// and kernels that use the block otherwise are left alone. A launch whose
// grid does not provably cover the bound (rounded down) keeps exactly its
// threads: the new block is used when they divide by it, checked at run
// time (test/rewrite/block-shape-same-threads.cu).

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

#define BS 512

__global__ void relu(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(in[i], 0.0f);
}

__global__ void scale(float *p, float s, unsigned n) {
  unsigned i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i >= n)
    return;
  p[i] *= s;
}

__global__ void copy(const float *in, float *out, size_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += stride)
    out[i] = in[i];
}

// Uses the block beyond the index.
__global__ void lane(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = threadIdx.x;
}

// Shares data within the block.
__global__ void shifted(const float *in, float *out, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    buf[threadIdx.x] = in[i];
    out[i] = buf[threadIdx.x];
  }
}

// No bound on the index.
__global__ void unguarded(float *p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 0;
}

__global__ void floor_grid(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1;
}

__global__ void runtime_block(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 2;
}

__global__ void already(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 3;
}

void run(const float *in, float *out, int n, int b) {
  constexpr int BlockSize = 256;
  int grid = (n + BlockSize - 1) / BlockSize;
  relu<<<grid, BlockSize>>>(in, out, n);
  relu<<<(n + BS - 1) / BS, BS>>>(in, out, n);
  scale<<<(n + 255) / 256, 256, 0>>>(out, 2.0f, n);
  copy<<<132 * 8, 256>>>(in, out, n);
  lane<<<(n + 255) / 256, 256>>>((int *)out, n);
  shifted<<<(n + 255) / 256, 256>>>(in, out, n);
  unguarded<<<n / 256, 256>>>(out);
  floor_grid<<<n / 256, 256>>>(out, n);
  runtime_block<<<(n + 255) / 256, 256>>>(out, n);
  runtime_block<<<(n + b - 1) / b, b>>>(out, n);
  already<<<(n + 127) / 128, 128>>>(out, n);
}
// CHECK:      void run(const float *in, float *out, int n, int b) {
// CHECK-NEXT:   constexpr int BlockSize = 256;
// CHECK-NEXT:   int grid = (n + BlockSize - 1) / BlockSize;
// CHECK-NEXT:   relu<<<(n + 128 - 1) / 128, 128>>>(in, out, n);
// CHECK-NEXT:   relu<<<(n + 128 - 1) / 128, 128>>>(in, out, n);
// CHECK-NEXT:   scale<<<(n + 128 - 1) / 128, 128, 0>>>(out, 2.0f, n);
// CHECK-NEXT:   copy<<<(132 * 8) * 2, 128>>>(in, out, n);
// CHECK-NEXT:   lane<<<(n + 255) / 256, 256>>>((int *)out, n);
// CHECK-NEXT:   shifted<<<(n + 255) / 256, 256>>>(in, out, n);
// CHECK-NEXT:   unguarded<<<n / 256, 256>>>(out);
// CHECK-NEXT:   [&]() {
// CHECK-NEXT:     const dim3 autoprof_grid_(n / 256);
// CHECK-NEXT:     const unsigned long long autoprof_x_ = (unsigned long long)autoprof_grid_.x * 256, autoprof_y_ = (unsigned long long)autoprof_grid_.y * 1;
// CHECK-NEXT:     if (autoprof_x_ % 128 == 0 && autoprof_y_ % 1 == 0 && autoprof_y_ / 1 <= 65535)
// CHECK-NEXT:       floor_grid<<<dim3((unsigned)(autoprof_x_ / 128), (unsigned)(autoprof_y_ / 1), autoprof_grid_.z), dim3(128, 1)>>>(out, n);
// CHECK-NEXT:     else
// CHECK-NEXT:       floor_grid<<<autoprof_grid_, 256>>>(out, n);
// CHECK-NEXT:   }();
// CHECK-NEXT:   runtime_block<<<(n + 255) / 256, 256>>>(out, n);
// CHECK-NEXT:   runtime_block<<<(n + b - 1) / b, b>>>(out, n);
// CHECK-NEXT:   already<<<(n + 256 - 1) / 256, 256>>>(out, n);
// CHECK-NEXT: }

// DIFF:      # launch-block-size(128) on kernel relu
// DIFF:      -  relu<<<grid, BlockSize>>>(in, out, n);
// DIFF-NEXT: -  relu<<<(n + BS - 1) / BS, BS>>>(in, out, n);
// DIFF-NEXT: +  relu<<<(n + 128 - 1) / 128, 128>>>(in, out, n);
// DIFF-NEXT: +  relu<<<(n + 128 - 1) / 128, 128>>>(in, out, n);
// A launch that has the size already stays as it is.
// DIFF:      # launch-block-size(256) on kernel relu
// DIFF-NOT:  -  relu<<<grid, BlockSize>>>(in, out, n);
// DIFF:      -  relu<<<(n + BS - 1) / BS, BS>>>(in, out, n);
// DIFF-NEXT: +  relu<<<(n + 256 - 1) / 256, 256>>>(in, out, n);
// DIFF:      # launch-block-size(512) on kernel relu
// DIFF:      -  relu<<<grid, BlockSize>>>(in, out, n);
// DIFF-NEXT: +  relu<<<(n + 512 - 1) / 512, 512>>>(in, out, n);
// DIFF-NOT:  -  relu<<<(n + BS - 1) / BS, BS>>>(in, out, n);
// DIFF:      # launch-block-size(128) on kernel scale
// DIFF:      -  scale<<<(n + 255) / 256, 256, 0>>>(out, 2.0f, n);
// DIFF-NEXT: +  scale<<<(n + 128 - 1) / 128, 128, 0>>>(out, 2.0f, n);
// DIFF-NOT:  launch-block-size(256) on kernel scale
// DIFF:      # launch-block-size(512) on kernel scale
// DIFF:      -  scale<<<(n + 255) / 256, 256, 0>>>(out, 2.0f, n);
// DIFF-NEXT: +  scale<<<(n + 512 - 1) / 512, 512, 0>>>(out, 2.0f, n);
// DIFF:      # launch-block-size(128) on kernel copy
// DIFF:      -  copy<<<132 * 8, 256>>>(in, out, n);
// DIFF-NEXT: +  copy<<<(132 * 8) * 2, 128>>>(in, out, n);
// A grid-stride loop covers its bound with any grid.
// DIFF:      # launch-block-size(512) on kernel copy
// DIFF:      -  copy<<<132 * 8, 256>>>(in, out, n);
// DIFF-NEXT: +  copy<<<132 * 8, 512>>>(in, out, n);
// DIFF:      # launch-block-size(256) on kernel already
// DIFF:      -  already<<<(n + 127) / 128, 128>>>(out, n);
// DIFF-NEXT: +  already<<<(n + 256 - 1) / 256, 256>>>(out, n);
// DIFF:      # launch-block-size(512) on kernel already
// DIFF-NOT:  on kernel

// YAML-COUNT-11: ReplacementText: {{.*}}
// YAML-NOT:     ReplacementText

// LIST:      kernel relu at {{.*}}
// LIST-NEXT:   launch-block-size(128): launch a kernel of one thread per index with blocks of another size and a grid that still covers its bound
// LIST-NEXT:     trigger: needs sm__warps_active.avg.pct_of_peak_sustained_active, launch__occupancy_limit_blocks, launch__occupancy_limit_warps, launch__waves_per_multiprocessor
// LIST-NEXT:   launch-block-size(256): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   launch-block-size(512): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel scale at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   launch-block-size(512): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel copy at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   launch-block-size(512): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel lane at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel shifted at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel unguarded at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel floor_grid at {{.*}}
// LIST-NEXT:   launch-block-size(128): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   launch-block-size(512): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel runtime_block at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel already at {{.*}}
// LIST-NEXT:   launch-block-size(256): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT:   launch-block-size(512): {{.*}}
// LIST-NEXT:     trigger: {{.*}}
