// Templates and names: a primary template with two explicit
// instantiations, template arguments in constant trip counts, and a kernel
// in nested namespaces.

// --kernel='^scale$' matches the name of all three kernels.
// RUN: clang-autoprof features %s --kernel='^scale$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefixes=PRIM,F4,D2
// RUN: clang-autoprof features %s --kernel='^scale<float, 4>$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ONLYF4
// RUN: clang-autoprof features %s --kernel='^outer::inner::nskernel$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NS
// RUN: clang-autoprof features %s --kernel='inner::nskernel' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NS
// RUN: clang-autoprof features %s --kernel='^plain$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=PLAIN

// The loop bound N is a template argument: a constant trip count only in an
// instantiation. Flops in T are counted only in an instantiation.
template <typename T, int N>
__global__ void scale(T *p, T s) {
#pragma unroll
  for (int i = 0; i < N; ++i)
    p[threadIdx.x + i * 32] *= s;
}

template __global__ void scale<float, 4>(float *, float);
template __global__ void scale<double, 2>(double *, double);

// PRIM-LABEL: kernel scale at {{.*}}feature-templates.cu:15:17
// PRIM-NEXT:  template: primary
// PRIM-NEXT:  param p: T * [pointer]
// PRIM-NEXT:  param s: T
// PRIM-NEXT:  launch_bounds: none
// PRIM:       loops: 1
// PRIM-NEXT:  max_loop_depth: 1
// PRIM-NEXT:  const_trip_loops: 0
// PRIM-NEXT:  unrolled_loops: 1
// PRIM:       flops_fp32: 0
// PRIM-NEXT:  flops_fp64: 0
// PRIM-NEXT:  flops_fp16: 0

// F4-LABEL: kernel scale<float, 4> at {{.*}}feature-templates.cu:15:17
// F4-NEXT:  template: instantiation <float, 4>
// F4-NEXT:  mangled: _Z5scaleIfLi4EEvPT_S0_
// F4-NEXT:  param p: float * [pointer]
// F4-NEXT:  param s: float
// F4-NEXT:  launch_bounds: none
// F4-NEXT:  global_loads: 1
// F4-NEXT:  global_stores: 1
// F4-NEXT:  global_loads_in_loops: 1
// F4-NEXT:  global_stores_in_loops: 1
// F4:       access_coalesced: 1
// F4:       loops: 1
// F4-NEXT:  max_loop_depth: 1
// F4-NEXT:  const_trip_loops: 1
// F4-NEXT:  unrolled_loops: 1
// F4:       flops_fp32: 10
// F4-NEXT:  flops_fp64: 0

// D2-LABEL: kernel scale<double, 2> at {{.*}}feature-templates.cu:15:17
// D2-NEXT:  template: instantiation <double, 2>
// D2-NEXT:  mangled: _Z5scaleIdLi2EEvPT_S0_
// D2-NEXT:  param p: double * [pointer]
// D2-NEXT:  param s: double
// D2:       const_trip_loops: 1
// D2:       flops_fp32: 0
// D2-NEXT:  flops_fp64: 10

// ONLYF4-NOT: kernel scale at {{.*}}
// ONLYF4:     kernel scale<float, 4> at {{.*}}
// ONLYF4-NOT: kernel scale{{.*}}

namespace outer {
namespace inner {
__global__ void nskernel(float *p) { p[threadIdx.x] = 0.0f; }
} // namespace inner
} // namespace outer
// NS-LABEL: kernel outer::inner::nskernel at {{.*}}feature-templates.cu:70:17
// NS-NEXT:  mangled: _ZN5outer5inner8nskernelEPf
// NS-NEXT:  param p: float * [pointer]
// NS-NEXT:  launch_bounds: none
// NS-NEXT:  global_loads: 0
// NS-NEXT:  global_stores: 1
// NS-NOT:   kernel {{.*}}

// A kernel that is not a template prints no template line.
extern "C" __global__ void plain(int *p) { p[0] = 1; }
// PLAIN-LABEL: kernel plain at {{.*}}
// PLAIN-NOT:   template: {{.*}}
// PLAIN-NEXT:  mangled: plain
// PLAIN-NEXT:  param p: int * [pointer]
