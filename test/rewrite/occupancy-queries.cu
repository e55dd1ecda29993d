// A kernel named by the CUDA runtime functions that read or set its
// attributes (the occupancy calculator, cudaFuncGetAttributes,
// cudaFuncSetAttribute, cudaFuncSetCacheConfig) is launched only by its
// `<<<...>>>` launches, so the rewrites that change them still apply. A
// kernel passed to cudaLaunchKernel or to a function of the program's own
// may be launched where the tool cannot see: refused.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s

#include <cuda_runtime.h>

__global__ void Scale(float *v, float f, int count)
{
    int at = threadIdx.x + blockIdx.x * blockDim.x;
    if (at < count)
        v[at] *= f;
}
// CHECK-LABEL: kernel Scale at
// CHECK-NEXT:    vectorize-float4: make each thread

__global__ void Offset(float *v, float d, int count)
{
    int at = threadIdx.x + blockIdx.x * blockDim.x;
    if (at < count)
        v[at] += d;
}
// CHECK-LABEL: kernel Offset at
// CHECK-NEXT:    vectorize-float4: make each thread

__global__ void Square(float *v, int count)
{
    int at = threadIdx.x + blockIdx.x * blockDim.x;
    if (at < count)
        v[at] *= v[at];
}
// CHECK-LABEL: kernel Square at
// CHECK-NEXT:    no proposal
// CHECK-NEXT:    vectorize-float4: not applied: it is named at line 70 other than by a `<<<...>>>` launch (its address taken, cudaLaunchKernel)

__global__ void Negate(float *v, int count)
{
    int at = threadIdx.x + blockIdx.x * blockDim.x;
    if (at < count)
        v[at] = -v[at];
}
// CHECK-LABEL: kernel Negate at
// CHECK-NEXT:    no proposal
// CHECK-NEXT:    vectorize-float4: not applied: it is named at line 64 other than by a `<<<...>>>` launch (its address taken, cudaLaunchKernel)

static void record(const void *fn) { (void)fn; }

void Run(float *v, int count, cudaStream_t s)
{
    int perSM = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, Scale, 256, 0);
    cudaFuncSetCacheConfig(Scale, cudaFuncCachePreferL1);
    cudaFuncAttributes attr;
    cudaFuncGetAttributes(&attr, (const void *)&Offset);
    cudaFuncSetAttribute(Offset, cudaFuncAttributePreferredSharedMemoryCarveout, 0);
    Scale<<<(count + 255) / 256, 256>>>(v, 2.f, count);
    Offset<<<(count + 255) / 256, 256, 0, s>>>(v, 1.f, count);
    Square<<<(count + 255) / 256, 256>>>(v, count);
    Negate<<<(count + 255) / 256, 256>>>(v, count);
    record((const void *)Negate);
}

void Launch(float *v, int count, cudaStream_t s)
{
    void *args[] = {&v, &count};
    cudaLaunchKernel((const void *)Square, dim3((count + 255) / 256), dim3(256), args, 0, s);
}
