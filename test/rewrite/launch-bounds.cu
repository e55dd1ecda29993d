// launch-bounds: __launch_bounds__(B) on a kernel whose every launch in the
// translation unit has the constant block size B; not on a kernel launched
// with two block sizes, with a runtime block size, never launched or already
// bounded. A kernel of a header the source includes gets it in the header.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=launch-bounds -o %t.cu %s -- -std=c++17 -I%S
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 -I%S > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=launch-bounds --diff %s -- -std=c++17 -I%S | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu && cp -r %S/Inputs %t.dir/
// RUN: clang-autoprof optimize --dry-run --transformations=launch-bounds --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=launch-bounds %s -- -std=c++17 -I%S | FileCheck %s --check-prefix=LIST --match-full-lines

#include "Inputs/header-kernel.cuh"

__global__ void uniform(float *p) { p[threadIdx.x] = 0; }
// CHECK: __global__ __launch_bounds__(256) void uniform(float *p) { p[threadIdx.x] = 0; }

__global__ void two_sizes(float *p) { p[threadIdx.x] = 0; }
// CHECK: __global__ void two_sizes(float *p) { p[threadIdx.x] = 0; }

__global__ void runtime_size(float *p) { p[threadIdx.x] = 0; }
// CHECK: __global__ void runtime_size(float *p) { p[threadIdx.x] = 0; }

__global__ void never_launched(float *p) { p[threadIdx.x] = 0; }
// CHECK: __global__ void never_launched(float *p) { p[threadIdx.x] = 0; }

__global__ void __launch_bounds__(128) bounded(float *p) { p[threadIdx.x] = 0; }
// CHECK: __global__ void __launch_bounds__(128) bounded(float *p) { p[threadIdx.x] = 0; }

void run(float *p, int n) {
  dim3 block(16, 16);
  uniform<<<n / 256, block>>>(p);
  uniform<<<1, 256>>>(p);
  two_sizes<<<1, 128>>>(p);
  two_sizes<<<1, 256>>>(p);
  runtime_size<<<1, n>>>(p);
  bounded<<<1, 128>>>(p);
  in_header<<<1, 256>>>(p);
}

// DIFF:      # launch-bounds on kernel in_header
// DIFF-NEXT: --- {{.*}}Inputs/header-kernel.cuh
// DIFF:      +__global__ __launch_bounds__(256) void in_header(float *p) { p[threadIdx.x] = 0; }
// DIFF:      # launch-bounds on kernel uniform
// DIFF:      -__global__ void uniform(float *p) { p[threadIdx.x] = 0; }
// DIFF-NEXT: +__global__ __launch_bounds__(256) void uniform(float *p) { p[threadIdx.x] = 0; }
// DIFF-NOT:  on kernel

// YAML:      FilePath: {{.*}}Inputs/header-kernel.cuh
// YAML:      ReplacementText: '__launch_bounds__(256) '
// YAML:      FilePath: {{.*}}src.cu
// YAML:      ReplacementText: '__launch_bounds__(256) '
// YAML-NOT:  ReplacementText

// LIST:      kernel in_header at {{.*}}header-kernel.cuh:{{.*}}
// LIST-NEXT:   launch-bounds: add __launch_bounds__(B) when every launch uses the constant block size B
// LIST-NEXT:     trigger: needs launch__occupancy_limit_registers, launch__occupancy_limit_warps
// LIST-NEXT: kernel uniform at {{.*}}
// LIST-NEXT:   launch-bounds: add __launch_bounds__(B) when every launch uses the constant block size B
// LIST-NEXT:     trigger: needs launch__occupancy_limit_registers, launch__occupancy_limit_warps
// LIST-NEXT: kernel two_sizes at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel runtime_size at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel never_launched at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel bounded at {{.*}}
// LIST-NEXT:   no proposal
