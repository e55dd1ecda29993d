// privatize-atomics-smem caps the grid of every launch. A grid computed by
// a call (a ceiling-division helper, a counter) is evaluated once, as it
// was, in a lambda that caps it; a name the grid mentions is not reused.

// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -std=c++17 -c -o /dev/null %t.cu %}

#include <cstddef>

__global__ void bytes(const unsigned char *in, unsigned *counts, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&counts[in[i]], 1u);
}

static unsigned ceilDiv(size_t a, unsigned b) {
  return (unsigned)((a + b - 1) / b);
}
static unsigned launches = 0;
static unsigned nextGrid(unsigned Grid) { return Grid + ++launches; }

void count(const unsigned char *in, unsigned *counts, size_t n) {
  bytes<<<ceilDiv(n, 128), 128>>>(in, counts, n);
  unsigned Grid = ceilDiv(n, 128);
  bytes<<<nextGrid(Grid), 128>>>(in, counts, n);
}
// CHECK:      bytes<<<[&] { auto Grid = ceilDiv(n, 128); return Grid < 1024 ? Grid : 1024; }(), 128>>>(in, counts, n);
// CHECK:      bytes<<<[&] { auto Grid_ = nextGrid(Grid); return Grid_ < 1024 ? Grid_ : 1024; }(), 128>>>(in, counts, n);
