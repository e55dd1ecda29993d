// Half precision: __half / __half2 operators and intrinsics (__half2 and the
// 2 forms count 2, fma forms count 2), bfloat16, and conversions to float.

// RUN: clang-autoprof features %s --kernel='^half_ops$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=HALF
// RUN: clang-autoprof features %s --kernel='^bf16_ops$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=BF16
// RUN: clang-autoprof features %s --kernel='^half_as_float$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=CONV

#include <cuda_bf16.h>
#include <cuda_fp16.h>

// __half: * and + (2), __hfma (2), __hadd (1). __half2: * (2), __hfma2 (4),
// __hmul2 in a loop (2 * 10). __half2 loads and stores are vector accesses.
__global__ void half_ops(const __half *a, const __half2 *b, __half *out,
                         __half2 *out2) {
  __half x = a[threadIdx.x];
  __half y = x * x + x;
  y = __hfma(x, y, x);
  y = __hadd(x, y);
  __half2 p = b[threadIdx.x];
  __half2 q = p * p;
  q = __hfma2(p, q, p);
  for (int i = 0; i < 4; ++i)
    q = __hmul2(q, p);
  out[threadIdx.x] = y;
  out2[threadIdx.x] = q;
}
// HALF-LABEL: kernel half_ops at {{.*}}
// HALF:      global_loads: 2
// HALF-NEXT: global_stores: 2
// HALF:      vector_accesses: 2
// HALF:      flops_fp32: 0
// HALF-NEXT: flops_fp64: 0
// HALF-NEXT: flops_fp16: 31
// HALF:      arithmetic_intensity_estimate: 7.75

// __nv_bfloat16 operators: - and * (2); __nv_bfloat162 + (2).
__global__ void bf16_ops(const __nv_bfloat16 *a, __nv_bfloat162 *b) {
  __nv_bfloat16 x = a[threadIdx.x];
  __nv_bfloat16 y = x - x * x;
  __nv_bfloat162 v = b[threadIdx.x];
  b[threadIdx.x] = v + __nv_bfloat162(y, y);
}
// BF16-LABEL: kernel bf16_ops at {{.*}}
// BF16:      vector_accesses: 2
// BF16:      flops_fp32: 0
// BF16-NEXT: flops_fp64: 0
// BF16-NEXT: flops_fp16: 4

// Half values converted to float: the arithmetic is fp32, not fp16.
__global__ void half_as_float(const __half *a, float *out) {
  float f = __half2float(a[threadIdx.x]);
  out[threadIdx.x] = f * 2.0f + __low2float(__half2(a[0], a[1]));
}
// CONV-LABEL: kernel half_as_float at {{.*}}
// CONV:      vector_accesses: 0
// CONV:      flops_fp32: 2
// CONV-NEXT: flops_fp64: 0
// CONV-NEXT: flops_fp16: 0
