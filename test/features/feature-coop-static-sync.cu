// syncthreads: block.sync() on a cooperative-groups thread_block (a static
// member in CUDA 13) and cg::sync(block) count as barriers. The include of
// libcu++ (include/cccl) is added by the tool, as nvcc does.

// RUN: clang-autoprof features %s --kernel='^member_sync$' -- -std=c++17 | FileCheck %s --match-full-lines

#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void member_sync(float *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  out[threadIdx.x] = 1.0f;
  block.sync();
  for (int i = 0; i < n; ++i)
    cg::this_thread_block().sync();
}
// CHECK-LABEL: kernel member_sync at {{.*}}
// CHECK:      syncthreads: 2
// CHECK-NEXT: syncthreads_in_loops: 1
// CHECK:      uses_cooperative_groups: 1
