// autoprof-divergent-syncthreads: __syncthreads() under a branch or loop
// whose condition depends on the thread. Its findings are errors: exit 1.

// RUN: clang-autoprof check --checks='-*,autoprof-divergent-syncthreads' %s -- -std=c++17 > %t.out; test $? -eq 1
// RUN: FileCheck %s --implicit-check-not='error:' --input-file=%t.out

__global__ void halfBlock(float *__restrict__ out) {
  __shared__ float s[256];
  if (threadIdx.x < 128) {
    s[threadIdx.x] = 1.0f;
    // CHECK: divergent-syncthreads.cu:[[@LINE+1]]:5: error: '__syncthreads()' under a condition that depends on the thread (line [[@LINE-2]]): the threads that skip it make the barrier hang or not synchronise [autoprof-divergent-syncthreads]
    __syncthreads();
  }
  out[threadIdx.x] = s[threadIdx.x];
}

__global__ void gridStride(const float *__restrict__ in, float *__restrict__ out,
                           int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
    s[tid] = in[i];
    // CHECK: divergent-syncthreads.cu:[[@LINE+1]]:5: error: '__syncthreads()' under a condition that depends on the thread
    __syncthreads();
    out[i] = s[(tid + 1) % 256];
  }
}

__global__ void earlyExit(const float *__restrict__ in, float *__restrict__ out,
                          int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = in[i];
  // CHECK: divergent-syncthreads.cu:[[@LINE+1]]:3: error: '__syncthreads()' after a return that only some threads take (line [[#@LINE-2]], under the condition on line [[#@LINE-3]]): the threads that returned never reach the barrier [autoprof-divergent-syncthreads]
  __syncthreads();
  out[i] = s[255 - threadIdx.x];
}

// Must not warn: returns taken by whole blocks or after the last barrier.
__global__ void uniformExit(float *__restrict__ out, int n) {
  __shared__ float s[256];
  if (blockIdx.x * blockDim.x >= n)
    return;
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  if (threadIdx.x > 0)
    return;
  out[0] = s[1];
}

// Must not warn: barriers under block-uniform conditions and loops, and
// thread-dependent branches that close before the barrier.
__global__ void reduce(const float *__restrict__ in, float *__restrict__ out,
                       int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = tid < n ? in[tid] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (blockIdx.x == 0) {
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
