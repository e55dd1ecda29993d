// Terms of a guard that every thread of a launch evaluates alike (a flag,
// a size that must be positive, a mode) bound no index: the per-index
// rewrites take such guards, and those that replace the guard keep the
// terms in an early exit of the whole kernel. Terms that read memory, the
// block's shape or the thread's position stay refused.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.vec.cu %s -- -std=c++17
// RUN: %no-checks %t.vec.cu | FileCheck %s --check-prefix=VEC --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=privatize-atomics-smem -o %t.priv.cu %s -- -std=c++17
// RUN: %no-checks %t.priv.cu | FileCheck %s --check-prefix=PRIV --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4,launch-block-size %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --explain --transformations=block-shape %s -- -std=c++17 | FileCheck %s --check-prefix=SHAPE
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.vec.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.priv.cu %}

#include <cstddef>

#define ENABLE_CLAMP 1

enum class Mode { Copy, Scale };

struct Params {
  float gain;
  bool active;
};

__global__ void axpy_when(int n, float a, const float *x, float *y,
                          bool enabled) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!enabled || i >= n) return;
  y[i] = a * x[i] + y[i];
}
// VEC:      __global__ void axpy_when(int n, float a, const float *x, float *y,
// VEC-NEXT:                           bool enabled) {
// VEC-NEXT:   if (!enabled) return;
// VEC-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// VEC-NEXT:   // Four elements per thread: float4 when every vectorised pointer is
// VEC-NEXT:   // 16-byte aligned, one by one otherwise and for the tail.
// VEC-NEXT:   if (i4 < n / 4 &&
// VEC-NEXT:     ((reinterpret_cast<unsigned long long>(x) |
// VEC-NEXT:          reinterpret_cast<unsigned long long>(y)) % 16) == 0) {
// VEC-NEXT:     const float4 x4 = reinterpret_cast<const float4 *>(x)[i4];
// VEC-NEXT:     float4 y4 = reinterpret_cast<const float4 *>(y)[i4];
// VEC-NEXT:     {
// VEC-NEXT:       y4.x = a * x4.x + y4.x;
// VEC-NEXT:     }
// VEC-NEXT:     {
// VEC-NEXT:       y4.y = a * x4.y + y4.y;
// VEC-NEXT:     }
// VEC-NEXT:     {
// VEC-NEXT:       y4.z = a * x4.z + y4.z;
// VEC-NEXT:     }
// VEC-NEXT:     {
// VEC-NEXT:       y4.w = a * x4.w + y4.w;
// VEC-NEXT:     }
// VEC-NEXT:     reinterpret_cast<float4 *>(y)[i4] = y4;
// VEC-NEXT:   } else if (i4 < (n + 3) / 4) {
// VEC-NEXT:     for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// VEC-NEXT:       y[i] = a * x[i] + y[i];
// VEC-NEXT:     }
// VEC-NEXT:   }
// VEC-NEXT: }
// WHY-LABEL: kernel axpy_when at
// WHY-NEXT:  vectorize-float4: make each thread
// WHY:       launch-block-size(256): launch
// WHY:       launch-block-size(512): launch

__global__ void gain_stage(const float *__restrict__ in, float *__restrict__ out,
                           size_t count, Params p, Mode mode)
{
    const size_t idx = threadIdx.x + blockIdx.x * (size_t)blockDim.x;
    if (count > 0 && idx < count && p.active && mode == Mode::Scale) {
        out[idx] = in[idx] * p.gain;
    }
}
// VEC:      __global__ void gain_stage(const float *__restrict__ in, float *__restrict__ out,
// VEC-NEXT:                            size_t count, Params p, Mode mode)
// VEC-NEXT: {
// VEC-NEXT:     if (!(count > 0) || !p.active || !(mode == Mode::Scale)) return;
// VEC-NEXT:     const size_t idx4 = threadIdx.x + blockIdx.x * (size_t)blockDim.x;
// VEC-NEXT:     // Four elements per thread: float4 when every vectorised pointer is
// WHY-LABEL: kernel gain_stage at
// WHY-NEXT:  vectorize-float4: make each thread
// WHY:       launch-block-size(128): launch

__global__ void tally(const int *keys, unsigned *bins, int n, int nbins) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && nbins == 64)
    atomicAdd(&bins[keys[t] & 63], 1u);
}
// PRIV:      __global__ void tally(const int *keys, unsigned *bins, int n, int nbins) {
// PRIV-NEXT:   // Each block adds into its own copy of bins in shared memory
// PRIV-NEXT:   // and adds the copy to it once, at the end.
// PRIV-NEXT:   __shared__ unsigned int binsBlock[64];
// PRIV-NEXT:   for (int E = threadIdx.x; E < 64; E += blockDim.x)
// PRIV-NEXT:     binsBlock[E] = 0;
// PRIV-NEXT:   __syncthreads();
// PRIV-NEXT:   if (!(nbins == 64)) return;
// PRIV-NEXT:   for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n;
// PRIV-NEXT:        t += gridDim.x * blockDim.x)
// PRIV-NEXT:     atomicAdd(&binsBlock[keys[t] & 63], 1u);
// PRIV-NEXT:   __syncthreads();
// PRIV-NEXT:   for (int E = threadIdx.x; E < 64; E += blockDim.x)
// PRIV-NEXT:     if (binsBlock[E] != 0)
// PRIV-NEXT:       atomicAdd(&bins[E], binsBlock[E]);
// PRIV-NEXT: }
// WHY-LABEL: kernel tally at
// WHY-NEXT:  launch-block-size(128): launch

__global__ void clamp_if(float *v, int n, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !ENABLE_CLAMP || hi <= 0.0f)
    return;
  v[i] = fminf(v[i], hi);
}
// VEC:      __global__ void clamp_if(float *v, int n, float hi) {
// VEC-NEXT:   if (!ENABLE_CLAMP || (hi <= 0.0f)) return;
// VEC-NEXT:   int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// VEC-NEXT:   // Four elements per thread: float4 when every vectorised pointer is

// Conditions alone before a grid-stride loop: every thread strides, or
// none does.
__global__ void
count_words(const unsigned *words, int total, unsigned long long *hist,
            int enabled)
{
    if (total <= 0 || !enabled)
        return;
    for (int w = threadIdx.x + blockIdx.x * blockDim.x; w < total;
         w += blockDim.x * gridDim.x)
        atomicAdd(&hist[words[w] % 32u], 1ull);
}
// PRIV:      count_words(const unsigned *words, int total, unsigned long long *hist,
// PRIV-NEXT:             int enabled)
// PRIV-NEXT: {
// PRIV-NEXT:     // Each block adds into its own copy of hist in shared memory
// PRIV-NEXT:     // and adds the copy to it once, at the end.
// PRIV-NEXT:     __shared__ unsigned long long histBlock[32];
// PRIV-NEXT:     for (int E = threadIdx.x; E < 32; E += blockDim.x)
// PRIV-NEXT:       histBlock[E] = 0;
// PRIV-NEXT:     __syncthreads();
// PRIV-NEXT:     if (total <= 0 || !enabled)
// PRIV-NEXT:         return;
// PRIV-NEXT:     for (int w = threadIdx.x + blockIdx.x * blockDim.x; w < total;
// PRIV-NEXT:          w += blockDim.x * gridDim.x)
// PRIV-NEXT:         atomicAdd(&histBlock[words[w] % 32u], 1ull);
// PRIV-NEXT:     __syncthreads();
// PRIV-NEXT:     for (int E = threadIdx.x; E < 32; E += blockDim.x)
// PRIV-NEXT:       if (histBlock[E] != 0)
// PRIV-NEXT:         atomicAdd(&hist[E], histBlock[E]);
// PRIV-NEXT: }
// WHY-LABEL: kernel count_words at
// WHY:       launch-block-size(256): launch

// A 2-D image whose pass is switched by a parameter: another block shape
// keeps the switch inside the kernel.
__global__ void threshold_image(const float *src, float *dst, int width,
                                int height, float level, int apply) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < width && row < height && apply)
    dst[row * width + col] = src[row * width + col] > level ? 1.0f : 0.0f;
}
// SHAPE-LABEL: kernel threshold_image at
// SHAPE-NEXT:  block-shape(16x16): launch a 2-D kernel

// Not conditions of the launch: a flag in memory, the block's size.
__global__ void from_flag(const int *flag, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || *flag == 0) return;
  y[i] = 2.0f * y[i];
}
// WHY-LABEL: kernel from_flag at
// WHY-NEXT:  no proposal
// WHY-NEXT:  vectorize-float4: not applied: the guard at line [[@LINE-5]] is not a conjunction of bounds
// WHY-NEXT:  launch-block-size: not applied: the guard at line [[@LINE-6]] is not a conjunction of bounds

__global__ void only_256(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || blockDim.x != 256) return;
  y[i] = 0.5f * y[i];
}
// WHY-LABEL: kernel only_256 at
// WHY-NEXT:  no proposal
// WHY-NEXT:  vectorize-float4: not applied: the guard at line [[@LINE-5]] is not a conjunction of bounds
// WHY-NEXT:  launch-block-size: not applied: the guard at line [[@LINE-6]] is not a conjunction of bounds

void run(int n, const float *x, float *y, const int *keys, unsigned *bins,
         const int *flag, bool on) {
  axpy_when<<<(n + 127) / 128, 128>>>(n, 2.0f, x, y, on);
  Params p{0.5f, on};
  gain_stage<<<(n + 63) / 64, 64>>>(x, y, (size_t)n, p, Mode::Scale);
  tally<<<(n + 255) / 256, 256>>>(keys, bins, n, 64);
  clamp_if<<<(n + 127) / 128, 128>>>(y, n, 1.0f);
  from_flag<<<(n + 127) / 128, 128>>>(flag, y, n);
  only_256<<<(n + 255) / 256, 256>>>(y, n);
  count_words<<<132, 128>>>((const unsigned *)keys, n,
                            (unsigned long long *)bins, 1);
  dim3 block(32, 8);
  dim3 grid((n + 31) / 32, (n + 7) / 8);
  threshold_image<<<grid, block>>>(x, y, n, n, 0.5f, on ? 1 : 0);
}
