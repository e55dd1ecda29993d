// A grid-stride loop inside `if (t < n)`, which its own test makes
// redundant, strides over the grid: privatize-atomics-smem keeps the loop
// and the guard, and every thread still reaches the barriers after it. With
// an early return before the loop, threads would leave before the last
// barrier: refused.
//
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem --kernel=strided -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void strided(const float *values, unsigned int *hist, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int stride = gridDim.x * blockDim.x;
  if (tid < n) {
    for (int j = tid; j < n; j += stride) {
      int bin = (int)(values[j] * 64.0f);
      bin = max(0, min(bin, 63));
      atomicAdd(&hist[bin], 1u);
    }
  }
}

__global__ void leaves(const float *values, unsigned int *hist, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  for (int j = tid; j < n; j += gridDim.x * blockDim.x)
    atomicAdd(&hist[(int)values[j] & 63], 1u);
}

void run(const float *v, unsigned int *h, int n) {
  strided<<<120, 256>>>(v, h, n);
  leaves<<<120, 256>>>(v, h, n);
}

// LIST:      kernel strided at {{.*}}
// LIST-NEXT:   privatize-atomics-smem: {{.*}}
// LIST:      kernel leaves at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   privatize-atomics-smem: not applied: `gridDim.x` at line 28 is read other than in the global index blockIdx.x * blockDim.x + threadIdx.x

// CHECK:      __global__ void strided(const float *values, unsigned int *hist, int n) {
// CHECK-NEXT:   // Each block adds into its own copy of hist in shared memory
// CHECK-NEXT:   // and adds the copy to it once, at the end.
// CHECK-NEXT:   __shared__ unsigned int histBlock[4096];
// CHECK-NEXT:   for (int E = threadIdx.x; E < 4096; E += blockDim.x)
// CHECK-NEXT:     histBlock[E] = 0;
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   int tid = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   int stride = gridDim.x * blockDim.x;
// CHECK-NEXT:   if (tid < n) {
// CHECK-NEXT:     for (int j = tid; j < n; j += stride) {
// CHECK:            ((unsigned long long)(bin) < 4096 ? atomicAdd(&histBlock[bin], 1u) : atomicAdd(&hist[bin], 1u));
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   __syncthreads();
// CHECK-NEXT:   for (int E = threadIdx.x; E < 4096; E += blockDim.x)
// CHECK-NEXT:     if (histBlock[E] != 0)
// CHECK-NEXT:       atomicAdd(&hist[E], histBlock[E]);
// CHECK-NEXT: }
// CHECK:        strided<<<(120 < 1024 ? 120 : 1024), 256>>>(v, h, n);
