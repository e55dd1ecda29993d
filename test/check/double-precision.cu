// autoprof-double-precision: double literals and math functions that make
// float arithmetic double; the fix writes float literals and functions.

// RUN: clang-autoprof check --checks='-*,autoprof-double-precision' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'
// RUN: cp %s %t.cu
// RUN: clang-autoprof check --checks='-*,autoprof-double-precision' --fix %t.cu -- -std=c++17
// RUN: FileCheck %s --check-prefix=FIX --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof check --checks='-*,autoprof-double-precision' %t.cu -- -std=c++17 \
// RUN:   | FileCheck %s --check-prefix=CLEAN --allow-empty

#include <cmath>

__global__ void gelu(const float *__restrict__ in, float *__restrict__ out) {
  float x = in[threadIdx.x];
  // CHECK: double-precision.cu:[[@LINE+2]]:13: warning: double-precision literal '0.5' makes float arithmetic double; write '0.5f' [autoprof-double-precision]
  // CHECK: double-precision.cu:[[@LINE+1]]:36: warning: double-precision literal '1.0' makes float arithmetic double; write '1.0f' [autoprof-double-precision]
  float y = 0.5 * x * (1.0f + (x > 1.0 ? 1.0f : erff(x)));
  // FIX: float y = 0.5f * x * (1.0f + (x > 1.0f ? 1.0f : erff(x)));
  // CHECK: double-precision.cu:[[@LINE+1]]:8: warning: double-precision literal '1e-3' makes float arithmetic double
  y += 1e-3;
  // FIX: y += 1e-3f;
  // CHECK: double-precision.cu:[[@LINE+1]]:11: warning: 'pow' computes in double precision on a float argument; call 'powf' [autoprof-double-precision]
  y = y + pow(x, 2.0);
  // FIX: y = y + powf(x, 2.0);
  // exp(float) is the float overload of CUDA's <cmath>: nothing to say.
  out[threadIdx.x] = y + exp(x) + std::sqrt(x);
  // FIX: out[threadIdx.x] = y + exp(x) + std::sqrt(x);
}

// Must not warn: a double kernel, a literal converted once to float, float
// literals.
__global__ void clean(const double *__restrict__ in, double *__restrict__ out,
                      float *__restrict__ f) {
  out[threadIdx.x] = in[threadIdx.x] * 2.0 + exp(in[threadIdx.x]);
  float a = 0.25;
  f[threadIdx.x] = a * 2.0f;
}

// CLEAN-NOT: warning:
