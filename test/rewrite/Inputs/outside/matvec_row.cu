// y = A * x, one thread per row, A is row-major, unified memory.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define gpuErrchk(ans) { gpuAssert((ans), __FILE__, __LINE__); }
inline void gpuAssert(cudaError_t code, const char *file, int line, bool abort = true)
{
    if (code != cudaSuccess) {
        fprintf(stderr, "GPUassert: %s %s %d\n", cudaGetErrorString(code), file, line);
        if (abort) exit(code);
    }
}

__global__ void matvec(const float *A, const float *x, float *y, size_t rows, size_t cols)
{
    size_t row = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (size_t j = 0; j < cols; j++) {
            sum += A[row * cols + j] * x[j];
        }
        y[row] = sum;
    }
}

static unsigned int blocksFor(size_t n, unsigned int threads)
{
    return (unsigned int)((n + threads - 1) / threads);
}

static unsigned int lcg_state;
static float lcg_uniform()
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (lcg_state >> 8) * (1.0f / 16777216.0f);
}

int main(int argc, char **argv)
{
    const size_t rows = 4096, cols = 4096;
    const int reps = 20;
    lcg_state = (argc > 1) ? (unsigned int)strtoul(argv[1], NULL, 10) : 7u;

    float *A, *x, *y;
    gpuErrchk(cudaMallocManaged(&A, rows * cols * sizeof(float)));
    gpuErrchk(cudaMallocManaged(&x, cols * sizeof(float)));
    gpuErrchk(cudaMallocManaged(&y, rows * sizeof(float)));

    for (size_t i = 0; i < rows * cols; i++) A[i] = lcg_uniform() - 0.5f;
    for (size_t j = 0; j < cols; j++) x[j] = lcg_uniform();

    const unsigned int threads = 128;
    const unsigned int blocks = blocksFor(rows, threads);

    // first launch also migrates the managed pages to the device
    matvec<<<blocks, threads>>>(A, x, y, rows, cols);
    gpuErrchk(cudaGetLastError());
    gpuErrchk(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    gpuErrchk(cudaEventCreate(&start));
    gpuErrchk(cudaEventCreate(&stop));
    gpuErrchk(cudaEventRecord(start));
    for (int r = 0; r < reps; r++)
        matvec<<<blocks, threads>>>(A, x, y, rows, cols);
    gpuErrchk(cudaEventRecord(stop));
    gpuErrchk(cudaEventSynchronize(stop));
    gpuErrchk(cudaGetLastError());
    float ms;
    gpuErrchk(cudaEventElapsedTime(&ms, start, stop));

    size_t nbad = 0;
    double maxrel = 0.0;
    for (size_t i = 0; i < rows; i++) {
        double ref = 0.0, mag = 0.0;
        for (size_t j = 0; j < cols; j++) {
            ref += (double)A[i * cols + j] * (double)x[j];
            mag += fabs((double)A[i * cols + j] * (double)x[j]);
        }
        double rel = fabs(y[i] - ref) / (mag > 1e-12 ? mag : 1e-12);
        if (rel > maxrel) maxrel = rel;
        if (rel > 1e-4) nbad++;
    }

    gpuErrchk(cudaFree(A));
    gpuErrchk(cudaFree(x));
    gpuErrchk(cudaFree(y));

    if (nbad) {
        printf("matvec_row: FAIL nbad=%zu maxrel=%g\n", nbad, maxrel);
        return 1;
    }
    printf("matvec_row: ok time_ms=%.4f\n", ms / reps);
    return 0;
}
