/* Loops whose counters are declared before them, in C style with malloc on
 * the host: column totals over few columns (`int r = 0; for (; r != nr;
 * ++r)`), row totals in double, and a naive transpose launched with 16 x 16
 * blocks. The host checks every output against a double reference and
 * prints one line of sums; AUTOPROF_SEED picks the inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NR_TALL 65536
#define NC_TALL 128
#define NR_WIDE 8192
#define NC_WIDE 2048
#define EDGE 4096

#define CHECK_CUDA(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));           \
      exit(2);                                                                \
    }                                                                         \
  } while (0)

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

__global__ void row_totals(const double *m, double *tot, int nr, int nc)
{
    int r = threadIdx.x + blockIdx.x * blockDim.x;
    if (r < nr)
    {
        double acc = 0.0; int c = 0;
        for (; c < nc; c++)
            acc += m[(size_t)r * nc + c];
        tot[r] = acc;
    }
}

__global__ void flip(const float *src, float *dst, int w, int h)
{
    unsigned xi = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned yi = blockIdx.y * blockDim.y + threadIdx.y;
    if (xi < w && yi < h) {
        unsigned from = xi + w * yi;
        unsigned to = yi + h * xi;
        dst[to] = src[from];
    }
}

static unsigned long long state;
static double next_uniform(void)
{
    state = state * 2862933555777941757ull + 3037000493ull;
    return (double)(state >> 11) / 9007199254740992.0;
}

int main(void)
{
    const char *seed = getenv("AUTOPROF_SEED");
    state = 7 + (seed ? strtoull(seed, NULL, 10) : 0);
    size_t nTall = (size_t)NR_TALL * NC_TALL, nWide = (size_t)NR_WIDE * NC_WIDE;
    size_t nEdge = (size_t)EDGE * EDGE;
    float *tall = (float *)malloc(nTall * sizeof(float));
    double *wide = (double *)malloc(nWide * sizeof(double));
    float *img = (float *)malloc(nEdge * sizeof(float));
    for (size_t i = 0; i < nTall; ++i) tall[i] = (float)(next_uniform() - 0.5);
    for (size_t i = 0; i < nWide; ++i) wide[i] = next_uniform() - 0.5;
    for (size_t i = 0; i < nEdge; ++i) img[i] = (float)next_uniform();

    float *dTall, *dColTot, *dImg, *dFlip;
    double *dWide, *dRowTot;
    CHECK_CUDA(cudaMalloc((void **)&dTall, nTall * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&dColTot, NC_TALL * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&dWide, nWide * sizeof(double)));
    CHECK_CUDA(cudaMalloc((void **)&dRowTot, NR_WIDE * sizeof(double)));
    CHECK_CUDA(cudaMalloc((void **)&dImg, nEdge * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&dFlip, nEdge * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(dTall, tall, nTall * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dWide, wide, nWide * sizeof(double), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dImg, img, nEdge * sizeof(float), cudaMemcpyHostToDevice));

    for (int rep = 0; rep < 3; ++rep) {
        col_totals<<<(NC_TALL + 127) / 128, 128>>>(dTall, dColTot, NR_TALL, NC_TALL);
        row_totals<<<(NR_WIDE + 255) / 256, 256>>>(dWide, dRowTot, NR_WIDE, NC_WIDE);
        dim3 threads(16, 16);
        dim3 blocks((EDGE + 15) / 16, (EDGE + 15) / 16);
        flip<<<blocks, threads>>>(dImg, dFlip, EDGE, EDGE);
    }
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());

    float *colTot = (float *)malloc(NC_TALL * sizeof(float));
    double *rowTot = (double *)malloc(NR_WIDE * sizeof(double));
    float *flipped = (float *)malloc(nEdge * sizeof(float));
    CHECK_CUDA(cudaMemcpy(colTot, dColTot, NC_TALL * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(rowTot, dRowTot, NR_WIDE * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(flipped, dFlip, nEdge * sizeof(float), cudaMemcpyDeviceToHost));

    long bad = 0;
    double colSum = 0, rowSum = 0, flipSum = 0;
    for (int c = 0; c < NC_TALL; ++c) {
        double ref = 0;
        for (int r = 0; r < NR_TALL; ++r) ref += tall[(size_t)r * NC_TALL + c];
        if (fabs(colTot[c] - ref) > 1e-3 * (1.0 + fabs(ref)) + 1e-2) ++bad;
        colSum += colTot[c];
    }
    for (int r = 0; r < NR_WIDE; ++r) {
        double ref = 0;
        for (int c = 0; c < NC_WIDE; ++c) ref += wide[(size_t)r * NC_WIDE + c];
        if (fabs(rowTot[r] - ref) > 1e-9 * (1.0 + fabs(ref))) ++bad;
        rowSum += rowTot[r];
    }
    for (size_t y = 0; y < EDGE; ++y)
        for (size_t x = 0; x < EDGE; ++x) {
            if (flipped[x * EDGE + y] != img[y * EDGE + x]) ++bad;
            flipSum += flipped[x * EDGE + y] * (double)((x + 2 * y) % 7);
        }
    printf("counters_tiles: cols %.6e rows %.6e flip %.6e\n", colSum, rowSum,
           flipSum);
    printf("counters_tiles: %ld wrong: %s\n", bad, bad ? "FAIL" : "ok");
    cudaFree(dTall); cudaFree(dColTot); cudaFree(dWide); cudaFree(dRowTot);
    cudaFree(dImg); cudaFree(dFlip);
    free(tall); free(wide); free(img); free(colTot); free(rowTot); free(flipped);
    return bad ? 1 : 0;
}
