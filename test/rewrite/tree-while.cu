// Tree reductions written as `while` loops whose last statement halves
// or doubles the stride get the same shuffle rewrite as the `for` loops:
// the loop stops at 64 values and warp 0 finishes with shuffles; the
// doubling loop is turned into sequential addressing.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-shuffle-reduce -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#define BLOCK 256

// Sequential addressing in a `while` loop that halves its stride.
__global__ void sumWhile(const float *in, float *out, int n) {
  __shared__ float part[BLOCK];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  part[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  int stride = blockDim.x / 2;
  while (stride > 0) {
    if (t < stride)
      part[t] += part[t + stride];
    __syncthreads();
    stride >>= 1;
  }
  if (t == 0)
    out[blockIdx.x] = part[0];
}

// CHECK-LABEL: __global__ void sumWhile(
// CHECK:         while (stride > 32) {
// CHECK:           stride >>= 1;
// CHECK-NEXT:    }
// CHECK-NEXT:    // The last 64 values: warp 0 combines them with shuffles.
// CHECK-NEXT:    if (t < 32) {
// CHECK-NEXT:      float V = part[t] + part[t + 32];

// Interleaved addressing in a `while` loop that doubles it.
__global__ void maxWhile(const float *in, float *out, int n) {
  __shared__ float part[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  part[t] = i < n ? in[i] : -1e30f;
  __syncthreads();
  unsigned s = 1;
  while (s < blockDim.x) {
    if (t % (2 * s) == 0)
      part[t] = fmaxf(part[t], part[t + s]);
    __syncthreads();
    s *= 2;
  }
  if (t == 0)
    out[blockIdx.x] = part[0];
}

// CHECK-LABEL: __global__ void maxWhile(
// CHECK:         unsigned s = blockDim.x / 2;
// CHECK-NEXT:    while (s > 32) {
// CHECK-NEXT:      if (t < s)
// CHECK:           s >>= 1;
// CHECK-NEXT:    }
// CHECK:           V = fmaxf(V, __shfl_down_sync(0xffffffff, V, O));

int main() {
  float *in, *out;
  int n = 1 << 20;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / BLOCK) * sizeof(float));
  sumWhile<<<n / BLOCK, BLOCK>>>(in, out, n);
  maxWhile<<<n / BLOCK, BLOCK>>>(in, out, n);
  cudaDeviceSynchronize();
  return 0;
}
