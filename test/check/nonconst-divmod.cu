// autoprof-nonconst-divmod: integer division or modulo by a value that is
// not a compile-time constant, inside a loop.

// RUN: clang-autoprof check --checks='-*,autoprof-nonconst-divmod' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

template <int W>
__global__ void unpack(const int *__restrict__ in, int *__restrict__ out,
                       int width, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    // CHECK: nonconst-divmod.cu:[[@LINE+1]]:21: warning: integer division by 'width', which is not a compile-time constant, inside a loop: it takes tens of instructions per iteration; hoist it out of the loop or make the divisor a constant [autoprof-nonconst-divmod]
    int row = in[i] / width;
    // CHECK: nonconst-divmod.cu:[[@LINE+1]]:21: warning: integer modulo by 'width', which is not a compile-time constant
    int col = in[i] % width;
    int c = 0;
    // CHECK: nonconst-divmod.cu:[[@LINE+1]]:7: warning: integer division by '(row + 1)'
    c /= (row + 1);
    // Must not warn: constant and template-constant divisors, floats.
    out[i] = row + col + c + in[i] / 32 + in[i] % W + int(in[i] / 3.0f);
  }
}

// Must not warn: division outside loops, and in a for's init.
__global__ void clean(const int *__restrict__ in, int *__restrict__ out,
                      int width) {
  int q = in[threadIdx.x] / width;
  for (int i = q % width; i < 4; ++i)
    out[i] = q;
}

template __global__ void unpack<8>(const int *, int *, int, int);
