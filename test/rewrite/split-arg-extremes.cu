// split-serial-loop on a loop that finds an extreme and where it is: each
// slice finds its own over iterations s, s + 32, ...; the slices' pairs meet
// in two shared arrays, and every slice takes the greatest (least) value
// and, of equal ones, the earliest position, which is what the thread's
// strict comparison kept. A position that does not grow with the loop's
// variable by a constant step is refused with its reason, and so is a loop
// that counts down, whose thread kept the last of equal extremes.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,split-serial-loop --kernel=lastPeak %s -- -std=c++17 | FileCheck %s --check-prefix=DOWN
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu -Werror all-warnings %}

#include <cuda_runtime.h>

typedef unsigned int u32;
enum { NROWS = 8192, NCOLS = 2048 };

// The row of each column's maximum, counted from the second row.
__global__ void
colArgmax(const float *__restrict__ table, u32 *__restrict__ where)
{
    const u32 col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= NCOLS)
        return;
    float top = table[col];
    u32 at = 0;
    for (u32 row = 1; row < NROWS; row++) {
        const float x = table[row * NCOLS + col];
        if (x > top) {
            top = x;
            at = row;
        }
    }
    where[col] = at;
}
// CHECK-LABEL: colArgmax(
// CHECK:         __shared__ float Partial[32][32];
// CHECK-NEXT:    __shared__ unsigned int PartialAt[32][32];
// CHECK:         for (u32 row = 1 + Slice; row < NROWS; row += 32) {
// CHECK:         // The slices' extremes meet: every slice reads the greatest (least)
// CHECK-NEXT:    // and, of equal ones, the earliest.
// CHECK-NEXT:    Partial[Slice][threadIdx.x % 32] = top;
// CHECK-NEXT:    PartialAt[Slice][threadIdx.x % 32] = at;
// CHECK-NEXT:    __syncthreads();
// CHECK-NEXT:    top = Partial[0][threadIdx.x % 32];
// CHECK-NEXT:    at = PartialAt[0][threadIdx.x % 32];
// CHECK-NEXT:    for (int Q = 1; Q < 32; ++Q)
// CHECK-NEXT:      if (Partial[Q][threadIdx.x % 32] > top || (Partial[Q][threadIdx.x % 32] == top && PartialAt[Q][threadIdx.x % 32] < at)) {
// CHECK-NEXT:        top = Partial[Q][threadIdx.x % 32];
// CHECK-NEXT:        at = PartialAt[Q][threadIdx.x % 32];
// CHECK-NEXT:      }
// CHECK-NEXT:    __syncthreads();
// CHECK:         if (Active && Slice == 0)
// CHECK-NEXT:        where[col] = at;

// Least count and its bin, both int; and the total, in the same loop.
__global__ void
quietBin(const int *counts, int *bin, int *total, int bins, int series)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s < series) {
        int low = 2147483647, which = -1, sum = 0;
        for (int b = 0; b < bins; ++b) {
            int v = counts[(long)b * series + s];
            sum += v;
            if (v < low) { low = v; which = b; }
        }
        bin[s] = which;
        total[s] = sum;
    }
}
// CHECK-LABEL: quietBin(
// CHECK:         __shared__ int Partial[32][32];
// CHECK-NEXT:    __shared__ int PartialAt[32][32];
// CHECK:         sum += Partial[Q][threadIdx.x % 32];
// CHECK:         if (Partial[Q][threadIdx.x % 32] < low || (Partial[Q][threadIdx.x % 32] == low && PartialAt[Q][threadIdx.x % 32] < which)) {

// Positions that count down, or grow by a step the kernel does not know.
__global__ void
lastMax(const float *m, int *pos, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float best = -1e30f;
        int p = 0;
        for (int r = 0; r < rows; ++r)
            if (m[r * cols + c] > best) {
                best = m[r * cols + c];
                p = rows - 1 - r;
            }
        pos[c] = p;
    }
}
__global__ void
flatMax(const float *m, int *pos, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float best = -1e30f;
        int p = 0;
        for (int r = 0; r < rows; ++r)
            if (m[r * cols + c] > best) {
                best = m[r * cols + c];
                p = r * cols + c;
            }
        pos[c] = p;
    }
}
// WHY:      kernel lastMax at {{.*}}
// WHY:        split-serial-loop: not applied: the loop at line [[@LINE-24]] records `rows - 1 - r` as the extreme's position, which does not grow with `r`
// WHY:      kernel flatMax at {{.*}}
// WHY:        split-serial-loop: not applied: the loop at line [[@LINE-11]] records `r * cols + c` as the extreme's position, which does not grow with `r`

// A search that counts down keeps the last of equal maxima; slices (and
// warp-per-row's lanes) would run upwards and keep another.
__global__ void
lastPeak(const float *m, int *pos, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    float best = -1e30f;
    int p = -1;
    for (int r = rows - 1; r >= 0; --r) {
        float v = m[r * cols + c];
        if (v > best) { best = v; p = r; }
    }
    pos[c] = p;
}
// DOWN:      kernel lastPeak at {{.*}}
// DOWN-NEXT:   no proposal
// DOWN-NEXT:   warp-per-row: not applied: the loop at line [[@LINE-8]] counts down: of equal extremes, the lanes would keep another than the thread
// DOWN-NEXT:   split-serial-loop: not applied: the loop at line [[@LINE-9]] counts down: of equal extremes, the slices would keep another than the thread

int main()
{
    float *f; int *i; u32 *u;
    cudaMalloc(&f, sizeof(float) * NROWS * NCOLS);
    cudaMalloc(&i, sizeof(int) * NROWS * NCOLS);
    cudaMalloc(&u, sizeof(u32) * NCOLS);
    colArgmax<<<NCOLS / 64, 64>>>(f, u);
    quietBin<<<4, 256>>>(i, i, i, 4096, 1024);
    lastMax<<<16, 128>>>(f, i, 4096, 2048);
    flatMax<<<16, 128>>>(f, i, 4096, 2048);
    lastPeak<<<16, 128>>>(f, i, 4096, 2048);
    cudaDeviceSynchronize();
    return 0;
}
