// autoprof-atomic-same-address: atomics in a loop on a global address that
// does not depend on the thread.

// RUN: clang-autoprof check --checks='-*,autoprof-atomic-same-address' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

__global__ void total(const float *__restrict__ in, float *sum, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    // CHECK: atomic-same-address.cu:[[@LINE+1]]:5: warning: atomic in a loop on a global address that does not depend on the thread: every thread serialises on it; accumulate in a register or shared memory and issue one atomic per block [autoprof-atomic-same-address]
    atomicAdd(sum, in[i]);
}

__global__ void perBlock(const int *__restrict__ in, int *counts, int n) {
  for (int k = 0; k < n; ++k)
    // CHECK: atomic-same-address.cu:[[@LINE+1]]:5: warning: atomic in a loop on a global address
    atomicAdd(&counts[blockIdx.x], in[k * blockDim.x + threadIdx.x]);
}

// Must not warn: a histogram (data-dependent bins), per-thread addresses,
// one atomic per thread outside a loop, shared-memory atomics.
__global__ void clean(const int *__restrict__ in, int *hist, int *perThread,
                      int *once, int n) {
  __shared__ int local[256];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    atomicAdd(&hist[in[i]], 1);
    atomicAdd(&perThread[threadIdx.x], 1);
    atomicAdd(&local[0], 1);
  }
  atomicAdd(once, 1);
}
