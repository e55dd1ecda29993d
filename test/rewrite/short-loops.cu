// warp-per-row and split-serial-loop give each output's loops to 32 threads.
// A loop that runs a known number of iterations below 32 would leave some of
// them idle from the start, so a kernel whose every such loop is that short
// is refused with the loop and its count; one long loop (or one whose count
// is not known) is enough to keep the proposal. A template's loop bounded by
// its argument is judged by no single instantiation.

// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,split-serial-loop %s -- -std=c++17 | FileCheck %s

#include <cuda_runtime.h>

#define RADIUS 3
#define TAPS (2 * RADIUS + 1)

/* A 7-tap filter from -RADIUS to RADIUS, its guard from below and above. */
__global__ void
smooth(const float *__restrict__ src, const float *__restrict__ taps,
       float *__restrict__ dst, int len)
{
    const int p = blockDim.x * blockIdx.x + threadIdx.x;
    if (p < RADIUS || p >= len - RADIUS)
        return;
    float acc = 0.0f;
    for (int t = -RADIUS; t <= RADIUS; t++)
        acc += taps[t + RADIUS] * src[p + t];
    dst[p] = acc;
}
// CHECK:      kernel smooth at {{.*}}
// CHECK-NEXT:   no proposal
// CHECK-NEXT:   warp-per-row: not applied: the loop at line 24 runs 7 iterations, fewer than the 32 threads that would share it
// CHECK-NEXT:   split-serial-loop: not applied: the loop at line 24 runs 7 iterations, fewer than the 32 threads that would share it

/* Each point's squared distance to a fixed 3-D origin, a while loop. */
__global__ void
dist2(const double *xyz, double *d, unsigned npts)
{
    unsigned q = threadIdx.x + blockIdx.x * blockDim.x;
    if (q < npts) {
        double s = 0;
        int k = 0;
        while (k < 3) {
            s += xyz[3 * q + k] * xyz[3 * q + k];
            ++k;
        }
        d[q] = s;
    }
}
// CHECK:      kernel dist2 at {{.*}}
// CHECK:        split-serial-loop: not applied: the loop at line 41 runs 3 iterations, fewer than the 32 threads that would share it

/* Two loops over a row of 16 and of 40: the second keeps the proposal. */
__global__ void
pair_sums(const float *a, float *lo, float *hi, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    float s = 0.f, t = 0.f;
    for (int c = 0; c < 16; c++) s += a[r * 56 + c];
    for (int c = 16; c < 56; c++) t += a[r * 56 + c];
    lo[r] = s;
    hi[r] = t;
}
// CHECK:      kernel pair_sums at {{.*}}
// CHECK-NEXT:   warp-per-row: give each row
// CHECK:        split-serial-loop: give each output

/* Exactly 32 iterations: every thread takes one. */
__global__ void
words(const unsigned *bits, unsigned *ones, int n)
{
    int w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w < n) {
        unsigned c = 0;
        for (int b = 0; b < 32; ++b)
            c += (bits[w * 32 + b] & 1u);
        ones[w] = c;
    }
}
// CHECK:      kernel words at {{.*}}
// CHECK:        split-serial-loop: give each output

/* A count known only at run time. */
__global__ void
taps_n(const float *x, const float *h, float *y, int n, int ntaps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float acc = 0;
        for (int k = 0; k < ntaps; ++k)
            acc += h[k] * x[i * ntaps + k];
        y[i] = acc;
    }
}
// CHECK:      kernel taps_n at {{.*}}
// CHECK-NEXT:   warp-per-row: give each row
// CHECK:        split-serial-loop: give each output

/* A template whose count is its argument: 8 in one instantiation, 128 in
   the other. */
template <int W>
__global__ void
window_sum(const float *v, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float s = 0;
        for (int k = 0; k < W; ++k)
            s += v[i * W + k];
        out[i] = s;
    }
}
// CHECK:      kernel window_sum at {{.*}}
// CHECK-NEXT:   warp-per-row: give each row

int main()
{
    float *f;
    double *g;
    unsigned *u;
    cudaMalloc(&f, 1 << 24);
    cudaMalloc(&g, 1 << 24);
    cudaMalloc(&u, 1 << 24);
    smooth<<<4096, 256>>>(f, f, f, 1 << 20);
    dist2<<<(1 << 16) / 128, 128>>>(g, g, 1 << 16);
    pair_sums<<<64, 64>>>(f, f, f, 4096);
    words<<<32, 128>>>(u, u, 4096);
    taps_n<<<64, 64>>>(f, f, f, 4096, 9);
    window_sum<8><<<64, 64>>>(f, f, 4096);
    window_sum<128><<<64, 64>>>(f, f, 4096);
    cudaDeviceSynchronize();
    return 0;
}
