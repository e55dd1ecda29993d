/* Matrix-vector product, column means and a matrix product whose loops
   live in __device__ helpers, one thread per output; checked against a
   double reference. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 4096
#define COLS 2048
#define NCOLS_STAT 256
#define NROWS_STAT 16384
#define NMM 768

__device__ float row_dot(const float *row, const float *x, int n)
{
    float d = 0.0f;
    for (int k = 0; k < n; ++k)
        d += row[k] * x[k];
    return d;
}

__device__ float col_mean(const float *a, int rows, int cols, int c)
{
    float s = 0.0f;
    for (int r = 0; r < rows; ++r)
        s += a[(size_t)r * cols + c];
    return s / rows;
}

__device__ float dotp(const float *a, const float *b, int len, int ldb)
{
    float s = 0.0f;
    for (int k = 0; k < len; ++k)
        s += a[k] * b[k * ldb];
    return s;
}

__global__ void matmul(const float *A, const float *B, float *C, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n)
        C[row * n + col] = dotp(&A[row * n], &B[col], n, n);
}

__global__ void gemv(const float *A, const float *x, float *y, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m)
        y[i] = row_dot(A + (size_t)i * n, x, n);
}

__global__ void column_means(const float *a, float *means, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float m = col_mean(a, rows, cols, c);
        means[c] = m;
    }
}

static unsigned long long state = 12345;
static float next_uniform(void)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((state >> 40) % 20001) / 10000.0f - 1.0f;
}

int main(void)
{
    const char *seed = getenv("AUTOPROF_SEED");
    if (seed)
        state += strtoull(seed, NULL, 10) * 7919;
    size_t na = (size_t)ROWS * COLS, ns = (size_t)NROWS_STAT * NCOLS_STAT;
    float *hA = (float *)malloc(na * sizeof(float));
    float *hx = (float *)malloc(COLS * sizeof(float));
    float *hs = (float *)malloc(ns * sizeof(float));
    float *hy = (float *)malloc(ROWS * sizeof(float));
    float *hm = (float *)malloc(NCOLS_STAT * sizeof(float));
    for (size_t i = 0; i < na; ++i) hA[i] = next_uniform();
    for (int i = 0; i < COLS; ++i) hx[i] = next_uniform();
    for (size_t i = 0; i < ns; ++i) hs[i] = next_uniform();

    size_t nm = (size_t)NMM * NMM;
    float *hP = (float *)malloc(nm * sizeof(float));
    float *hQ = (float *)malloc(nm * sizeof(float));
    float *hR = (float *)malloc(nm * sizeof(float));
    for (size_t i = 0; i < nm; ++i) hP[i] = next_uniform();
    for (size_t i = 0; i < nm; ++i) hQ[i] = next_uniform();
    float *dP, *dQ, *dR;
    cudaMalloc((void **)&dP, nm * sizeof(float));
    cudaMalloc((void **)&dQ, nm * sizeof(float));
    cudaMalloc((void **)&dR, nm * sizeof(float));
    cudaMemcpy(dP, hP, nm * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dQ, hQ, nm * sizeof(float), cudaMemcpyHostToDevice);

    float *dA, *dx, *dy, *ds, *dm;
    cudaMalloc((void **)&dA, na * sizeof(float));
    cudaMalloc((void **)&dx, COLS * sizeof(float));
    cudaMalloc((void **)&dy, ROWS * sizeof(float));
    cudaMalloc((void **)&ds, ns * sizeof(float));
    cudaMalloc((void **)&dm, NCOLS_STAT * sizeof(float));
    cudaMemcpy(dA, hA, na * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dx, hx, COLS * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(ds, hs, ns * sizeof(float), cudaMemcpyHostToDevice);

    for (int rep = 0; rep < 3; ++rep) {
        gemv<<<(ROWS + 255) / 256, 256>>>(dA, dx, dy, ROWS, COLS);
        column_means<<<(NCOLS_STAT + 127) / 128, 128>>>(ds, dm, NROWS_STAT, NCOLS_STAT);
        matmul<<<dim3((NMM + 15) / 16, (NMM + 15) / 16), dim3(16, 16)>>>(dP, dQ, dR, NMM);
    }
    if (cudaDeviceSynchronize() != cudaSuccess) {
        printf("device_helpers: launch failed\n");
        return 1;
    }
    cudaMemcpy(hy, dy, ROWS * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hm, dm, NCOLS_STAT * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hR, dR, nm * sizeof(float), cudaMemcpyDeviceToHost);

    double worst = 0;
    for (int i = 0; i < ROWS; ++i) {
        double s = 0;
        for (int k = 0; k < COLS; ++k)
            s += (double)hA[(size_t)i * COLS + k] * hx[k];
        worst = fmax(worst, fabs(s - hy[i]) / (1.0 + fabs(s)));
    }
    for (int c = 0; c < NCOLS_STAT; ++c) {
        double s = 0;
        for (int r = 0; r < NROWS_STAT; ++r)
            s += hs[(size_t)r * NCOLS_STAT + c];
        s /= NROWS_STAT;
        worst = fmax(worst, fabs(s - hm[c]) / (1.0 + fabs(s)));
    }
    for (int i = 0; i < NMM; i += 7)
        for (int j = 0; j < NMM; j += 5) {
            double s = 0;
            for (int k = 0; k < NMM; ++k)
                s += (double)hP[(size_t)i * NMM + k] * hQ[(size_t)k * NMM + j];
            worst = fmax(worst, fabs(s - hR[(size_t)i * NMM + j]) / (1.0 + fabs(s)));
        }
    int ok = worst < 1e-3;
    printf("device_helpers: worst relative error %.3g: %s\n", worst, ok ? "ok" : "FAIL");
    cudaFree(dP); cudaFree(dQ); cudaFree(dR);
    free(hP); free(hQ); free(hR);
    cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(ds); cudaFree(dm);
    free(hA); free(hx); free(hs); free(hy); free(hm);
    return ok ? 0 : 1;
}
