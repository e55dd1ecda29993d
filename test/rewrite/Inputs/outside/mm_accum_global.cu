/* Naive matrix multiply C = A * B, accumulating straight into global C. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define N 1024
#define BLOCK 16
#define REPS 5
#define CHECK_ROWS 16

#define CHECK(call)                                                        \
    do {                                                                   \
        cudaError_t err = (call);                                          \
        if (err != cudaSuccess) {                                          \
            fprintf(stderr, "CUDA error %s at %s:%d\n",                    \
                    cudaGetErrorString(err), __FILE__, __LINE__);          \
            exit(1);                                                       \
        }                                                                  \
    } while (0)

__global__ void matmul(float *A, float *B, float *C)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int k;

    if (row < N && col < N) {
        for (k = 0; k < N; k++)
            C[row * N + col] += A[row * N + k] * B[k * N + col];
    }
}

int main(int argc, char **argv)
{
    unsigned int seed = 1234;
    float *h_A, *h_B, *h_C;
    float *d_A, *d_B, *d_C;
    size_t bytes = N * N * sizeof(float);
    int i, j, k, r;
    float ms, total = 0.0f;
    cudaEvent_t start, stop;

    if (argc > 1)
        seed = (unsigned int)atoi(argv[1]);
    srand(seed);

    h_A = (float *)malloc(bytes);
    h_B = (float *)malloc(bytes);
    h_C = (float *)malloc(bytes);
    for (i = 0; i < N * N; i++) {
        h_A[i] = (float)rand() / RAND_MAX - 0.5f;
        h_B[i] = (float)rand() / RAND_MAX - 0.5f;
    }

    CHECK(cudaMalloc((void **)&d_A, bytes));
    CHECK(cudaMalloc((void **)&d_B, bytes));
    CHECK(cudaMalloc((void **)&d_C, bytes));
    CHECK(cudaMemcpy(d_A, h_A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_B, h_B, bytes, cudaMemcpyHostToDevice));

    dim3 threads(BLOCK, BLOCK);
    dim3 grid((N + BLOCK - 1) / BLOCK, (N + BLOCK - 1) / BLOCK);

    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    /* warm-up */
    CHECK(cudaMemset(d_C, 0, bytes));
    matmul<<<grid, threads>>>(d_A, d_B, d_C);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    for (r = 0; r < REPS; r++) {
        CHECK(cudaMemset(d_C, 0, bytes));
        CHECK(cudaEventRecord(start, 0));
        matmul<<<grid, threads>>>(d_A, d_B, d_C);
        CHECK(cudaEventRecord(stop, 0));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        total += ms;
    }

    CHECK(cudaMemcpy(h_C, d_C, bytes, cudaMemcpyDeviceToHost));

    /* check a sample of rows on the CPU in double */
    int bad = 0;
    double maxerr = 0.0;
    for (r = 0; r < CHECK_ROWS; r++) {
        i = (r * 997 + 13) % N;
        for (j = 0; j < N; j++) {
            double s = 0.0, sabs = 0.0;
            for (k = 0; k < N; k++) {
                s += (double)h_A[i * N + k] * (double)h_B[k * N + j];
                sabs += fabs((double)h_A[i * N + k] * (double)h_B[k * N + j]);
            }
            double err = fabs((double)h_C[i * N + j] - s) / (sabs + 1e-6);
            if (err > maxerr) maxerr = err;
            if (err > 1e-4) bad++;
        }
    }

    if (bad) {
        printf("mm_accum_global: FAIL mismatches=%d max_rel_err=%g\n", bad, maxerr);
    } else {
        printf("mm_accum_global: ok time_ms=%.4f\n", total / REPS);
    }

    cudaFree(d_A); cudaFree(d_B); cudaFree(d_C);
    free(h_A); free(h_B); free(h_C);
    cudaEventDestroy(start); cudaEventDestroy(stop);
    return bad ? 1 : 0;
}
