// launch-block-size on kernels whose guard also bounds the index from
// below by a value fixed for the launch (a stencil's interior, a window
// of the array): the threads below it do nothing with any block, so only
// the upper bound must stay covered. A lower bound read from memory is
// not fixed for the launch and is refused; vectorize-float4, whose four
// elements per thread would start anywhere, refuses every lower bound.

// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size --diff %s -- -std=c++17 | FileCheck %s
// RUN: clang-autoprof optimize --dry-run --explain --transformations=launch-block-size,vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY

#define W 3

__global__ void smooth3(float *__restrict__ dst, const float *__restrict__ src, int len)
{
  const int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx >= 1 && idx < len - 1)
    dst[idx] = (src[idx - 1] + src[idx] + src[idx + 1]) / W;
}

__global__ void smooth3_ret(float *__restrict__ dst, const float *__restrict__ src, int len)
{
  const int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < 1 || idx > len - 2)
    return;
  dst[idx] = (src[idx - 1] + src[idx] + src[idx + 1]) / W;
}

__global__ void window(float *v, int lo, int hi)
{
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (lo <= idx && idx < hi)
    v[idx] *= 0.5f;
}

__global__ void from_memory(float *v, const int *start, int hi)
{
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  int lo = start[0];
  if (idx >= lo && idx < hi)
    v[idx] *= 0.5f;
}

void host(float *a, float *b, const int *s, int len)
{
  smooth3<<<(len + 255) / 256, 256>>>(b, a, len);
  smooth3_ret<<<(len + 255) / 256, 256>>>(b, a, len);
  window<<<(len + 255) / 256, 256>>>(a, 16, len);
  from_memory<<<(len + 255) / 256, 256>>>(a, s, len);
}

// CHECK-LABEL: # launch-block-size(128) on kernel smooth3
// CHECK:      -  smooth3<<<(len + 255) / 256, 256>>>(b, a, len);
// CHECK-NEXT: +  smooth3<<<(len - 1 + 128 - 1) / 128, 128>>>(b, a, len);
// CHECK-LABEL: # launch-block-size(128) on kernel smooth3_ret
// CHECK:      -  smooth3_ret<<<(len + 255) / 256, 256>>>(b, a, len);
// CHECK-NEXT: +  smooth3_ret<<<(len - 1 + 128 - 1) / 128, 128>>>(b, a, len);
// CHECK-LABEL: # launch-block-size(128) on kernel window
// CHECK:      -  window<<<(len + 255) / 256, 256>>>(a, 16, len);
// CHECK-NEXT: +  window<<<(len + 128 - 1) / 128, 128>>>(a, 16, len);
// CHECK-NOT:  on kernel from_memory

// WHY-LABEL: kernel smooth3 at
// WHY:   vectorize-float4: not applied: its guard at line 16 also bounds the index from below; four consecutive elements per thread would start anywhere
// WHY-LABEL: kernel from_memory at
// WHY:   launch-block-size: not applied: the guard at line 39: `start[0]` at line 38 is loaded from memory
