// divisions: the overloaded / and /= of __half, __half2 and __nv_bfloat16
// count, like / on built-in types.

// RUN: clang-autoprof features %s --kernel='^half_div$' -- -std=c++17 | FileCheck %s --match-full-lines

#include <cuda_fp16.h>

__global__ void half_div(const __half *a, __half2 *b, __half *out) {
  __half x = a[threadIdx.x] / a[0];
  x /= a[1];
  b[threadIdx.x] = b[threadIdx.x] / b[0];
  out[threadIdx.x] = x;
}
// CHECK-LABEL: kernel half_div at {{.*}}
// CHECK:      flops_fp32: 0
// CHECK-NEXT: flops_fp64: 0
// CHECK-NEXT: flops_fp16: 4
// CHECK-NEXT: int_ops: 0
// CHECK-NEXT: divisions: 3
