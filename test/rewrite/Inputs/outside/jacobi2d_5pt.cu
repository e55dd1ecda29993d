// 2-D 5-point Jacobi stencil, fixed boundaries, host-side buffer swapping.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <utility>
#include <vector>
#include <cuda_runtime.h>

#define NX 4096
#define NY 4096
#define STEPS 10
#define IDX(i, j) ((i) * nx + (j))

#define CHECK_CUDA(call)                                                        \
    {                                                                           \
        const cudaError_t error = call;                                         \
        if (error != cudaSuccess) {                                             \
            printf("Error: %s:%d, ", __FILE__, __LINE__);                       \
            printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));  \
            exit(1);                                                            \
        }                                                                       \
    }

__global__ void jacobi_step(const float *u, float *unew, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && i < ny - 1 && j > 0 && j < nx - 1) {
        unew[IDX(i, j)] = 0.2f * (u[IDX(i, j)] + u[IDX(i - 1, j)] + u[IDX(i + 1, j)]
                                  + u[IDX(i, j - 1)] + u[IDX(i, j + 1)]);
    }
}

int main(int argc, char **argv)
{
    const int nx = NX, ny = NY;
    const int reps = 3;
    srand(argc > 1 ? atoi(argv[1]) : 5);

    std::vector<float> h(nx * ny);
    for (int i = 0; i < ny; i++)
        for (int j = 0; j < nx; j++)
            h[IDX(i, j)] = (i == 0 || j == 0) ? 1.0f : (float)rand() / (float)RAND_MAX;

    size_t bytes = (size_t)nx * ny * sizeof(float);
    float *d_a, *d_b;
    CHECK_CUDA(cudaMalloc(&d_a, bytes));
    CHECK_CUDA(cudaMalloc(&d_b, bytes));

    dim3 block(64, 4);
    dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);

    cudaEvent_t start, stop;
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));

    float total_ms = 0.0f;
    float *result = nullptr;
    for (int r = 0; r <= reps; r++) {   // r == 0 is warm-up
        CHECK_CUDA(cudaMemcpy(d_a, h.data(), bytes, cudaMemcpyHostToDevice));
        CHECK_CUDA(cudaMemcpy(d_b, h.data(), bytes, cudaMemcpyHostToDevice));
        float *cur = d_a, *nxt = d_b;
        CHECK_CUDA(cudaEventRecord(start));
        for (int t = 0; t < STEPS; t++) {
            jacobi_step<<<grid, block>>>(cur, nxt, nx, ny);
            std::swap(cur, nxt);
        }
        CHECK_CUDA(cudaEventRecord(stop));
        CHECK_CUDA(cudaGetLastError());
        CHECK_CUDA(cudaEventSynchronize(stop));
        float ms;
        CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
        if (r > 0) total_ms += ms;
        result = cur;
    }

    std::vector<float> out(nx * ny);
    CHECK_CUDA(cudaMemcpy(out.data(), result, bytes, cudaMemcpyDeviceToHost));

    // CPU reference in double
    std::vector<double> a(h.begin(), h.end()), b(h.begin(), h.end());
    for (int t = 0; t < STEPS; t++) {
        for (int i = 1; i < ny - 1; i++)
            for (int j = 1; j < nx - 1; j++)
                b[IDX(i, j)] = 0.2 * (a[IDX(i, j)] + a[IDX(i - 1, j)] + a[IDX(i + 1, j)]
                                      + a[IDX(i, j - 1)] + a[IDX(i, j + 1)]);
        std::swap(a, b);
    }

    long bad = 0;
    double maxdiff = 0.0;
    for (size_t k = 0; k < out.size(); k++) {
        double d = fabs((double)out[k] - a[k]);
        if (d > maxdiff) maxdiff = d;
        if (d > 1e-4 * fmax(1.0, fabs(a[k]))) bad++;
    }

    cudaFree(d_a);
    cudaFree(d_b);
    if (bad) {
        printf("jacobi2d_5pt: FAIL bad=%ld maxdiff=%g\n", bad, maxdiff);
        return 1;
    }
    printf("jacobi2d_5pt: ok time_ms=%.4f\n", total_ms / reps);
    return 0;
}
