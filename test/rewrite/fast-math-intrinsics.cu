// fast-math-intrinsics: expf, logf, sinf, cosf and powf in a kernel's body
// become __expf, __logf, __sinf, __cosf and __powf; other functions, double
// precision and device functions are left alone.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=fast-math-intrinsics -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=fast-math-intrinsics --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=fast-math-intrinsics --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=fast-math-intrinsics --kernel='^precise$' %s -- -std=c++17 | FileCheck %s --check-prefix=NEG --match-full-lines

__device__ float helper(float x) { return expf(x); }
// CHECK: __device__ float helper(float x) { return expf(x); }

__global__ void math(const float *in, float *out) {
  float x = in[threadIdx.x];
  out[threadIdx.x] = expf(x) + logf(x) * sinf(x) - cosf(x) + powf(x, 2.0f) +
                     sqrtf(x) + helper(x);
}
// CHECK:        out[threadIdx.x] = __expf(x) + __logf(x) * __sinf(x) - __cosf(x) + __powf(x, 2.0f) +
// CHECK-NEXT:                      sqrtf(x) + helper(x);

__global__ void precise(const double *in, double *out) {
  out[threadIdx.x] = exp(in[threadIdx.x]) + tanhf((float)in[threadIdx.x]);
}
// CHECK:        out[threadIdx.x] = exp(in[threadIdx.x]) + tanhf((float)in[threadIdx.x]);

// DIFF:      # fast-math-intrinsics on kernel math
// DIFF:      -  out[threadIdx.x] = expf(x) + logf(x) * sinf(x) - cosf(x) + powf(x, 2.0f) +
// DIFF-NEXT: +  out[threadIdx.x] = __expf(x) + __logf(x) * __sinf(x) - __cosf(x) + __powf(x, 2.0f) +
// DIFF-NOT:  on kernel

// YAML:      ReplacementText: __expf
// YAML:      ReplacementText: __logf
// YAML:      ReplacementText: __sinf
// YAML:      ReplacementText: __cosf
// YAML:      ReplacementText: __powf
// YAML-NOT:  ReplacementText

// NEG:      kernel precise at {{.*}}
// NEG-NEXT:   no proposal
