// Column sums of a row-major matrix, one thread per column.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

struct MatDesc {
    unsigned rows;
    unsigned cols;
    unsigned ld;   // leading dimension (elements per row)
};

__global__ void column_sums(MatDesc d, const float *m, float *out)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= d.cols)
        return;
    float s = 0.f;
    for (unsigned r = 0; r < d.rows; ++r)
        s += m[r * d.ld + c];
    out[c] = s;
}

int main(int argc, char **argv)
{
    MatDesc d;
    d.rows = 8192;
    d.cols = 2048;
    d.ld = d.cols;
    const int nrep = 5;

    unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 2024u;
    srand(seed);

    size_t count = (size_t)d.rows * d.ld;
    float *h = (float *)malloc(count * sizeof(float));
    float *hout = (float *)malloc(d.cols * sizeof(float));
    for (size_t i = 0; i < count; ++i)
        h[i] = (float)(rand() % 1000) / 1000.0f;

    float *dm = NULL, *dout = NULL;
    check(cudaMalloc(&dm, count * sizeof(float)), "cudaMalloc m");
    check(cudaMalloc(&dout, d.cols * sizeof(float)), "cudaMalloc out");
    check(cudaMemcpy(dm, h, count * sizeof(float), cudaMemcpyHostToDevice), "H2D");

    unsigned tpb = 64;
    unsigned nblk = (d.cols + tpb - 1) / tpb;

    column_sums<<<nblk, tpb>>>(d, dm, dout);
    check(cudaGetLastError(), "warmup launch");
    check(cudaDeviceSynchronize(), "warmup sync");

    cudaEvent_t ev0, ev1;
    check(cudaEventCreate(&ev0), "event");
    check(cudaEventCreate(&ev1), "event");
    float best = 1e30f, sum = 0.f;
    for (int it = 0; it < nrep; ++it) {
        check(cudaEventRecord(ev0), "record");
        column_sums<<<nblk, tpb>>>(d, dm, dout);
        check(cudaEventRecord(ev1), "record");
        check(cudaEventSynchronize(ev1), "sync");
        check(cudaGetLastError(), "launch");
        float t;
        check(cudaEventElapsedTime(&t, ev0, ev1), "elapsed");
        sum += t;
        if (t < best) best = t;
    }
    check(cudaMemcpy(hout, dout, d.cols * sizeof(float), cudaMemcpyDeviceToHost), "D2H");

    double *ref = (double *)calloc(d.cols, sizeof(double));
    for (unsigned r = 0; r < d.rows; ++r)
        for (unsigned c = 0; c < d.cols; ++c)
            ref[c] += h[(size_t)r * d.ld + c];

    unsigned bad = 0, first_bad = 0;
    for (unsigned c = 0; c < d.cols; ++c) {
        double rel = fabs(hout[c] - ref[c]) / fmax(fabs(ref[c]), 1e-9);
        if (rel > 1e-3) {
            if (!bad) first_bad = c;
            ++bad;
        }
    }

    cudaFree(dm);
    cudaFree(dout);
    cudaEventDestroy(ev0);
    cudaEventDestroy(ev1);

    int rc = 0;
    if (bad) {
        printf("colsum_struct: FAIL bad_cols=%u first=%u got=%f want=%f\n",
               bad, first_bad, hout[first_bad], ref[first_bad]);
        rc = 1;
    } else {
        printf("colsum_struct: ok time_ms=%.4f best_ms=%.4f\n", sum / nrep, best);
    }
    free(h);
    free(hout);
    free(ref);
    return rc;
}
