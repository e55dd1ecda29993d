// restrict-readonly-params: pointers never written through become
// const __restrict__; written, atomically updated or escaping ones do not.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=restrict-readonly-params -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=restrict-readonly-params --diff %s -- -std=c++17 | FileCheck %s --check-prefix=DIFF --match-full-lines
// RUN: rm -rf %t.dir && mkdir %t.dir && cp %s %t.dir/src.cu
// RUN: clang-autoprof optimize --dry-run --transformations=restrict-readonly-params --export-fixes=%t.dir/fixes.yaml %t.dir/src.cu -- -std=c++17
// RUN: FileCheck %s --input-file=%t.dir/fixes.yaml --check-prefix=YAML
// RUN: clang-autoprof optimize --dry-run --transformations=restrict-readonly-params %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines

// in and scale are only read; out is written.
__global__ void saxpy(float *in, float *out, const float *scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = *scale * in[i] + *(in + i);
}
// CHECK:      __global__ void saxpy(const float *__restrict__ in, float *out, const float *__restrict__ scale, int n) {

// Written through in every way the transformation knows: nothing changes.
__global__ void written(float *a, float *b, int *c, float *d, float *e,
                        float **f) {
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] += 2.0f;
  (*c)++;
  atomicAdd(&d[0], 1.0f);
  float *alias = e;
  alias[0] = 0.0f;
  f[0][0] = 1.0f;
}
// CHECK:      __global__ void written(float *a, float *b, int *c, float *d, float *e,
// CHECK-NEXT:                         float **f) {

// Already const __restrict__: nothing to do.
__global__ void done(const float *__restrict__ in, float *out) {
  out[threadIdx.x] = in[threadIdx.x];
}
// CHECK:      __global__ void done(const float *__restrict__ in, float *out) {

// DIFF:      # restrict-readonly-params on kernel saxpy
// DIFF-NEXT: --- {{/.*}}restrict-readonly-params.cu
// DIFF-NEXT: +++ {{/.*}}restrict-readonly-params.cu
// DIFF-NEXT: @@ -{{[0-9]+}},7 +{{[0-9]+}},7 @@
// DIFF:      -__global__ void saxpy(float *in, float *out, const float *scale, int n) {
// DIFF-NEXT: +__global__ void saxpy(const float *__restrict__ in, float *out, const float *__restrict__ scale, int n) {
// DIFF-NOT:  on kernel

// YAML:      MainSourceFile: '{{.*}}src.cu'
// YAML:      ReplacementText: 'const '
// YAML:      ReplacementText: '__restrict__ '
// YAML:      ReplacementText: '__restrict__ '
// YAML-NOT:  ReplacementText

// LIST:      kernel saxpy at {{.*}}restrict-readonly-params.cu:{{[0-9]+}}:17
// LIST-NEXT:   restrict-readonly-params: declare pointer parameters that are never written through 'const T *__restrict__'
// LIST-NEXT:     trigger: needs gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed, l1tex__t_sector_hit_rate.pct, lts__t_sector_hit_rate.pct
// LIST-NEXT: kernel written at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT: kernel done at {{.*}}
// LIST-NEXT:   no proposal
