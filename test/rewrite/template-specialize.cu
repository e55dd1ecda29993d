// A rewrite that holds for some instantiations of a kernel template only
// (it writes float4 where the template says T, or the tile of one
// instantiation's block) runs in those alone: the body becomes
// `if constexpr (<their arguments>) { rewritten } else { as it was }`, and
// only their launches change. Other instantiations, here or in any other
// translation unit, keep the body and launches they had. A launch written in
// a host template is refused (editing it would change the launches of every
// instantiation of that template), and so is a translation unit older than
// C++17.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4,tile-matmul-smem %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 --kernel=scale_shift -o %t.vec.cu %s -- -std=c++17
// RUN: %no-checks %t.vec.cu | FileCheck %s --check-prefix=VEC
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem --kernel=gemm_tpl -o %t.tile.cu %s -- -std=c++17
// RUN: %no-checks %t.tile.cu | FileCheck %s --check-prefix=TILE
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 --kernel=scale_shift %s -- -std=c++14 | FileCheck %s --check-prefix=OLD
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.vec.cu -Werror all-warnings %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.tile.cu -Werror all-warnings %}

#include <cuda_runtime.h>

namespace kern
{
/* y = a * x + b, element by element, for any arithmetic type. */
template <class Real, bool Clamp>
__global__ void scale_shift(const Real *x, Real *y, Real a, Real b,
                            unsigned len)
{
    unsigned k = threadIdx.x + blockDim.x * blockIdx.x;
    if (k >= len)
        return;
    Real v = a * x[k] + b;
    y[k] = Clamp && v < Real(0) ? Real(0) : v;
}

/* C = A * B, square, one thread per element, the tile as an argument. */
template <typename Elem, unsigned Side>
__global__ void gemm_tpl(const Elem *A, const Elem *B, Elem *C, int dim)
{
    int c = blockIdx.x * Side + threadIdx.x;
    int r = blockIdx.y * Side + threadIdx.y;
    if (r < dim && c < dim) {
        Elem acc = 0;
        for (int t = 0; t < dim; ++t)
            acc += A[r * dim + t] * B[t * dim + c];
        C[r * dim + c] = acc;
    }
}

/* Launched from a host template: one text for every instantiation. */
template <class Real>
__global__ void negate(const Real *x, Real *y, int len)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < len)
        y[k] = -x[k];
}
} // namespace kern

template <class Real> void negate_all(const Real *x, Real *y, int len)
{
    kern::negate<Real><<<(len + 127) / 128, 128>>>(x, y, len);
}

void host(const float *xf, float *yf, const double *xd, double *yd,
          unsigned len)
{
    kern::scale_shift<float, true><<<(len + 255) / 256, 256>>>(xf, yf, 2.f,
                                                               1.f, len);
    kern::scale_shift<double, true><<<(len + 255) / 256, 256>>>(xd, yd, 2.0,
                                                                1.0, len);
    dim3 threads(16, 16), blocks(64, 64);
    kern::gemm_tpl<float, 16u><<<blocks, threads>>>(xf, xf, yf, 1024);
    negate_all(xf, yf, (int)len);
    negate_all(xd, yd, (int)len);
}

// WHY:      kernel kern::scale_shift at {{.*}}
// WHY-NEXT:   vectorize-float4: make each thread
// WHY:      kernel kern::gemm_tpl at {{.*}}
// WHY-NEXT:   tile-matmul-smem: stage the naive product
// WHY:      kernel kern::negate at {{.*}}
// WHY:        vectorize-float4: not applied: the edit writes `float4`, from a template argument of one of its instantiations, into the template; its launch at line 62 lies in a template: its edit would reach the launches of that template's other instantiations too

// The float instantiation runs four elements per thread; the double one
// keeps the body and its launch.
// VEC:      #include <type_traits>
// VEC:      template <class Real, bool Clamp>
// VEC:          if constexpr (std::is_same<Real, float>::value && Clamp) {
// VEC-NEXT:         unsigned int k4 = threadIdx.x + blockDim.x * blockIdx.x;
// VEC:              const float4 x4 = reinterpret_cast<const float4 *>(x)[k4];
// VEC:          } else {
// VEC-NEXT:         unsigned k = threadIdx.x + blockDim.x * blockIdx.x;
// VEC-NEXT:         if (k >= len)
// VEC-NEXT:             return;
// VEC-NEXT:         Real v = a * x[k] + b;
// VEC-NEXT:         y[k] = Clamp && v < Real(0) ? Real(0) : v;
// VEC-NEXT:     }
// VEC-NEXT: }
// VEC:      kern::scale_shift<float, true><<<((len + 3) / 4 + 256 - 1) / 256, 256>>>
// VEC:      kern::scale_shift<double, true><<<(len + 255) / 256, 256>>>(xd, yd, 2.0,

// TILE:         if constexpr (std::is_same<Elem, float>::value && Side == 16u) {
// TILE:                 __shared__ Elem As[16][16];
// TILE:         } else {
// TILE-NEXT:            int c = blockIdx.x * Side + threadIdx.x;

// OLD:      vectorize-float4: not applied: the edit writes `float4`, from a template argument of one of its instantiations, into the template; only C++17 and later can choose the instantiations that run it (`if constexpr`)
