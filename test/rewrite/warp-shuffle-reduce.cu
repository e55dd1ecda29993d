// warp-shuffle-reduce: a block's shared-memory tree reduction (interleaved,
// strided or sequential) keeps sequential addressing down to 64 values and
// finishes in warp 0 with __shfl_down_sync, when every launch has a constant
// 1-D block of a power of two >= 64; not otherwise, nor when an element other
// than the first is read after the loop.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=warp-shuffle-reduce -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=warp-shuffle-reduce --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=warp-shuffle-reduce --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=warp-shuffle-reduce %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

__global__ void sumInterleaved(const float *in, float *out, int n) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
// CHECK:      __global__ void sumInterleaved(const float *in, float *out, int n) {
// CHECK:        __syncthreads();
// CHECK-NEXT:   for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
// CHECK-NEXT:     if (tid < s)
// CHECK-NEXT:       sdata[tid] += sdata[tid + s];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   // The last 64 values: warp 0 combines them with shuffles.
// CHECK-NEXT:   if (tid < 32) {
// CHECK-NEXT:     float V = sdata[tid] + sdata[tid + 32];
// CHECK-NEXT:     for (int O = 16; O > 0; O >>= 1)
// CHECK-NEXT:       V += __shfl_down_sync(0xffffffff, V, O);
// CHECK-NEXT:     if (tid == 0)
// CHECK-NEXT:       sdata[0] = V;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (tid == 0)
// CHECK-NEXT:     out[blockIdx.x] = sdata[0];
// CHECK-NEXT: }

__global__ void rowMax(const int *in, int *out, int cols) {
  __shared__ int best[256];
  int tid = threadIdx.x;
  int m = in[blockIdx.x * cols + tid];
  best[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      best[tid] = max(best[tid], best[tid + s]);
    }
    __syncthreads();
  }
  int rowBest = best[0];
  __syncthreads();
  best[tid] = rowBest - m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      best[tid] += best[tid + s];
    __syncthreads();
  }
  out[blockIdx.x * cols + tid] = best[0];
}
// CHECK:      __global__ void rowMax(const int *in, int *out, int cols) {
// CHECK:        for (int s = blockDim.x / 2; s > 32; s >>= 1) {
// CHECK-NEXT:     if (tid < s) {
// CHECK-NEXT:       best[tid] = max(best[tid], best[tid + s]);
// CHECK-NEXT:     }
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   // The last 64 values: warp 0 combines them with shuffles.
// CHECK-NEXT:   if (tid < 32) {
// CHECK-NEXT:     int V = max(best[tid], best[tid + 32]);
// CHECK-NEXT:     for (int O = 16; O > 0; O >>= 1)
// CHECK-NEXT:       V = max(V, __shfl_down_sync(0xffffffff, V, O));
// CHECK-NEXT:     if (tid == 0)
// CHECK-NEXT:       best[0] = V;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int rowBest = best[0];
// CHECK:        for (int s = blockDim.x / 2; s > 32; s >>= 1) {
// CHECK:            int V = best[tid] + best[tid + 32];
// CHECK:            V += __shfl_down_sync(0xffffffff, V, O);
// CHECK:        __syncthreads();
// CHECK-NEXT:   out[blockIdx.x * cols + tid] = best[0];

// Strided indices, unsigned sums.
__global__ void strided(unsigned *out) {
  __shared__ unsigned count[1024];
  int tid = threadIdx.x;
  count[tid] = tid & 3;
  __syncthreads();
  for (int s = 1; s < blockDim.x; s <<= 1) {
    int index = tid * (2 * s);
    if (index < blockDim.x)
      count[index] += count[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = count[0];
}
// CHECK:      __global__ void strided(unsigned *out) {
// CHECK:        for (int s = blockDim.x / 2; s > 32; s >>= 1) {
// CHECK-NEXT:     int index = tid;
// CHECK-NEXT:     if (index < s)
// CHECK-NEXT:       count[index] += count[index + s];
// CHECK-NEXT:     __syncthreads();
// CHECK-NEXT:   }
// CHECK-NEXT:   // The last 64 values: warp 0 combines them with shuffles.
// CHECK-NEXT:   if (tid < 32) {
// CHECK-NEXT:     unsigned int V = count[tid] + count[tid + 32];
// CHECK-NEXT:     for (int O = 16; O > 0; O >>= 1)
// CHECK-NEXT:       V += __shfl_down_sync(0xffffffff, V, O);
// CHECK-NEXT:     if (tid == 0)
// CHECK-NEXT:       count[0] = V;
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   if (tid == 0)
// CHECK-NEXT:     out[blockIdx.x] = count[0];

// Reads its own element after the loop.
__global__ void readsOwn(float *out) {
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[tid] = sdata[tid];
}
// CHECK:      __global__ void readsOwn(float *out) {
// CHECK-NOT:    __shfl_down_sync
// CHECK:        for (int s = blockDim.x / 2; s > 0; s >>= 1) {

// Launched with 32 threads: a single warp.
__global__ void oneWarp(float *out) {
  __shared__ float sdata[32];
  int tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[0] = sdata[0];
}
// CHECK:      __global__ void oneWarp(float *out) {
// CHECK-NOT:    __shfl_down_sync
// CHECK:        for (int s = blockDim.x / 2; s > 0; s >>= 1) {

// Launched with a block size known only at run time.
__global__ void runtimeBlock(float *out) {
  extern __shared__ float sdata[];
  int tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (int s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  out[0] = sdata[0];
}
// CHECK:      __global__ void runtimeBlock(float *out) {
// CHECK-NOT:    __shfl_down_sync
// CHECK:        for (int s = 1; s < blockDim.x; s *= 2) {

// A product, not a sum.
__global__ void product(float *out) {
  __shared__ float sdata[128];
  int tid = threadIdx.x;
  sdata[tid] = tid;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] *= sdata[tid + s];
    __syncthreads();
  }
  out[0] = sdata[0];
}
// CHECK:      __global__ void product(float *out) {
// CHECK-NOT:    __shfl_down_sync
// CHECK:        for (int s = blockDim.x / 2; s > 0; s >>= 1) {

void run(const float *in, float *out, const int *iin, int *iout, int n,
         int block) {
  constexpr int Block = 512;
  sumInterleaved<<<(n + Block - 1) / Block, Block, Block * sizeof(float)>>>(in, out, n);
  rowMax<<<n, dim3(256)>>>(iin, iout, 256);
  strided<<<n, 1024>>>((unsigned *)iout);
  readsOwn<<<1, 128>>>(out);
  oneWarp<<<1, 32>>>(out);
  runtimeBlock<<<1, block, block * sizeof(float)>>>(out);
  product<<<1, 128>>>(out);
}

// DIFF:      # warp-shuffle-reduce on kernel sumInterleaved
// DIFF:      -  for (unsigned s = 1; s < blockDim.x; s *= 2) {
// DIFF-NEXT: -    if (tid % (2 * s) == 0)
// DIFF-NEXT: +  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
// DIFF-NEXT: +    if (tid < s)
// DIFF:      # warp-shuffle-reduce on kernel rowMax
// DIFF:      # warp-shuffle-reduce on kernel strided
// DIFF-NOT:  on kernel

// YAML-COUNT-15: ReplacementText: {{.*}}
// YAML-NOT:      ReplacementText

// LIST:      kernel sumInterleaved at {{.*}}
// LIST-NEXT:   warp-shuffle-reduce: reduce a __shared__ array with sequential addressing down to 64 values, then in one warp with __shfl_down_sync
// LIST-NEXT:     trigger: needs smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio, derived__branch_uniformity_pct, smsp__average_thread_inst_executed_per_inst_executed.ratio, derived__shared_bank_conflict_pct
// LIST-NEXT: kernel rowMax at {{.*}}
// LIST-NEXT:   warp-shuffle-reduce: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel strided at {{.*}}
// LIST-NEXT:   warp-shuffle-reduce: {{.*}}
// LIST-NEXT:     trigger: {{.*}}
// LIST-NEXT: kernel readsOwn at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel oneWarp at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel runtimeBlock at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel product at {{.*}}
// LIST-NEXT:   no proposal
