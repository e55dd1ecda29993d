// Device functions: a call is analysed as if inlined, its pointer
// parameters bound to the arguments, inside the caller's loops; returns
// inside helpers are not early exits of the kernel.

// RUN: clang-autoprof features %s --kernel='^uses_helpers$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=HELP
// RUN: clang-autoprof features %s --kernel='^helper_on_shared$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ONSHARED
// RUN: clang-autoprof features %s --kernel='^nested_helpers$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NESTED
// RUN: clang-autoprof features %s --kernel='^helper_shared_decl$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=SHDECL
// RUN: clang-autoprof features %s --kernel='^no_helpers$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOHELP

__device__ float load_scaled(const float *p, int i) { return p[i] * 2.0f; }

__device__ void store_guarded(float *q, int i, float v) {
  if (i < 0)
    return;
  q[i] = v;
  __syncthreads();
}

// load_scaled: p[i] is a coalesced load once outside and once inside the
// loop (its * counts 1 and 10); store_guarded: one coalesced store, a
// barrier, and a thread-dependent branch (i is threadIdx.x), but its
// returns are not the kernel's. Flops: 1 + 10 (helper) + 10 (+=).
__global__ void uses_helpers(const float *in, float *out) {
  int t = threadIdx.x;
  float v = load_scaled(in, t);
  for (int k = 0; k < 4; ++k)
    v += load_scaled(in, t + 32 * k);
  store_guarded(out, t, v);
}
// HELP-LABEL: kernel uses_helpers at {{.*}}
// HELP:      global_loads: 2
// HELP-NEXT: global_stores: 1
// HELP-NEXT: global_loads_in_loops: 1
// HELP-NEXT: global_stores_in_loops: 0
// HELP:      access_coalesced: 3
// HELP-NEXT: access_strided: 0
// HELP-NEXT: access_uniform: 0
// HELP-NEXT: access_indirect: 0
// HELP:      loops: 1
// HELP-NEXT: max_loop_depth: 1
// HELP-NEXT: const_trip_loops: 1
// HELP-NEXT: unrolled_loops: 0
// HELP-NEXT: thread_dependent_branches: 1
// HELP-NEXT: early_exits: 0
// HELP-NEXT: syncthreads: 1
// HELP-NEXT: syncthreads_in_loops: 0
// HELP:      flops_fp32: 21
// HELP:      arithmetic_intensity_estimate: 1.75

// The same helper on a __shared__ array: its load is not global.
__global__ void helper_on_shared(float *out) {
  __shared__ float buf[64];
  buf[threadIdx.x] = 1.0f;
  out[threadIdx.x] = load_scaled(buf, threadIdx.x);
}
// ONSHARED-LABEL: kernel helper_on_shared at {{.*}}
// ONSHARED:      global_loads: 0
// ONSHARED-NEXT: global_stores: 1
// ONSHARED:      access_coalesced: 1
// ONSHARED:      flops_fp32: 1

// Helpers that call other helpers, with a loop of their own, called from a
// loop of the kernel: loop depth, weights and barriers in loops add up
// across the calls (each call is analysed as if inlined).
__device__ float row_sum(const float *p) {
  float s = 0.0f;
  for (int i = 0; i < 32; ++i)
    s += p[i];
  __syncthreads();
  return s;
}

__device__ float twice(const float *p) { return row_sum(p) + row_sum(p); }

// Flops: row_sum's += at depth 2 (2 * 100), twice's + (10), acc += (10).
__global__ void nested_helpers(const float *in, float *out, int n) {
  float acc = 0.0f;
  for (int r = 0; r < n; ++r)
    acc += twice(in + r * n);
  out[blockIdx.x] = acc;
}
// NESTED-LABEL: kernel nested_helpers at {{.*}}
// NESTED:      global_loads: 2
// NESTED-NEXT: global_stores: 1
// NESTED-NEXT: global_loads_in_loops: 2
// NESTED-NEXT: global_stores_in_loops: 0
// NESTED:      access_coalesced: 0
// NESTED-NEXT: access_strided: 0
// NESTED-NEXT: access_uniform: 3
// NESTED:      loops: 3
// NESTED-NEXT: max_loop_depth: 2
// NESTED-NEXT: const_trip_loops: 2
// NESTED:      syncthreads: 2
// NESTED-NEXT: syncthreads_in_loops: 2
// NESTED:      flops_fp32: 220

// A helper that declares shared memory, called once.
__device__ float stage(const float *p) {
  __shared__ float tile[64];
  tile[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  return tile[63 - threadIdx.x];
}

__global__ void helper_shared_decl(const float *in, float *out) {
  out[threadIdx.x] = stage(in);
}
// SHDECL-LABEL: kernel helper_shared_decl at {{.*}}
// SHDECL:      global_loads: 1
// SHDECL-NEXT: global_stores: 1
// SHDECL-NEXT: global_loads_in_loops: 0
// SHDECL-NEXT: global_stores_in_loops: 0
// SHDECL-NEXT: shared_arrays: 1
// SHDECL-NEXT: shared_bytes_static: 256
// SHDECL-NEXT: uses_dynamic_shared: 0
// SHDECL:      syncthreads: 1

// No calls: the helpers' features do not leak into other kernels.
__global__ void no_helpers(float *out) { out[threadIdx.x] = 0.0f; }
// NOHELP-LABEL: kernel no_helpers at {{.*}}
// NOHELP:      global_loads: 0
// NOHELP-NEXT: global_stores: 1
// NOHELP:      thread_dependent_branches: 0
// NOHELP-NEXT: early_exits: 0
// NOHELP-NEXT: syncthreads: 0
// NOHELP:      flops_fp32: 0
