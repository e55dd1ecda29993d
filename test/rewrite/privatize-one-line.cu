// A histogram kernel written on two lines, its closing brace after the
// code: the flush of the block's copy goes on lines of its own before the
// brace, and the result compiles.

// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void bytes(const unsigned char *d, unsigned int *h, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&h[d[i]], 1u); }
// CHECK-LABEL: __global__ void bytes(
// CHECK:         __shared__ unsigned int hBlock[256];
// CHECK:              i += gridDim.x * blockDim.x) atomicAdd(&hBlock[d[i]], 1u);
// CHECK-NEXT:    __syncthreads();
// CHECK-NEXT:    for (int E = threadIdx.x; E < 256; E += blockDim.x)
// CHECK-NEXT:      if (hBlock[E] != 0)
// CHECK-NEXT:        atomicAdd(&h[E], hBlock[E]);
// CHECK-NEXT:  }

int main() {
  unsigned char *d;
  unsigned int *h;
  int n = 1 << 22;
  cudaMalloc(&d, n);
  cudaMalloc(&h, 256 * sizeof(unsigned));
  bytes<<<(n + 255) / 256, 256>>>(d, h, n);
  cudaDeviceSynchronize();
  return 0;
}
