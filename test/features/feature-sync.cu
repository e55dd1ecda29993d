// Synchronisation: barriers (in and out of loops), warp shuffles and votes,
// global and shared atomics.

// RUN: clang-autoprof features %s --kernel='^barriers$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=BAR
// RUN: clang-autoprof features %s --kernel='^warp_sync_only$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=WARPSYNC
// RUN: clang-autoprof features %s --kernel='^warp_ops$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=WARP
// RUN: clang-autoprof features %s --kernel='^atomics$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ATOM
// RUN: clang-autoprof features %s --kernel='^no_atomics$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOATOM

// Six barriers, three of them in loops.
__global__ void barriers(float *a, int n) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    int c = __syncthreads_count(s[i] > 0.0f);
    a[i] = c;
  }
  int k = 0;
  while (__syncthreads_and(k < n))
    ++k;
  int any = __syncthreads_or(n > 0);
  __barrier_sync(0);
  a[0] = any;
}
// BAR-LABEL: kernel barriers at {{.*}}
// BAR:      syncthreads: 6
// BAR-NEXT: syncthreads_in_loops: 3
// BAR-NEXT: warp_shuffles: 0
// BAR-NEXT: warp_votes: 0
// BAR-NEXT: atomics_global: 0
// BAR-NEXT: atomics_shared: 0
// BAR-NEXT: uses_cooperative_groups: 0

// __syncwarp, __threadfence and a population count are no barriers, shuffles
// or votes.
__global__ void warp_sync_only(unsigned *out, unsigned mask) {
  __syncwarp();
  __syncwarp(mask);
  __threadfence_block();
  out[threadIdx.x] = __popc(mask);
}
// WARPSYNC-LABEL: kernel warp_sync_only at {{.*}}
// WARPSYNC:      syncthreads: 0
// WARPSYNC-NEXT: syncthreads_in_loops: 0
// WARPSYNC-NEXT: warp_shuffles: 0
// WARPSYNC-NEXT: warp_votes: 0

// Four shuffles and five votes; branches on a ballot and on a shuffled value
// are thread-dependent.
__global__ void warp_ops(const float *in, float *out, int key) {
  float v = in[blockIdx.x];
  for (int off = 16; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffffu, v, off);
  v += __shfl_xor_sync(0xffffffffu, v, 8);
  v += __shfl_up_sync(0xffffffffu, v, 1);
  float first = __shfl_sync(0xffffffffu, v, 0);
  unsigned b = __ballot_sync(0xffffffffu, v > 0.0f);
  int all = __all_sync(0xffffffffu, v > 0.0f);
  int any = __any_sync(0xffffffffu, v < 0.0f);
  unsigned m = __activemask();
  unsigned same = __match_any_sync(m, key);
  if (b)
    out[0] = first;
  if (first > 0.0f)
    out[1] = all + any + same;
}
// WARP-LABEL: kernel warp_ops at {{.*}}
// WARP:      thread_dependent_branches: 2
// WARP:      syncthreads: 0
// WARP-NEXT: syncthreads_in_loops: 0
// WARP-NEXT: warp_shuffles: 4
// WARP-NEXT: warp_votes: 5
// WARP-NEXT: atomics_global: 0
// WARP-NEXT: atomics_shared: 0

// Shared: an element of a __shared__ array and a __shared__ scalar. Global:
// a parameter, &g[i], g + 1, a _block variant on a float pointer, and a
// pointer loaded from memory (untraced, so global).
__global__ void atomics(int *g, float *gf, int **gp) {
  __shared__ int hist[32];
  __shared__ int total;
  atomicAdd(&hist[threadIdx.x % 32], 1);
  atomicAdd(&total, 1);
  atomicAdd(g, 1);
  atomicMax(&g[blockIdx.x], hist[0]);
  atomicCAS(g + 1, 0, total);
  atomicAdd_block(gf, 1.0f);
  atomicExch(*gp, 3);
}
// ATOM-LABEL: kernel atomics at {{.*}}
// ATOM:      shared_arrays: 1
// ATOM:      syncthreads: 0
// ATOM:      atomics_global: 5
// ATOM-NEXT: atomics_shared: 2

// Plain read-modify-writes of global and shared memory are not atomics.
__global__ void no_atomics(int *g) {
  __shared__ int counter;
  counter += 1;
  g[threadIdx.x] += counter;
  ++g[0];
}
// NOATOM-LABEL: kernel no_atomics at {{.*}}
// NOATOM:      global_loads: 2
// NOATOM-NEXT: global_stores: 2
// NOATOM:      atomics_global: 0
// NOATOM-NEXT: atomics_shared: 0
