// Derived features: arithmetic_intensity_estimate (weighted flops over
// weighted global accesses, a load-and-store counting 2; null without global
// accesses) and launch_bounds.

// RUN: clang-autoprof features %s --kernel='^intensity$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=AI
// RUN: clang-autoprof features %s --kernel='^intensity_zero$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=AIZERO
// RUN: clang-autoprof features %s --kernel='^compute_only$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=AINULL
// RUN: clang-autoprof features %s --kernel='^bounds_256_2$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LB2
// RUN: clang-autoprof features %s --kernel='^bounds_128$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LB1
// RUN: clang-autoprof features %s --kernel='^bounds_cluster$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LB3
// RUN: clang-autoprof features %s --kernel='^bounds_template<64>$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LBT
// RUN: clang-autoprof features %s --kernel='^no_bounds$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LBNONE
// RUN: clang-autoprof features %s --format=json --kernel='^bounds_' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LBJSON

// Flops: 4 (* * + -) + 1 (+=) + 1 (++) fp32, 1 fp64. Accesses: a[i] 1,
// b[i] = 1, b[i] += 2, b[i + 1]++ 2, d[i] 1, e[i] 1: 7 / 8.
__global__ void intensity(const float *a, float *b, const double *d,
                          double *e) {
  int i = threadIdx.x;
  float x = a[i];
  b[i] = x * x + x * 3.0f - 1.0f;
  b[i] += 1.0f;
  b[i + 1]++;
  e[i] = d[i] * 2.0;
}
// AI-LABEL: kernel intensity at {{.*}}
// AI:      global_loads: 4
// AI-NEXT: global_stores: 4
// AI:      flops_fp32: 6
// AI-NEXT: flops_fp64: 1
// AI:      arithmetic_intensity_estimate: 0.875

// Global accesses without flops: 0, not null.
__global__ void intensity_zero(const int *a, int *b) {
  b[threadIdx.x] = a[threadIdx.x] + 1;
}
// AIZERO-LABEL: kernel intensity_zero at {{.*}}
// AIZERO:      flops_fp32: 0
// AIZERO:      arithmetic_intensity_estimate: 0

// Flops, shared and __constant__ accesses, but no global access: null.
__constant__ float weights[32];
__global__ void compute_only(int n) {
  __shared__ float s[32];
  float x = n;
  s[threadIdx.x] = x * x * weights[threadIdx.x];
}
// AINULL-LABEL: kernel compute_only at {{.*}}
// AINULL:      global_loads: 0
// AINULL-NEXT: global_stores: 0
// AINULL:      flops_fp32: 2
// AINULL:      arithmetic_intensity_estimate: null

__global__ void __launch_bounds__(256, 2) bounds_256_2(float *p) {
  p[threadIdx.x] = 0.0f;
}
// LB2-LABEL: kernel bounds_256_2 at {{.*}}
// LB2:       param p: float * [pointer]
// LB2-NEXT:  launch_bounds: 256, 2
// LB2-NEXT:  global_loads: 0

__global__ void __launch_bounds__(128) bounds_128(float *p) { p[0] = 0.0f; }
// LB1-LABEL: kernel bounds_128 at {{.*}}
// LB1:       launch_bounds: 128

__global__ void __launch_bounds__(128, 4, 2) bounds_cluster(float *p) {
  p[0] = 0.0f;
}
// LB3-LABEL: kernel bounds_cluster at {{.*}}
// LB3:       launch_bounds: 128, 4, 2

template <int B>
__global__ void __launch_bounds__(B) bounds_template(float *p) { p[0] = 0.0f; }
template __global__ void bounds_template<64>(float *);
// LBT-LABEL: kernel bounds_template<64> at {{.*}}
// LBT:       template: instantiation <64>
// LBT:       launch_bounds: 64

__global__ void no_bounds(float *p) { p[0] = 0.0f; }
// LBNONE-LABEL: kernel no_bounds at {{.*}}
// LBNONE:      launch_bounds: none

// In JSON: an object with nulls for what is absent or not a constant (the
// primary template's B), null without __launch_bounds__.
// LBJSON:      "name": "bounds_256_2",
// LBJSON:      "launch_bounds": {
// LBJSON-NEXT:   "max_threads_per_block": 256,
// LBJSON-NEXT:   "min_blocks_per_sm": 2,
// LBJSON-NEXT:   "max_blocks_per_cluster": null
// LBJSON-NEXT: }
// LBJSON:      "name": "bounds_128",
// LBJSON:      "launch_bounds": {
// LBJSON-NEXT:   "max_threads_per_block": 128,
// LBJSON-NEXT:   "min_blocks_per_sm": null,
// LBJSON-NEXT:   "max_blocks_per_cluster": null
// LBJSON-NEXT: }
// LBJSON:      "name": "bounds_cluster",
// LBJSON:      "launch_bounds": {
// LBJSON-NEXT:   "max_threads_per_block": 128,
// LBJSON-NEXT:   "min_blocks_per_sm": 4,
// LBJSON-NEXT:   "max_blocks_per_cluster": 2
// LBJSON-NEXT: }
// LBJSON:      "qualified_name": "bounds_template",
// LBJSON:      "template": "primary",
// LBJSON:      "launch_bounds": {
// LBJSON-NEXT:   "max_threads_per_block": null,
// LBJSON-NEXT:   "min_blocks_per_sm": null,
// LBJSON-NEXT:   "max_blocks_per_cluster": null
// LBJSON-NEXT: }
// LBJSON:      "qualified_name": "bounds_template<64>",
// LBJSON:      "launch_bounds": {
// LBJSON-NEXT:   "max_threads_per_block": 64,
// LBJSON-NEXT:   "min_blocks_per_sm": null,
// LBJSON-NEXT:   "max_blocks_per_cluster": null
// LBJSON-NEXT: }
