// Memory features: global loads and stores (in and out of loops), what is
// not global (__constant__, __shared__, local arrays), __ldg, vector accesses,
// and __restrict__ / const pointer parameters.

// RUN: clang-autoprof features %s --kernel='^loads_stores$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LS
// RUN: clang-autoprof features %s --kernel='^not_global$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NG
// RUN: clang-autoprof features %s --kernel='^device_var$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=DV
// RUN: clang-autoprof features %s --kernel='^ldg$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LDG
// RUN: clang-autoprof features %s --kernel='^vec4$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=VEC
// RUN: clang-autoprof features %s --kernel='^no_vec$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOVEC
// RUN: clang-autoprof features %s --kernel='^qualifiers$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=QUAL

// a[i], b[i], out[i + 1] (compound: load and store) and a[k] are loads;
// out[i], out[i + 1] and out[k] are stores; &out[i] is neither.
__global__ void loads_stores(const float *a, const float *__restrict__ b,
                             float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = a[i] + b[i];
  out[i] = s;
  out[i + 1] += s;
  float *p = &out[i];
  (void)p;
  for (int k = 0; k < n; ++k)
    out[k] = a[k];
}
// LS-LABEL: kernel loads_stores at {{.*}}feature-memory.cu:15:17
// LS-NEXT:   mangled: _Z12loads_storesPKfS0_Pfi
// LS-NEXT:   param a: const float * [pointer const]
// LS-NEXT:   param b: const float *__restrict [pointer const restrict]
// LS-NEXT:   param out: float * [pointer]
// LS-NEXT:   param n: int
// LS-NEXT:   launch_bounds: none
// LS-NEXT:   global_loads: 4
// LS-NEXT:   global_stores: 3
// LS-NEXT:   global_loads_in_loops: 1
// LS-NEXT:   global_stores_in_loops: 1
// LS-NEXT:   shared_arrays: 0
// LS-NEXT:   shared_bytes_static: 0
// LS-NEXT:   uses_dynamic_shared: 0
// LS-NEXT:   local_arrays: 0
// LS-NEXT:   uses_ldg: 0
// LS-NEXT:   vector_accesses: 0
// LS-NEXT:   restrict_params: 1
// LS-NEXT:   const_params: 2

__constant__ float coeffs[16];

// Only __constant__, __shared__ and per-thread local memory: nothing global.
__global__ void not_global(int n) {
  __shared__ float buf[64];
  float local[4];
  buf[threadIdx.x] = coeffs[threadIdx.x % 16];
  local[threadIdx.x % 4] = buf[threadIdx.x];
  for (int k = 0; k < n; ++k)
    buf[k] += local[k % 4] * coeffs[k];
}
// NG-LABEL: kernel not_global at {{.*}}
// NG:      launch_bounds: none
// NG-NEXT: global_loads: 0
// NG-NEXT: global_stores: 0
// NG-NEXT: global_loads_in_loops: 0
// NG-NEXT: global_stores_in_loops: 0
// NG-NEXT: shared_arrays: 1
// NG-NEXT: shared_bytes_static: 256
// NG-NEXT: uses_dynamic_shared: 0
// NG-NEXT: local_arrays: 1
// NG-NEXT: uses_ldg: 0
// NG-NEXT: vector_accesses: 0
// NG-NEXT: restrict_params: 0
// NG-NEXT: const_params: 0
// NG-NEXT: access_coalesced: 0
// NG-NEXT: access_strided: 0
// NG-NEXT: access_uniform: 0
// NG-NEXT: access_indirect: 0
// NG:      arithmetic_intensity_estimate: null

__device__ float dev_buf[256];

// A __device__ variable is global memory; loads outside loops only.
__global__ void device_var(float *out) {
  out[threadIdx.x] = dev_buf[threadIdx.x] + dev_buf[threadIdx.x + 1];
  dev_buf[threadIdx.x] = 0.0f;
}
// DV-LABEL: kernel device_var at {{.*}}
// DV:      global_loads: 2
// DV-NEXT: global_stores: 2
// DV-NEXT: global_loads_in_loops: 0
// DV-NEXT: global_stores_in_loops: 0
// DV:      access_coalesced: 4

// __ldg(&in[i]) is one global load (the & is not an access of its own).
__global__ void ldg(const float *in, const float4 *in4, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = __ldg(&in4[i]);
  out[i] = __ldg(&in[i]) + __ldcs(in + i + 1) + v.x;
}
// LDG-LABEL: kernel ldg at {{.*}}
// LDG:      global_loads: 3
// LDG-NEXT: global_stores: 1
// LDG:      uses_ldg: 1
// LDG-NEXT: vector_accesses: 1
// LDG-NEXT: restrict_params: 0
// LDG-NEXT: const_params: 2
// LDG-NEXT: access_coalesced: 4

// float4 through a parameter, through reinterpret_cast, and in shared
// memory; flat[i] = v.x is a float access.
__global__ void vec4(const float4 *in, float4 *out, float *flat) {
  __shared__ float4 staged[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[i];
  staged[threadIdx.x] = v;
  out[i] = staged[threadIdx.x];
  float4 *f4 = reinterpret_cast<float4 *>(flat);
  f4[i + 1] = v;
  flat[i] = v.x;
}
// VEC-LABEL: kernel vec4 at {{.*}}
// VEC:      global_loads: 1
// VEC-NEXT: global_stores: 3
// VEC:      shared_arrays: 1
// VEC-NEXT: shared_bytes_static: 4096
// VEC:      vector_accesses: 5
// VEC:      access_coalesced: 4

// Vector-typed values that are never accessed through global or shared
// memory: a local float4, a local float4 array, make_float4.
__global__ void no_vec(const float *in, float *out) {
  float4 lv[2];
  float4 v = make_float4(in[0], in[1], in[2], in[3]);
  lv[threadIdx.x % 2] = v;
  out[threadIdx.x] = lv[0].x + v.y;
}
// NOVEC-LABEL: kernel no_vec at {{.*}}
// NOVEC:      global_loads: 4
// NOVEC-NEXT: global_stores: 1
// NOVEC:      local_arrays: 1
// NOVEC-NEXT: uses_ldg: 0
// NOVEC-NEXT: vector_accesses: 0

// A const pointer to non-const data, a const scalar and a pointer to const
// pointer: only the pointee's constness and __restrict__ on the pointer count.
__global__ void qualifiers(float *const p, const int n, const float s,
                           float *__restrict__ r1, const int *__restrict__ r2,
                           const float *const *pp) {
  p[n] = s + r1[0] + r2[0] + pp[0][0];
}
// QUAL-LABEL: kernel qualifiers at {{.*}}
// QUAL:      param p: float *const [pointer]
// QUAL-NEXT: param n: const int [const]
// QUAL-NEXT: param s: const float [const]
// QUAL-NEXT: param r1: float *__restrict [pointer restrict]
// QUAL-NEXT: param r2: const int *__restrict [pointer const restrict]
// QUAL-NEXT: param pp: const float *const * [pointer const]
// QUAL:      restrict_params: 2
// QUAL-NEXT: const_params: 2
