// Naive out-of-place transpose, written like a Numba @cuda.jit port.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define cuda_ok(call)                                                            \
    do {                                                                         \
        auto rc_ = (call);                                                       \
        if (rc_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s -> %s\n", #call, cudaGetErrorString(rc_));       \
            exit(1);                                                             \
        }                                                                        \
    } while (0)

// def transpose(a, out):
//     x, y = cuda.grid(2)
//     if x < a.shape[1] and y < a.shape[0]:
//         out[x, y] = a[y, x]
template <typename T>
__global__ void transpose(const T *a, T *out, int rows, int cols)
{
    auto x = blockIdx.x * blockDim.x + threadIdx.x;
    auto y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows) {
        out[x * rows + y] = a[y * cols + x];
    }
}

int main(int argc, char **argv)
{
    const int rows = 4096, cols = 4096;
    const int nrep = 10;
    unsigned long long seed = argc > 1 ? strtoull(argv[1], nullptr, 10) : 0xC0FFEEull;

    float *a, *out;
    cuda_ok(cudaMallocManaged(&a, sizeof(float) * rows * cols));
    cuda_ok(cudaMallocManaged(&out, sizeof(float) * rows * cols));

    auto s = seed;
    for (auto i = 0; i < rows * cols; ++i) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;   // xorshift64
        a[i] = (float)(s % 100000) * 1e-3f;
    }

    // threadsperblock = (32, 32)
    // blockspergrid = (ceil(cols / 32), ceil(rows / 32))
    dim3 threadsperblock(32, 32);
    dim3 blockspergrid((cols + threadsperblock.x - 1) / threadsperblock.x,
                       (rows + threadsperblock.y - 1) / threadsperblock.y);

    transpose<float><<<blockspergrid, threadsperblock>>>(a, out, rows, cols);
    cuda_ok(cudaGetLastError());
    cuda_ok(cudaDeviceSynchronize());

    cudaEvent_t start, end;
    cuda_ok(cudaEventCreate(&start));
    cuda_ok(cudaEventCreate(&end));
    float elapsed = 0.0f;
    for (auto r = 0; r < nrep; ++r) {
        cuda_ok(cudaEventRecord(start));
        transpose<float><<<blockspergrid, threadsperblock>>>(a, out, rows, cols);
        cuda_ok(cudaEventRecord(end));
        cuda_ok(cudaEventSynchronize(end));
        float t = 0.0f;
        cuda_ok(cudaEventElapsedTime(&t, start, end));
        elapsed += t;
    }
    cuda_ok(cudaGetLastError());
    cuda_ok(cudaDeviceSynchronize());

    long long wrong = 0;
    for (auto y = 0; y < rows; ++y)
        for (auto x = 0; x < cols; ++x)
            if (out[(size_t)x * rows + y] != a[(size_t)y * cols + x]) ++wrong;

    cuda_ok(cudaFree(a));
    cuda_ok(cudaFree(out));
    if (wrong) {
        printf("transpose_naive: FAIL wrong=%lld\n", wrong);
        return 1;
    }
    printf("transpose_naive: ok time_ms=%.4f\n", elapsed / nrep);
    return 0;
}
