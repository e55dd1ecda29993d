// warp-aggregate-atomics: every thread adding into the same global element
// adds through a helper that sums the values of the warp's lanes with
// shuffles, so that each warp makes one atomic addition. The element may be
// the pointer itself, an element at an index of parameters and constants,
// or `p + k`; the value keeps its type and is evaluated once, as before.
// Additions whose address may differ between threads, whose result is
// used, or of types the shuffles do not carry are left alone, with reasons.

// RUN: clang-autoprof optimize --dry-run --transformations=warp-aggregate-atomics -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-aggregate-atomics %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

typedef unsigned long long u64;

// A dot product by atomics, the index declared in the guard's scope.
__global__ void dot_by_atomics(const float *u, const float *v, float *out,
                               long n) {
  long k = (long)blockDim.x * blockIdx.x + threadIdx.x;
  if (k < n)
    atomicAdd(out, u[k] * v[k]);
}
// CHECK:      template <typename T, typename V>
// CHECK-NEXT: __device__ __forceinline__ void warpAtomicAdd_dot_by_atomics(T *Address, V Value) {
// CHECK-NEXT:   const unsigned Active = __activemask();
// CHECK:          Sum += __shfl_xor_sync(0xffffffffu, Sum, Offset);
// CHECK:          Sum += __shfl_sync(Active, Own, __ffs(Rest) - 1);
// CHECK:        if (Lane == static_cast<unsigned>(__ffs(Active) - 1))
// CHECK-NEXT:     atomicAdd(Address, Sum);
// CHECK:      __global__ void dot_by_atomics(
// CHECK:          warpAtomicAdd_dot_by_atomics(out, u[k] * v[k]);
// WHY-LABEL: kernel dot_by_atomics at {{.*}}
// WHY-NEXT:    warp-aggregate-atomics: add once per warp {{.*}}

// Two counters in one array, at indices of a parameter: the count of
// positive entries and of entries above a bound, in a grid-stride loop.
__global__ void count_two(const int *vals, unsigned *counters, int slot,
                          int n, int bound) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (vals[i] > 0)
      atomicAdd(&counters[slot], 1);
    if (vals[i] > bound) {
      atomicAdd(counters + slot + 1, 1u);
    }
  }
}
// CHECK:      __global__ void count_two(
// CHECK:          warpAtomicAdd_count_two(&counters[slot], 1);
// CHECK:          warpAtomicAdd_count_two(counters + slot + 1, 1u);
// WHY-LABEL: kernel count_two at {{.*}}
// WHY-NEXT:    warp-aggregate-atomics: add once per warp {{.*}}

// Sums of squares in double, into a 64-bit counter as well.
__global__ void norms(const double *x, double *sumsq, u64 *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&sumsq[0], x[i] * x[i]);
  atomicAdd(seen, (u64)1);
}
// CHECK:      __global__ void norms(
// CHECK:        warpAtomicAdd_norms(&sumsq[0], x[i] * x[i]);
// CHECK-NEXT:   warpAtomicAdd_norms(seen, (u64)1);

// Left alone: the index differs between threads (a histogram), the result
// is used (slots taken), the element is a half-precision type the helper
// does not sum, the pointer moves.
__global__ void histogram(const unsigned char *in, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i]], 1u);
}
// WHY-LABEL: kernel histogram at {{.*}}
// WHY:         warp-aggregate-atomics: not applied: the `atomicAdd` at line [[@LINE-3]]{{.*}}: its index `in[i]` may differ from thread to thread (`in[i]` at line [[@LINE-3]] is loaded from memory); privatize-atomics-smem handles additions into an array

__global__ void take_slots(const float *in, float *out, int *next, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.f)
    out[atomicAdd(next, 1)] = in[i];
}
// WHY-LABEL: kernel take_slots at {{.*}}
// WHY:         warp-aggregate-atomics: not applied: the `atomicAdd` at line [[@LINE-3]]{{.*}}: its result is used

__global__ void moving_target(const float *in, float *acc, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    acc += 1;
    atomicAdd(acc, in[i]);
  }
}
// WHY-LABEL: kernel moving_target at {{.*}}
// WHY:         warp-aggregate-atomics: not applied: the `atomicAdd` at line [[@LINE-4]]{{.*}}: the kernel changes `acc`

void launch(const float *u, const float *v, float *out, long n,
            const int *vals, unsigned *counters, const double *x,
            double *sumsq, u64 *seen, const unsigned char *bytes,
            unsigned *bins, float *dst, int *next) {
  dot_by_atomics<<<(n + 255) / 256, 256>>>(u, v, out, n);
  count_two<<<1024, 256>>>(vals, counters, 2, (int)n, 7);
  norms<<<(n + 127) / 128, 128>>>(x, sumsq, seen, (int)n);
  histogram<<<(n + 255) / 256, 256>>>(bytes, bins, (int)n);
  take_slots<<<(n + 255) / 256, 256>>>(u, dst, next, (int)n);
  moving_target<<<(n + 255) / 256, 256>>>(u, dst, (int)n);
}
