// Row-wise softmax, one thread per row: max pass, sum-of-exp pass, normalize pass.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_TRY(call)                                                   \
    do {                                                                 \
        cudaError_t status_ = (call);                                    \
        if (status_ != cudaSuccess) {                                    \
            fprintf(stderr, "CUDA failure '%s' in %s line %d\n",          \
                    cudaGetErrorString(status_), __FILE__, __LINE__);    \
            exit(EXIT_FAILURE);                                          \
        }                                                                \
    } while (0)

constexpr int64_t kRows = 4096;
constexpr int64_t kCols = 1024;

__device__ float row_max(const float *r, int64_t n)
{
    float m = -INFINITY;
    for (int64_t j = 0; j < n; ++j) m = fmaxf(m, r[j]);
    return m;
}

__device__ float row_sum_exp(const float *r, int64_t n, float m)
{
    float s = 0.0f;
    for (int64_t j = 0; j < n; ++j) s += expf(r[j] - m);
    return s;
}

__global__ void softmax_rows(const float *in, float *out, int64_t rows, int64_t cols)
{
    int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row < rows) {
        const float *r = in + row * cols;
        float *o = out + row * cols;
        float m = row_max(r, cols);
        float inv = 1.0f / row_sum_exp(r, cols, m);
        for (int64_t j = 0; j < cols; ++j) o[j] = expf(r[j] - m) * inv;
    }
}

int main(int argc, char **argv)
{
    uint32_t seed = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 99u;
    const int reps = 5;
    const int64_t total = kRows * kCols;

    std::vector<float> h_in(total), h_out(total);
    uint32_t st = seed;
    for (int64_t i = 0; i < total; ++i) {
        st = st * 1103515245u + 12345u;
        h_in[i] = ((st >> 9) & 0x3FFF) / 1024.0f - 8.0f;  // roughly [-8, 8)
    }

    float *d_in, *d_out;
    CUDA_TRY(cudaMalloc(&d_in, total * sizeof(float)));
    CUDA_TRY(cudaMalloc(&d_out, total * sizeof(float)));
    CUDA_TRY(cudaMemcpy(d_in, h_in.data(), total * sizeof(float), cudaMemcpyHostToDevice));

    const int threads = 128;
    const int blocks = static_cast<int>((kRows + threads - 1) / threads);

    softmax_rows<<<blocks, threads>>>(d_in, d_out, kRows, kCols);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());

    cudaEvent_t beg, end;
    CUDA_TRY(cudaEventCreate(&beg));
    CUDA_TRY(cudaEventCreate(&end));
    CUDA_TRY(cudaEventRecord(beg));
    for (int i = 0; i < reps; ++i)
        softmax_rows<<<blocks, threads>>>(d_in, d_out, kRows, kCols);
    CUDA_TRY(cudaEventRecord(end));
    CUDA_TRY(cudaEventSynchronize(end));
    CUDA_TRY(cudaGetLastError());
    float ms = 0.0f;
    CUDA_TRY(cudaEventElapsedTime(&ms, beg, end));
    CUDA_TRY(cudaMemcpy(h_out.data(), d_out, total * sizeof(float), cudaMemcpyDeviceToHost));

    int64_t bad = 0;
    double worst = 0.0;
    for (int64_t i = 0; i < kRows; ++i) {
        const float *r = &h_in[i * kCols];
        double m = r[0];
        for (int64_t j = 1; j < kCols; ++j) m = std::fmax(m, (double)r[j]);
        double s = 0.0;
        for (int64_t j = 0; j < kCols; ++j) s += std::exp((double)r[j] - m);
        for (int64_t j = 0; j < kCols; ++j) {
            double ref = std::exp((double)r[j] - m) / s;
            double err = std::fabs(h_out[i * kCols + j] - ref) / (ref + 1e-12);
            if (err > worst) worst = err;
            if (err > 1e-3) ++bad;
        }
    }

    CUDA_TRY(cudaFree(d_in));
    CUDA_TRY(cudaFree(d_out));
    if (bad > 0) {
        printf("row_softmax: FAIL bad=%lld worst_rel=%.3e\n", (long long)bad, worst);
        return 1;
    }
    printf("row_softmax: ok time_ms=%.4f\n", ms / reps);
    return 0;
}
