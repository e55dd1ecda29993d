// Cooperative groups: uses_cooperative_groups, cg::sync on a thread_block,
// tile shuffles and votes. CUDA's cooperative_groups.h needs libcu++, which
// nvcc finds in include/cccl.

// RUN: clang-autoprof features %s --kernel='^coop$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=COOP
// RUN: clang-autoprof features %s --kernel='^coop_types_only$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=TYPES
// RUN: clang-autoprof features %s --kernel='^no_coop$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOCOOP

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// cg::sync(block) is a block barrier (twice, once in a loop); the tile's
// sync is a warp barrier and does not count. One tile shuffle, two votes.
__global__ void coop(float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::sync(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = warp.shfl_down(out[threadIdx.x], 1);
  if (warp.any(v > 0.0f))
    out[0] = v;
  unsigned b = warp.ballot(v < 0.0f);
  warp.sync();
  for (int i = 0; i < n; ++i)
    cg::sync(block);
  out[1] = b;
}
// COOP-LABEL: kernel coop at {{.*}}
// COOP:      syncthreads: 2
// COOP-NEXT: syncthreads_in_loops: 1
// COOP-NEXT: warp_shuffles: 1
// COOP-NEXT: warp_votes: 2
// COOP-NEXT: atomics_global: 0
// COOP-NEXT: atomics_shared: 0
// COOP-NEXT: uses_cooperative_groups: 1

// Only a cooperative-groups value and a query: still uses them.
__global__ void coop_types_only(unsigned *out) {
  cg::grid_group grid = cg::this_grid();
  out[0] = grid.num_blocks();
}
// TYPES-LABEL: kernel coop_types_only at {{.*}}
// TYPES:      syncthreads: 0
// TYPES-NEXT: syncthreads_in_loops: 0
// TYPES-NEXT: warp_shuffles: 0
// TYPES-NEXT: warp_votes: 0
// TYPES:      uses_cooperative_groups: 1

// Same file, plain CUDA builtins only.
__global__ void no_coop(float *out) {
  __syncthreads();
  out[threadIdx.x] = __shfl_sync(0xffffffffu, out[0], 0);
}
// NOCOOP-LABEL: kernel no_coop at {{.*}}
// NOCOOP:      syncthreads: 1
// NOCOOP-NEXT: syncthreads_in_loops: 0
// NOCOOP-NEXT: warp_shuffles: 1
// NOCOOP-NEXT: warp_votes: 0
// NOCOOP:      uses_cooperative_groups: 0
