// autoprof-missing-bounds-check: a global thread index used without a
// bounds check, in a kernel whose launch rounds the grid up.

// RUN: clang-autoprof check --checks='-*,autoprof-missing-bounds-check' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

__global__ void scale(const float *__restrict__ in, float *__restrict__ out,
                      float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: missing-bounds-check.cu:[[@LINE+1]]:3: warning: 'out[i]' is indexed by the global thread index without a bounds check, but the launch on line {{[0-9]+}} rounds the grid up ('(n + 255) / 256'): threads of the last block access past the end (1 more in 'scale') [autoprof-missing-bounds-check]
  out[i] = a * in[i];
}

__global__ void inline2d(float *__restrict__ m, int cols) {
  // CHECK: missing-bounds-check.cu:[[@LINE+1]]:3: warning: 'm[(blockIdx.y * blockDim.y + threadIdx.y) * cols + blockIdx.x * blockDim.x + threadIdx.x]' is indexed by the global thread index without a bounds check, but the launch on line {{[0-9]+}} rounds the grid up ('(cols + 15) / 16')
  m[(blockIdx.y * blockDim.y + threadIdx.y) * cols + blockIdx.x * blockDim.x + threadIdx.x] = 0.0f;
}

// Must not warn: guarded by an if, by an early return, by a grid-stride
// loop's condition; an unguarded kernel whose grid does not round up.
__global__ void guarded(const float *__restrict__ in, float *__restrict__ out,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    out[i] = v;
  }
}
__global__ void early(float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = 1.0f;
}
__global__ void strided(float *__restrict__ out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = 1.0f;
}
__global__ void exact(float *__restrict__ out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// Guards by value, whatever their spelling: must not warn.
#define LEN (1 << 20)
__global__ void negated(float *__restrict__ out, int n) {
  const unsigned t = threadIdx.x, b = blockIdx.x;
  unsigned long long g = (unsigned long long)b * blockDim.x + t;
  if (!(g < (unsigned long long)n))
    return;
  out[g] = 1.0f;
}
__global__ void swapped(float *__restrict__ out) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (LEN <= i)
    return;
  out[i] = 1.0f;
}
__global__ void elseBranch(float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
  } else {
    out[i] = 1.0f;
  }
}
__global__ void eitherExit(float *__restrict__ out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || m <= 0)
    return;
  out[i] = 1.0f;
}

// A condition that bounds nothing is no guard: must warn.
__global__ void lowerOnly(float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 0)
    // CHECK: missing-bounds-check.cu:[[@LINE+1]]:5: warning: 'out[i]' is indexed by the global thread index without a bounds check
    out[i] = 1.0f;
}
__global__ void boundsNothing(float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x + blockIdx.x > 0 || n < 0)
    // CHECK: missing-bounds-check.cu:[[@LINE+1]]:5: warning: 'out[i]' is indexed by the global thread index without a bounds check
    out[i] = 1.0f;
}

void launch(float *a, float *b, int n, int rows, int cols) {
  scale<<<(n + 255) / 256, 256>>>(a, b, 2.0f);
  dim3 block(16, 16);
  dim3 grid((cols + 15) / 16, (rows + 15) / 16);
  inline2d<<<grid, block>>>(a, cols);
  int blocks = (n + 256 - 1) / 256;
  guarded<<<blocks, 256>>>(a, b, n);
  early<<<blocks, 256>>>(b, n);
  strided<<<blocks, 256>>>(b, n);
  exact<<<n / 256, 256>>>(b);
  negated<<<blocks, 256>>>(b, n);
  swapped<<<(LEN + 255) / 256, 256>>>(b);
  elseBranch<<<blocks, 256>>>(b, n);
  eitherExit<<<blocks, 256>>>(b, n, 1);
  lowerOnly<<<blocks, 256>>>(b);
  boundsNothing<<<blocks, 256>>>(b, n);
}
