// Arithmetic: fp32 and fp64 flops (operators and fmaf/fma, fminf/fmaxf/fabs),
// integer operations, divisions, transcendentals versus fast intrinsics, and
// the loop weighting rule (10 per nesting level).

// RUN: clang-autoprof features %s --kernel='^fp32$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=FP32
// RUN: clang-autoprof features %s --kernel='^fp64_literal$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LIT64
// RUN: clang-autoprof features %s --kernel='^fp64$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=FP64
// RUN: clang-autoprof features %s --kernel='^intops$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=INT
// RUN: clang-autoprof features %s --kernel='^weighted$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=WEIGHT
// RUN: clang-autoprof features %s --kernel='^transcendental$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=TRANS
// RUN: clang-autoprof features %s --kernel='^fast_math$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=FAST

#include <cmath>

// 2 (* +) + 1 (-=) + 1 (/=) + 2 (fmaf) + 1 (fmaxf) + 1 (fabsf) + 1 (++)
// float flops; one division; no integer operation.
__global__ void fp32(const float *a, float *b) {
  int i = threadIdx.x;
  float x = a[i];
  float y = x * 2.0f + 1.0f;
  y -= x;
  y /= 3.0f;
  y = fmaf(x, y, 1.0f);
  y = fmaxf(y, 0.0f);
  y = fabsf(y);
  y++;
  b[i] = y;
}
// FP32-LABEL: kernel fp32 at {{.*}}
// FP32:      flops_fp32: 9
// FP32-NEXT: flops_fp64: 0
// FP32-NEXT: flops_fp16: 0
// FP32-NEXT: int_ops: 0
// FP32-NEXT: divisions: 1
// FP32-NEXT: transcendentals: 0
// FP32-NEXT: fast_intrinsics: 0
// FP32-NEXT: uses_tensor_cores: 0

// The double literals promote the float: both operations are fp64.
__global__ void fp64_literal(const float *a, float *b) {
  float x = a[threadIdx.x];
  b[threadIdx.x] = x * 2.0 + 1.0;
}
// LIT64-LABEL: kernel fp64_literal at {{.*}}
// LIT64:      flops_fp32: 0
// LIT64-NEXT: flops_fp64: 2
// LIT64-NEXT: flops_fp16: 0
// LIT64-NEXT: int_ops: 0
// LIT64-NEXT: divisions: 0

// 1 (*) + 2 (fma) + 1 (fabs) + 1 (fmin) + 1 (--) double flops; a multiply
// by 0.5 is no division.
__global__ void fp64(const double *a, double *b) {
  double d = a[threadIdx.x] * 0.5;
  d = fma(d, d, 1.0);
  d = fabs(d);
  d = fmin(d, 4.0);
  d--;
  b[threadIdx.x] = d;
}
// FP64-LABEL: kernel fp64 at {{.*}}
// FP64:      flops_fp32: 0
// FP64-NEXT: flops_fp64: 6
// FP64-NEXT: flops_fp16: 0
// FP64-NEXT: int_ops: 0
// FP64-NEXT: divisions: 0

// 2 (index) + 3 (<< ^ &) + 1 (%=) + 1 (/=) + 1 (|) + 1 (++) integer
// operations; two of them divisions; no flops.
__global__ void intops(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = (i << 2) ^ (n & 7);
  r %= 5;
  r /= n;
  r++;
  out[i] = r | 1;
}
// INT-LABEL: kernel intops at {{.*}}
// INT:      flops_fp32: 0
// INT-NEXT: flops_fp64: 0
// INT-NEXT: flops_fp16: 0
// INT-NEXT: int_ops: 9
// INT-NEXT: divisions: 2

// An fp32 operation counts 1 outside loops, 10 in a loop and 100 in a doubly
// nested loop: 1 + 10 + 100 fp32 flops. Integer ++i (10) and ++j (100).
// Global accesses: a[j] at depth 2 (100), b[0] (1): intensity 111 / 101.
__global__ void weighted(const float *a, float *b, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j)
      s += a[j];
    s *= 0.5f;
  }
  b[0] = s - 1.0f;
}
// WEIGHT-LABEL: kernel weighted at {{.*}}
// WEIGHT:      global_loads: 1
// WEIGHT-NEXT: global_stores: 1
// WEIGHT-NEXT: global_loads_in_loops: 1
// WEIGHT-NEXT: global_stores_in_loops: 0
// WEIGHT:      loops: 2
// WEIGHT-NEXT: max_loop_depth: 2
// WEIGHT:      flops_fp32: 111
// WEIGHT-NEXT: flops_fp64: 0
// WEIGHT-NEXT: flops_fp16: 0
// WEIGHT-NEXT: int_ops: 110
// WEIGHT-NEXT: divisions: 0
// WEIGHT:      arithmetic_intensity_estimate: 1.099

// expf, sinf, sqrtf, powf, rsqrtf, log, std::cos, and tanhf in a loop
// (weight 10): 17 transcendentals, no fast intrinsics.
__global__ void transcendental(const float *a, float *b, const double *d) {
  float x = a[threadIdx.x];
  float y = expf(x) + sinf(x) + sqrtf(x) + powf(x, 2.0f) + rsqrtf(x);
  double z = log(d[0]) + std::cos(d[1]);
  b[threadIdx.x] = y + (float)z;
  for (int i = 0; i < 4; ++i)
    b[i] = tanhf(b[i]);
}
// TRANS-LABEL: kernel transcendental at {{.*}}
// TRANS:      transcendentals: 17
// TRANS-NEXT: fast_intrinsics: 0

// __expf, __sinf, __logf, __fdividef (no division), __saturatef,
// __fsqrt_rn: 6 fast intrinsics, no transcendentals.
__global__ void fast_math(const float *a, float *b) {
  float x = a[threadIdx.x];
  float y = __expf(x) + __sinf(x) + __logf(x);
  y = __fdividef(y, x);
  y = __saturatef(y);
  b[threadIdx.x] = __fsqrt_rn(y);
}
// FAST-LABEL: kernel fast_math at {{.*}}
// FAST:      flops_fp32: 2
// FAST-NEXT: flops_fp64: 0
// FAST-NEXT: flops_fp16: 0
// FAST-NEXT: int_ops: 0
// FAST-NEXT: divisions: 0
// FAST-NEXT: transcendentals: 0
// FAST-NEXT: fast_intrinsics: 6
