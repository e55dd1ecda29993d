// autoprof-missing-restrict: pointer parameters only read through lack
// const __restrict__; the fix adds what is missing.

// RUN: clang-autoprof check --checks='-*,autoprof-missing-restrict' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cp %s %t.cu
// RUN: clang-autoprof check --checks='-*,autoprof-missing-restrict' --fix %t.cu -- -std=c++17
// RUN: FileCheck %s --check-prefix=FIX --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null

// CHECK: missing-restrict.cu:[[@LINE+2]]:30: warning: pointer parameter 'x' is only read through; declare it 'const float *__restrict__' [autoprof-missing-restrict]
// CHECK: missing-restrict.cu:[[@LINE+1]]:56: warning: pointer parameter 'scale' is only read through; declare it 'const float *__restrict__' [autoprof-missing-restrict]
__global__ void saxpy(float *x, float *y, const float *scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = *scale * x[i] + y[i];
}
// FIX: __global__ void saxpy(const float *__restrict__ x, float *y, const float *__restrict__ scale, int n) {

// Must not warn: written, atomically updated, escaping, unused, already
// const __restrict__.
__device__ void store(float *p) { *p = 0.0f; }
__global__ void written(float *a, float *b, int *c, float *d, float *e,
                        const float *__restrict__ f, float *unused) {
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] += 2.0f;
  atomicAdd(c, 1);
  store(d);
  float *alias = e;
  alias[0] = f[0];
}
// FIX: __global__ void written(float *a, float *b, int *c, float *d, float *e,
// FIX-NEXT:                         const float *__restrict__ f, float *unused) {
