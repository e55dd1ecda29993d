// vectorize-float4 on grid-stride loops whose elements lie an offset past
// the index: a batch on y (`in + blockIdx.y * n`, which every stored
// element depends on) or a parameter (`out[off + i]`). The alignment test
// comes before the loop over groups, so it tests the first group's
// address (`&src[0]`): every other group lies a whole number of 16 bytes
// after it. launch-block-size scales such a grid's x and keeps its y.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size -o %t.lbs.cu %s -- -std=c++17
// RUN: %no-checks %t.lbs.cu | FileCheck %s --check-prefix=LBS --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -c -o /dev/null %t.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -c -o /dev/null %t.lbs.cu %}

#include <cstddef>

__global__ void squareBatches(const float *__restrict__ in,
                              float *__restrict__ out, int n)
{
    const float *src = in + (std::size_t)blockIdx.y * n;
    float *dst = out + (std::size_t)blockIdx.y * n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        dst[i] = src[i] * src[i];
}
// CHECK:      __global__ void squareBatches(const float *__restrict__ in,
// CHECK:          const float *src = in + (std::size_t)blockIdx.y * n;
// CHECK-NEXT:     float *dst = out + (std::size_t)blockIdx.y * n;
// CHECK-NEXT:     // Four elements per thread: float4 when every vectorised pointer is
// CHECK-NEXT:     // 16-byte aligned, one by one otherwise and for the tail.
// CHECK-NEXT:     if (((reinterpret_cast<unsigned long long>(&src[0]) |
// CHECK-NEXT:            reinterpret_cast<unsigned long long>(&dst[0])) % 16) == 0) {
// CHECK-NEXT:       for (int i4 = (int)blockIdx.x * blockDim.x + threadIdx.x; i4 < n / 4;
// CHECK-NEXT:            i4 += (int)blockDim.x * gridDim.x) {
// CHECK-NEXT:         const float4 in4 = *reinterpret_cast<const float4 *>(&src[4 * i4]);

// An offset that is a parameter.
__global__ void shifted(const float *__restrict__ in, float *__restrict__ out,
                        int n, int off)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        out[off + i] = in[off + i] * 2.0f;
}
// CHECK:      __global__ void shifted(const float *__restrict__ in, float *__restrict__ out,
// CHECK:          if (((reinterpret_cast<unsigned long long>(&in[off + 0]) |
// CHECK-NEXT:            reinterpret_cast<unsigned long long>(&out[off + 0])) % 16) == 0) {
// CHECK:              const float4 in4 = *reinterpret_cast<const float4 *>(&in[off + 4 * i4]);

// Refused: a batch that no stored element depends on.
__global__ void overwrite(const float *__restrict__ in, float *__restrict__ out,
                          int n)
{
    const float *src = in + blockIdx.y * n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        out[i] = src[i];
}
// WHY-LABEL: kernel overwrite at
// WHY:         vectorize-float4: not applied: `blockIdx.y` at line [[@LINE-6]] reads another axis of the grid, on which no element stored at line [[@LINE-3]] depends

void run(const float *a, float *b, int n, int batches)
{
    squareBatches<<<dim3(264, batches), 256>>>(a, b, n);
    shifted<<<1024, 256>>>(a, b, n, 3);
    overwrite<<<dim3(264, batches), 256>>>(a, b, n);
}
// LBS:      void run(const float *a, float *b, int n, int batches)
// LBS-NEXT: {
// LBS-NEXT:     squareBatches<<<dim3(264 * 2, batches), 128>>>(a, b, n);
// LBS-NEXT:     shifted<<<1024 * 2, 128>>>(a, b, n, 3);
