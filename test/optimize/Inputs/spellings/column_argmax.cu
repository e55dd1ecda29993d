/* The row of each column's first greatest value, and of its first least,
   over a tall table of few columns: values from a small range, so a
   column's extreme occurs many times and only the first counts. A C host
   checks every position against a serial search. */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define DEPTH 65536
#define WIDTH 512

__global__ void column_peaks(const short *t, int *hi_at, int *lo_at)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < WIDTH) {
        short hi = t[col], lo = t[col];
        int h = 0, l = 0;
        for (int r = 1; r < DEPTH; ++r) {
            short x = t[(size_t)r * WIDTH + col];
            if (x > hi) { hi = x; h = r; }
            if (x < lo) { lo = x; l = r; }
        }
        hi_at[col] = h;
        lo_at[col] = l;
    }
}

static unsigned rng;
static unsigned next(void) { rng = rng * 22695477u + 1u; return rng >> 10; }

int main(void)
{
    const char *s = getenv("AUTOPROF_SEED");
    rng = 5u + (s ? (unsigned)strtoul(s, NULL, 10) : 0u);
    size_t n = (size_t)DEPTH * WIDTH;
    short *t = (short *)malloc(n * sizeof(short));
    for (size_t i = 0; i < n; ++i)
        t[i] = (short)(next() % 2001) - 1000;
    short *dt; int *dh, *dl;
    cudaMalloc((void **)&dt, n * sizeof(short));
    cudaMalloc((void **)&dh, WIDTH * sizeof(int));
    cudaMalloc((void **)&dl, WIDTH * sizeof(int));
    cudaMemcpy(dt, t, n * sizeof(short), cudaMemcpyHostToDevice);
    for (int rep = 0; rep < 3; ++rep)
        column_peaks<<<WIDTH / 128, 128>>>(dt, dh, dl);
    int h[WIDTH], l[WIDTH];
    cudaMemcpy(h, dh, sizeof h, cudaMemcpyDeviceToHost);
    cudaMemcpy(l, dl, sizeof l, cudaMemcpyDeviceToHost);
    if (cudaDeviceSynchronize() != cudaSuccess) { fprintf(stderr, "cuda error\n"); return 1; }
    int wrong = 0;
    for (int c = 0; c < WIDTH; ++c) {
        int bh = 0, bl = 0;
        for (int r = 1; r < DEPTH; ++r) {
            if (t[(size_t)r * WIDTH + c] > t[(size_t)bh * WIDTH + c]) bh = r;
            if (t[(size_t)r * WIDTH + c] < t[(size_t)bl * WIDTH + c]) bl = r;
        }
        wrong += (h[c] != bh) + (l[c] != bl);
    }
    printf("column_peaks: %d wrong\n", wrong);
    return wrong != 0;
}
