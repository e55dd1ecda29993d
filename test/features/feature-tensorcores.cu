// Tensor cores: nvcuda::wmma, and inline assembly containing mma; other
// inline assembly does not count.

// RUN: clang-autoprof features %s --kernel='^wmma_gemm$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=WMMA
// RUN: clang-autoprof features %s --kernel='^asm_mma$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ASMMMA
// RUN: clang-autoprof features %s --kernel='^asm_other$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=ASMOTHER

#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

__global__ void wmma_gemm(const half *a, const half *b, float *c, int k) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int i = 0; i < k; i += 16) {
    wmma::load_matrix_sync(fa, a + i, k);
    wmma::load_matrix_sync(fb, b + i, k);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
// WMMA-LABEL: kernel wmma_gemm at {{.*}}
// WMMA:      loops: 1
// WMMA:      uses_tensor_cores: 1

// One m16n8k16 mma.sync through inline PTX.
__global__ void asm_mma(const unsigned *a, const unsigned *b, float *c) {
  unsigned a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3], b0 = b[0], b1 = b[1];
  float d0, d1, d2, d3;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
               "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11, %12, %13};"
               : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                 "f"(0.0f), "f"(0.0f), "f"(0.0f), "f"(0.0f));
  c[threadIdx.x] = d0 + d1 + d2 + d3;
}
// ASMMMA-LABEL: kernel asm_mma at {{.*}}
// ASMMMA:      uses_tensor_cores: 1

// Inline assembly without mma (reading %laneid, an add) and half
// arithmetic are no tensor-core use.
__global__ void asm_other(unsigned *out, const half *h, half *ho) {
  unsigned lane, sum;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  asm("add.u32 %0, %1, %2;" : "=r"(sum) : "r"(lane), "r"(1u));
  out[threadIdx.x] = sum;
  ho[threadIdx.x] = h[threadIdx.x] * h[0];
}
// ASMOTHER-LABEL: kernel asm_other at {{.*}}
// ASMOTHER:      flops_fp16: 1
// ASMOTHER:      uses_tensor_cores: 0
