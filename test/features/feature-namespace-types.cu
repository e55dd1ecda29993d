// A variable of a cooperative_groups or nvcuda::wmma type alone sets
// uses_cooperative_groups or uses_tensor_cores.

// RUN: clang-autoprof features %s --kernel='^cg_type$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=CG
// RUN: clang-autoprof features %s --kernel='^wmma_type$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=WMMA

#include <cooperative_groups.h>
#include <mma.h>

__global__ void cg_type(float *out) {
  cooperative_groups::thread_block *block = nullptr;
  out[0] = block != nullptr;
}
// CG-LABEL: kernel cg_type at {{.*}}
// CG:       uses_cooperative_groups: 1

__global__ void wmma_type(float *out) {
  nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, 16, float> acc;
  out[threadIdx.x] = acc.x[0];
}
// WMMA-LABEL: kernel wmma_type at {{.*}}
// WMMA:       uses_tensor_cores: 1
