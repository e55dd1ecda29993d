// Global access patterns: coalesced, strided, uniform, indirect, and
// accesses whose pointer cannot be traced (counted, but in no class).

// RUN: clang-autoprof features %s --kernel='^coalesced$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=COAL
// RUN: clang-autoprof features %s --kernel='^strided$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=STRIDE
// RUN: clang-autoprof features %s --kernel='^uniform$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=UNI
// RUN: clang-autoprof features %s --kernel='^indirect$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=IND
// RUN: clang-autoprof features %s --kernel='^untraced$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=UNTR
// RUN: clang-autoprof features %s --kernel='^rows$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ROWS
// RUN: clang-autoprof features %s --kernel='^through_locals$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LOCALS
// RUN: clang-autoprof features %s --kernel='^members$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=MEMB

// Stride +1 or -1 in threadIdx.x: the global index, n - threadIdx.x,
// threadIdx.x % 32 and threadIdx.x & 31.
__global__ void coalesced(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[i];
  b[n - threadIdx.x] = a[threadIdx.x % 32];
  b[threadIdx.x & 31] = 0.0f;
}
// COAL-LABEL: kernel coalesced at {{.*}}
// COAL:      global_loads: 2
// COAL-NEXT: global_stores: 3
// COAL:      access_coalesced: 5
// COAL-NEXT: access_strided: 0
// COAL-NEXT: access_uniform: 0
// COAL-NEXT: access_indirect: 0

// Other constant strides (2 * x, x << 1, 3 * x through a local) and unknown
// ones (x * n, x / 16, x * x, a local assigned two different strides).
__global__ void strided(const float *a, float *b, int n) {
  b[2 * threadIdx.x] = a[threadIdx.x * n];
  b[threadIdx.x << 1] = a[threadIdx.x / 16];
  int j = threadIdx.x;
  if (n > 4)
    j = 3 * threadIdx.x;
  b[j] = a[threadIdx.x * threadIdx.x];
  int k = 3 * threadIdx.x;
  b[k + 1] = 1.0f;
}
// STRIDE-LABEL: kernel strided at {{.*}}
// STRIDE:      global_loads: 3
// STRIDE-NEXT: global_stores: 4
// STRIDE:      access_coalesced: 0
// STRIDE-NEXT: access_strided: 7
// STRIDE-NEXT: access_uniform: 0
// STRIDE-NEXT: access_indirect: 0

// Stride 0: rows from threadIdx.y, blockIdx, constants, threadIdx.x / 32,
// threadIdx.x >> 5.
__global__ void uniform(const float *a, float *b, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += a[row * n + k];
  b[blockIdx.x] = s;
  b[0] = a[threadIdx.x / 32] + a[(threadIdx.x >> 5) + 1];
}
// UNI-LABEL: kernel uniform at {{.*}}
// UNI:      global_loads: 3
// UNI-NEXT: global_stores: 2
// UNI:      access_coalesced: 0
// UNI-NEXT: access_strided: 0
// UNI-NEXT: access_uniform: 5
// UNI-NEXT: access_indirect: 0

// Offsets that depend on loaded values or on an atomic's result; the index
// arrays themselves are coalesced.
__global__ void indirect(const int *idx, const float *table, float *out,
                         int *counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  out[i] = table[j];
  int slot = atomicAdd(counter, 1);
  out[slot] = table[idx[i] + 1];
}
// IND-LABEL: kernel indirect at {{.*}}
// IND:      global_loads: 4
// IND-NEXT: global_stores: 2
// IND:      access_coalesced: 3
// IND-NEXT: access_strided: 0
// IND-NEXT: access_uniform: 0
// IND-NEXT: access_indirect: 3
// IND:      atomics_global: 1
// IND-NEXT: atomics_shared: 0

// p comes from memory: p[threadIdx.x] is a global load in no class; *pp
// itself is a uniform load.
__global__ void untraced(float **pp, float *out) {
  float *p = *pp;
  out[threadIdx.x] = p[threadIdx.x];
}
// UNTR-LABEL: kernel untraced at {{.*}}
// UNTR:      global_loads: 2
// UNTR-NEXT: global_stores: 1
// UNTR:      access_coalesced: 1
// UNTR-NEXT: access_strided: 0
// UNTR-NEXT: access_uniform: 1
// UNTR-NEXT: access_indirect: 0

// a[i][j] on a pointer to rows of 32: offset i * 32 + j.
__global__ void rows(float (*m)[32], float *out) {
  out[threadIdx.x] = m[threadIdx.y][threadIdx.x];
  m[threadIdx.x][0] = 0.0f;
  m[blockIdx.x][5] = 1.0f;
}
// ROWS-LABEL: kernel rows at {{.*}}
// ROWS:      global_loads: 1
// ROWS-NEXT: global_stores: 3
// ROWS:      access_coalesced: 2
// ROWS-NEXT: access_strided: 1
// ROWS-NEXT: access_uniform: 1
// ROWS-NEXT: access_indirect: 0

// Pointers traced through local pointer variables, p + i, &p[i] and a cast.
__global__ void through_locals(const float *a, float *b, int n) {
  const float *row = a + blockIdx.x * n;
  float *dst = &b[blockIdx.x * blockDim.x];
  const float4 *a4 = reinterpret_cast<const float4 *>(row);
  dst[threadIdx.x] = row[threadIdx.x] + row[2 * threadIdx.x] + a4[threadIdx.x].y;
}
// LOCALS-LABEL: kernel through_locals at {{.*}}
// LOCALS:      global_loads: 3
// LOCALS-NEXT: global_stores: 1
// LOCALS:      vector_accesses: 1
// LOCALS:      access_coalesced: 3
// LOCALS-NEXT: access_strided: 1
// LOCALS-NEXT: access_uniform: 0
// LOCALS-NEXT: access_indirect: 0

struct Pair {
  float x, y;
};

// p[i].f, p->f and *p: element offsets threadIdx.x (coalesced) and 0.
__global__ void members(Pair *ps, float *out) {
  out[threadIdx.x] = ps[threadIdx.x].x + ps->y + *out;
  ps->x = 0.0f;
}
// MEMB-LABEL: kernel members at {{.*}}
// MEMB:      global_loads: 3
// MEMB-NEXT: global_stores: 2
// MEMB:      access_coalesced: 2
// MEMB-NEXT: access_strided: 0
// MEMB-NEXT: access_uniform: 3
// MEMB-NEXT: access_indirect: 0
