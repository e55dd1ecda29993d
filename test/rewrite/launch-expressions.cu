// Launches whose bound argument is an expression of host locals
// (`rows * cols`) or a cast of one (`(int)m`): the grid covers the bound
// when their values, through the same locals, say so, and vectorize-float4
// rewrites the grid from the bound as passed. A grid that falls one
// element short is refused.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: FileCheck %s --input-file=%t.cu --check-prefix=VEC
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void scale(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

__global__ void shift(float *y, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + 1.0f;
}

// WHY-LABEL: kernel scale at {{.*}}
// WHY:         vectorize-float4: make each thread
// WHY-LABEL: kernel shift at {{.*}}
// WHY:         vectorize-float4: not applied: the launch at line [[@LINE+15]] has a grid that does not provably cover the bound `n`

int main() {
  int rows = 1024, cols = 1024;
  unsigned m = 1u << 20;
  float *x, *y;
  cudaMalloc(&x, sizeof(float) * rows * cols);
  cudaMalloc(&y, sizeof(float) * rows * cols);
  scale<<<(rows * cols + 255) / 256, 256>>>(y, x, rows * cols);
  // VEC: scale<<<(((rows * cols) + 3) / 4 + 256 - 1) / 256, 256>>>(y, x, rows * cols);
  scale<<<(m + 255) / 256, 256>>>(y, x, (int)m);
  // VEC: scale<<<((((int)m) + 3) / 4 + 256 - 1) / 256, 256>>>(y, x, (int)m);
  const int threads = 128;
  scale<<<rows * cols / threads, threads>>>(y, x, rows * cols);
  // VEC: scale<<<(((rows * cols) + 3) / 4 + threads - 1) / threads, threads>>>(y, x, rows * cols);
  shift<<<rows * cols / 256, 256>>>(y, x, rows * cols + 1);
  cudaDeviceSynchronize();
  return 0;
}
