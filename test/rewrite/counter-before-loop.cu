// A loop whose counter is declared before it, `int j = 0; for (; j < n;
// ++j)`, counts as `for (int j = 0; ...)` does: the grid-stride loop, the
// row loop of warp-per-row and split-serial-loop, the k loop of a matmul.
// A counter read outside its loop (between its declaration and the loop,
// or after it) is refused by every rewrite that changes the values it
// takes, whatever the loop's spelling: each lane, slice or tile would see
// another value there.

// RUN: clang-autoprof optimize --dry-run --transformations=launch-block-size -o %t.lbs.cu %s -- -std=c++17
// RUN: %no-checks %t.lbs.cu | FileCheck %s --check-prefix=LBS --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.wpr.cu %s -- -std=c++17
// RUN: %no-checks %t.wpr.cu | FileCheck %s --check-prefix=WPR --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,split-serial-loop,tile-matmul-smem,launch-block-size %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.lbs.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.wpr.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}

typedef unsigned int uint;

// A grid-stride scale whose index and stride are set before the loop.
__global__ void scale_all(float *__restrict__ v, float k, uint count)
{
    uint idx = threadIdx.x + blockIdx.x * blockDim.x;
    const uint step = gridDim.x * blockDim.x;
    for (; idx < count; idx += step)
        v[idx] *= k;
}

// Row sums, the column counter declared with the sum.
__global__ void row_totals(const double *m, double *tot, int nr, int nc)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < nr)
    {
        double acc = 0.0; int c = 0;
        for (; c < nc; c++)
            acc += m[r * nc + c];
        tot[r] = acc;
    }
}
// WPR:      __global__ void row_totals(const double *m, double *tot, int nr, int nc)
// WPR-NEXT: {
// WPR-NEXT:     int r = (threadIdx.x + blockIdx.x * blockDim.x) / 32;
// WPR-NEXT:     // One warp per row: its lanes split the row.
// WPR-NEXT:     int Lane = threadIdx.x % 32;
// WPR-NEXT:     if (r < nr)
// WPR-NEXT:     {
// WPR-NEXT:         double acc = 0.0; int c = Lane;
// WPR-NEXT:         for (; c < nc; c += 32)
// WPR-NEXT:             acc += m[r * nc + c];
// WPR-NEXT:         for (int Offset = 16; Offset > 0; Offset /= 2)
// WPR-NEXT:           acc += __shfl_down_sync(0xffffffff, acc, Offset);
// WPR-NEXT:         if (Lane == 0)
// WPR-NEXT:           tot[r] = acc;
// WPR-NEXT:     }
// WPR-NEXT: }

// Column sums over few columns: more threads per column.
__global__ void col_totals(const float *m, float *tot, int nr, int nc)
{
    int c = threadIdx.x + blockIdx.x * blockDim.x;
    if (c >= nc) return;
    float acc = 0.f;
    int r = 0;
    for (; r != nr; ++r)
        acc += m[r * nc + c];
    tot[c] = acc;
}
// SPLIT:      __global__ void col_totals(const float *m, float *tot, int nr, int nc)
// SPLIT:          int r = Slice;
// SPLIT-NEXT:     if (Active)
// SPLIT-NEXT:       for (; r < nr; r += 32)
// SPLIT-NEXT:         acc += m[r * nc + c];

// The counter after the loop: the number of columns, not a lane's last
// position.
__global__ void row_totals_and_count(const float *m, float *tot, int nr, int nc)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < nr)
    {
        float acc = 0.f; int c;
        for (c = 0; c < nc; c++)
            acc += m[r * nc + c];
        tot[r] = acc / c;
    }
}
// WHY-LABEL: kernel row_totals_and_count at {{.*}}
// WHY:         warp-per-row: not applied: `c` is read outside the loop at line [[@LINE-6]], at line [[@LINE-4]]
// WHY-NEXT:    split-serial-loop: not applied: `c` is read outside the loop at line [[@LINE-7]], at line [[@LINE-5]]

// The counter read before the loop: each lane would read its own first
// element.
__global__ void scaled_by_first(const float *m, float *tot, int nr, int nc)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < nr)
    {
        int c = 0;
        float first = m[r * nc + c];
        float acc = 0.f;
        for (; c < nc; ++c)
            acc += m[r * nc + c] / first;
        tot[r] = acc;
    }
}
// WHY-LABEL: kernel scaled_by_first at {{.*}}
// WHY:         warp-per-row: not applied: `c` is read outside the loop at line [[@LINE-6]], at line [[@LINE-8]]
// WHY-NEXT:    split-serial-loop: not applied: `c` is read outside the loop at line [[@LINE-7]], at line [[@LINE-9]]

// A product whose k is read after the loop: the tiles' loops declare
// their own.
__global__ void product_and_k(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n)
    {
        float s = 0.f;
        int k = 0;
        for (; k < n; ++k)
            s += A[row * n + k] * B[k * n + col];
        C[row * n + col] = s + (float)k;
    }
}
// WHY-LABEL: kernel product_and_k at {{.*}}
// WHY-NEXT:    no proposal
// WHY:         tile-matmul-smem: not applied: `k` is read outside the loop at line [[@LINE-7]], at line [[@LINE-5]]

int main()
{
    const uint count = 1u << 20;
    float *v = nullptr, *t = nullptr, *p = nullptr;
    double *d = nullptr, *dt = nullptr;
    scale_all<<<240, 256>>>(v, 2.f, count);
    row_totals<<<(4096 + 127) / 128, 128>>>(d, dt, 4096, 512);
    col_totals<<<(64 + 63) / 64, 64>>>(v, t, 8192, 64);
    row_totals_and_count<<<(4096 + 127) / 128, 128>>>(v, t, 4096, 500);
    scaled_by_first<<<(4096 + 127) / 128, 128>>>(v, t, 4096, 500);
    dim3 block(16, 16), grid(64, 64);
    product_and_k<<<grid, block>>>(v, t, p, 1024);
    return 0;
}
// LBS:      __global__ void scale_all(float *__restrict__ v, float k, uint count)
// LBS:          scale_all<<<240 * 2, 128>>>(v, 2.f, count);
