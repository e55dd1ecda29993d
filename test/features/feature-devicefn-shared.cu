// A __shared__ array declared in a device function called twice is one
// variable: counted once in shared_arrays and shared_bytes_static.

// RUN: clang-autoprof features %s --kernel='^calls_twice$' -- -std=c++17 | FileCheck %s --match-full-lines

__device__ float reduce32(const float *p) {
  __shared__ float partial[32];
  partial[threadIdx.x % 32] = p[threadIdx.x];
  __syncthreads();
  return partial[0];
}

__global__ void calls_twice(const float *a, const float *b, float *out) {
  out[threadIdx.x] = reduce32(a) + reduce32(b);
}
// CHECK-LABEL: kernel calls_twice at {{.*}}
// CHECK:      global_loads: 2
// CHECK-NEXT: global_stores: 1
// CHECK-NEXT: global_loads_in_loops: 0
// CHECK-NEXT: global_stores_in_loops: 0
// CHECK-NEXT: shared_arrays: 1
// CHECK-NEXT: shared_bytes_static: 128
// CHECK:      syncthreads: 2
