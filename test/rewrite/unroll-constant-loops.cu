// unroll-constant-loops: #pragma unroll before innermost for loops with a
// constant trip count; not before outer, runtime-bound or hinted loops.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=unroll-constant-loops -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines --strict-whitespace
// RUN: clang-autoprof optimize --dry-run --transformations=unroll-constant-loops --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines --strict-whitespace
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=unroll-constant-loops --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=unroll-constant-loops --kernel='^runtime_bound$' %s -- -std=c++17 | FileCheck %s --check-prefix=NEG --match-full-lines

constexpr int K = 4;

__global__ void nest(const float *in, float *out) {
  float s = 0;
  for (int j = 0; j < 16; ++j) {
    for (int k = 0; k < K; k += 1)
      s += in[j * K + k];
  }
  out[threadIdx.x] = s;
}
// CHECK:  for (int j = 0; j < 16; ++j) {
// CHECK-NEXT:    #pragma unroll
// CHECK-NEXT:    for (int k = 0; k < K; k += 1)

__global__ void runtime_bound(const float *in, float *out, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i];
  out[threadIdx.x] = s;
}
// CHECK:  float s = 0;
// CHECK-NEXT:  for (int i = 0; i < n; ++i)

__global__ void hinted(const float *in, float *out) {
  float s = 0;
#pragma unroll 2
  for (int i = 0; i < 8; ++i)
    s += in[i];
  out[threadIdx.x] = s;
}
// CHECK:#pragma unroll 2
// CHECK-NEXT:  for (int i = 0; i < 8; ++i)

// DIFF:# unroll-constant-loops on kernel nest
// DIFF-NEXT:--- {{/.*}}unroll-constant-loops.cu
// DIFF-NEXT:+++ {{/.*}}unroll-constant-loops.cu
// DIFF-NEXT:@@ -{{[0-9]+}},6 +{{[0-9]+}},7 @@
// DIFF-NEXT: __global__ void nest(const float *in, float *out) {
// DIFF-NEXT:   float s = 0;
// DIFF-NEXT:   for (int j = 0; j < 16; ++j) {
// DIFF-NEXT:+    #pragma unroll
// DIFF-NEXT:     for (int k = 0; k < K; k += 1)
// DIFF-NEXT:       s += in[j * K + k];
// DIFF-NEXT:   }
// DIFF-NOT:on kernel

// YAML:      ReplacementText: "    #pragma unroll\n"
// YAML-NOT:  ReplacementText

// NEG:      kernel runtime_bound at {{.*}}
// NEG-NEXT:   no proposal
