// warp-aggregate-atomics: every thread adding into the same global element
// adds through a helper that sums the values of the warp's lanes with
// shuffles, so that each warp makes one atomic addition. The element may be
// the pointer itself, an element at an index of parameters and constants,
// or `p + k`; the value keeps its type and is evaluated once, as before.
// Additions whose address may differ between threads, whose result is
// used, or of integers (which the CUDA compiler combines per warp itself)
// are left alone, with reasons.

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

// Two sums in one array, at indices of a parameter, in a grid-stride loop:
// the positive entries and those above a bound.
__global__ void sum_two(const float *vals, float *sums, int slot, int n,
                        float bound) {
  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n;
       i += blockDim.x * gridDim.x) {
    if (vals[i] > 0)
      atomicAdd(&sums[slot], vals[i]);
    if (vals[i] > bound) {
      atomicAdd(sums + slot + 1, vals[i] - bound);
    }
  }
}
// CHECK:      __global__ void sum_two(
// CHECK:          warpAtomicAdd_sum_two(&sums[slot], vals[i]);
// CHECK:          warpAtomicAdd_sum_two(sums + slot + 1, vals[i] - bound);
// WHY-LABEL: kernel sum_two at {{.*}}
// WHY-NEXT:    warp-aggregate-atomics: add once per warp {{.*}}

// A sum of squares in double, beside a 64-bit counter, which stays: the
// CUDA compiler adds integers into one address once per warp itself.
__global__ void norms(const double *x, double *sumsq, u64 *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  atomicAdd(&sumsq[0], x[i] * x[i]);
  atomicAdd(seen, (u64)1);
}
// CHECK:      __global__ void norms(
// CHECK:        warpAtomicAdd_norms(&sumsq[0], x[i] * x[i]);
// CHECK-NEXT:   atomicAdd(seen, (u64)1);

__global__ void count_only(const int *vals, unsigned *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && vals[i] > 0)
    atomicAdd(count, 1u);
}
// WHY-LABEL: kernel count_only at {{.*}}
// WHY:         warp-aggregate-atomics: not applied: the `atomicAdd` at line [[@LINE-3]]{{.*}}: it adds integers, which the CUDA compiler already adds once per warp when the address is the same for the warp

// Left alone: the index differs between threads (a histogram), the result
// is used (slots taken), the pointer moves.
__global__ void histogram(const unsigned char *in, float *bins,
                          const float *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[in[i]], w[i]);
}
// WHY-LABEL: kernel histogram at {{.*}}
// WHY:         warp-aggregate-atomics: not applied: the `atomicAdd` at line [[@LINE-3]]{{.*}}: its index `in[i]` may differ from thread to thread (`in[i]` at line [[@LINE-3]] is loaded from memory); privatize-atomics-smem handles additions into an array

__global__ void take_slots(const float *in, float *out, float *fill, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0.f)
    out[(int)atomicAdd(fill, 1.f)] = in[i];
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
            float *bins, float *dst, float *fill) {
  dot_by_atomics<<<(n + 255) / 256, 256>>>(u, v, out, n);
  sum_two<<<1024, 256>>>(u, out, 2, (int)n, 0.5f);
  norms<<<(n + 127) / 128, 128>>>(x, sumsq, seen, (int)n);
  count_only<<<(n + 255) / 256, 256>>>(vals, counters, (int)n);
  histogram<<<(n + 255) / 256, 256>>>(bytes, bins, v, (int)n);
  take_slots<<<(n + 255) / 256, 256>>>(u, dst, fill, (int)n);
  moving_target<<<(n + 255) / 256, 256>>>(u, dst, (int)n);
}
