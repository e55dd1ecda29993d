// Launch sites: the source text of each configuration argument and the
// block size when it is a compile-time constant.
// RUN: clang-autoprof features %s -- -std=c++17 | FileCheck %s
// RUN: clang-autoprof features %s --kernel='^second$' -- -std=c++17 | FileCheck %s --check-prefix=FILTER
// RUN: clang-autoprof features %s --format=json -- -std=c++17 | FileCheck %s --check-prefix=JSON

#include <cuda_runtime.h>

__global__ void first(float *p) { p[threadIdx.x] = 0.0f; }
__global__ void second(float *p, int n) {
  if (threadIdx.x < n)
    p[threadIdx.x] = 1.0f;
}
template <int B> __global__ void third(float *p) { p[threadIdx.x * B] = 2.0f; }

constexpr int BlockSize = 256;

template <int B> void launchThird(float *p) { third<B><<<1, B>>>(p); }

void host(float *p, int n, int runtimeBlock, cudaStream_t s) {
  first<<<n / 256, 256>>>(p);
  first<<<dim3(4, 4), dim3(16, 16)>>>(p);
  dim3 Block(32, 8);
  second<<<(n + 255) / 256, Block, 0, s>>>(p, n);
  second<<<1, runtimeBlock, 128 * sizeof(float)>>>(p, n);
  second<<<2, BlockSize>>>(p, n);
  launchThird<64>(p);
}

// Block sizes through integer locals that keep one value, as the kernel
// model reads launches; a local changed after its declaration is not one.
void locals(float *p, int n) {
  int threads = 128;
  second<<<(n + threads - 1) / threads, threads>>>(p, n);
  int tx = 16, ty = 8;
  dim3 tile(tx, ty);
  first<<<1, tile>>>(p);
  int grown = 64;
  grown *= 2;
  second<<<1, grown>>>(p, n);
}

// CHECK: launch third<64> at {{.*}}launch-sites.cu:18:47 in launchThird<64>: grid=1 block=B block_size=64
// CHECK-NEXT: launch first at {{.*}}launch-sites.cu:21:3 in host: grid=n / 256 block=256 block_size=256
// CHECK-NEXT: launch first at {{.*}}launch-sites.cu:22:3 in host: grid=dim3(4, 4) block=dim3(16, 16) block_size=256
// CHECK-NEXT: launch second at {{.*}}launch-sites.cu:24:3 in host: grid=(n + 255) / 256 block=Block shared=0 stream=s block_size=256
// CHECK-NEXT: launch second at {{.*}}launch-sites.cu:25:3 in host: grid=1 block=runtimeBlock shared=128 * sizeof(float) block_size=?
// CHECK-NEXT: launch second at {{.*}}launch-sites.cu:26:3 in host: grid=2 block=BlockSize block_size=256
// CHECK-NEXT: launch second at {{.*}}launch-sites.cu:34:3 in locals: grid=(n + threads - 1) / threads block=threads block_size=128
// CHECK-NEXT: launch first at {{.*}}launch-sites.cu:37:3 in locals: grid=1 block=tile block_size=128
// CHECK-NEXT: launch second at {{.*}}launch-sites.cu:40:3 in locals: grid=1 block=grown block_size=?
// CHECK-NOT: launch

// FILTER-NOT: kernel first
// FILTER-NOT: launch first
// FILTER: kernel second
// FILTER-NOT: launch first
// FILTER: launch second at {{.*}}:24:3
// FILTER-NOT: launch third

// JSON:      "launch_sites": [
// JSON:          "kernel": "first",
// JSON-NEXT:     "qualified_kernel": "first",
// JSON-NEXT:     "caller": "host",
// JSON-NEXT:     "file": "{{.*}}launch-sites.cu",
// JSON-NEXT:     "line": 21,
// JSON-NEXT:     "column": 3,
// JSON-NEXT:     "grid": "n / 256",
// JSON-NEXT:     "block": "256",
// JSON-NEXT:     "shared_mem": null,
// JSON-NEXT:     "stream": null,
// JSON-NEXT:     "block_size": 256
