/* Element-wise kernels that read their index as a value or reach their
 * elements through locals, with a C host. A ramp added to an input (the
 * index read in the arithmetic), points of a grid computed before the
 * guard from the index, a batch reached through a flat index computed
 * before the guard, rows squared through a chain of locals of the work
 * (rows of an odd length, so most rows are not 16-byte aligned), a
 * grid-stride loop that negates every other element, and rows clamped in
 * place through a row pointer of the work under an early return that also
 * bounds the rows (the grid has more rows than the matrix), an image of
 * 16x16 blocks brightened through its rows and columns, and batches on y
 * squared by a grid-stride loop through batch pointers. Each output is
 * checked against a reference computed on the CPU in double; one line of
 * sums is printed. AUTOPROF_SEED picks the inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#define RAMP_N ((1 << 25) + 3)
#define GRID_N ((1 << 25) + 1)
#define BATCHES 48
#define BATCH_N ((1 << 19) + 2)
#define ROWS 4096
#define ROW_W 8191
#define PAR_N ((1 << 25) + 1)
#define CLAMP_ROWS 6000
#define CLAMP_W 6004
#define IMG_W 6000
#define IMG_H 5000
#define SQ_BATCHES 24
#define SQ_N ((1 << 20) + 12)
#define TPB 256

static void die_on(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

static unsigned long long state;
static float next_value(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((state >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
}

__global__ void ramp_add(float *__restrict__ dst,
                         const float *__restrict__ src, int count)
{
    const int gid = threadIdx.x + blockDim.x * blockIdx.x;
    if (gid >= count)
        return;
    dst[gid] = src[gid] + 0.5f * (float)(gid & 1023);
}

__global__ void grid_points(float *__restrict__ y, int n, float x0, float dx)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = x0 + (float)(i & 4095) * dx;
    if (i < n)
        y[i] = x * x - x;
}

__global__ void batch_flat(const float *__restrict__ in,
                           const float *__restrict__ bias,
                           float *__restrict__ out, int n, float s)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int flat = blockIdx.y * n + t;
    if (t < n)
        out[flat] = in[flat] * s + bias[t];
}

__global__ void square_rows(const float *__restrict__ in,
                            float *__restrict__ out, int w)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < w)
    {
        int row = blockIdx.y;
        int base = row * w;
        const int at = base + c;
        out[at] = in[at] * in[at];
    }
}

__global__ void alternate(const float *__restrict__ x, float *__restrict__ y,
                          long long n)
{
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x;
         k < n; k += (long long)gridDim.x * blockDim.x)
        y[k] = (k & 1) ? -x[k] : x[k];
}

__global__ void clamp_rows(float *m, unsigned cols, unsigned rows, float hi)
{
    unsigned c = threadIdx.x + blockIdx.x * blockDim.x;
    if (c >= cols || blockIdx.y >= rows)
        return;
    float *row = m + (size_t)blockIdx.y * cols;
    row[c] = fminf(row[c], hi);
}

__global__ void brighten(const float *__restrict__ img,
                         float *__restrict__ out, int w, int h, float gain)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = fminf(img[y * w + x] * gain, 1.0f);
}

__global__ void square_batches(const float *__restrict__ in,
                               float *__restrict__ out, int n)
{
    const float *src = in + (size_t)blockIdx.y * n;
    float *dst = out + (size_t)blockIdx.y * n;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += blockDim.x * gridDim.x)
        dst[i] = src[i] * src[i];
}

static float *to_device(const float *h, size_t n)
{
    float *d = NULL;
    die_on(cudaMalloc((void **)&d, n * sizeof(float)), "cudaMalloc");
    if (h)
        die_on(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice),
               "cudaMemcpy");
    return d;
}

static float *to_host(const float *d, size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    die_on(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost),
           "cudaMemcpy");
    return h;
}

static float *random_array(size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        h[i] = next_value();
    return h;
}

int main(void)
{
    const char *seed = getenv("AUTOPROF_SEED");
    state = 977ULL + (seed ? strtoull(seed, NULL, 10) : 0ULL);
    const size_t batch_total = (size_t)BATCHES * BATCH_N;
    const size_t rows_total = (size_t)ROWS * ROW_W;
    float *h_src = random_array(RAMP_N);
    float *h_in = random_array(batch_total);
    float *h_bias = random_array(BATCH_N);
    float *h_m = random_array(rows_total);
    float *h_x = random_array(PAR_N);
    const size_t clamp_total = (size_t)CLAMP_ROWS * CLAMP_W;
    float *h_c = random_array(clamp_total);
    const size_t img_total = (size_t)IMG_W * IMG_H;
    float *h_img = random_array(img_total);
    const size_t sq_total = (size_t)SQ_BATCHES * SQ_N;
    float *h_sq = random_array(sq_total);
    const float x0 = next_value(), dx = 1.0f / 4096.0f, s = 1.25f;

    float *d_src = to_device(h_src, RAMP_N), *d_dst = to_device(NULL, RAMP_N);
    float *d_y = to_device(NULL, GRID_N);
    float *d_in = to_device(h_in, batch_total);
    float *d_bias = to_device(h_bias, BATCH_N);
    float *d_out = to_device(NULL, batch_total);
    float *d_m = to_device(h_m, rows_total), *d_sq = to_device(NULL, rows_total);
    float *d_x = to_device(h_x, PAR_N), *d_alt = to_device(NULL, PAR_N);
    float *d_c = to_device(h_c, clamp_total);
    float *d_img = to_device(h_img, img_total), *d_lit = to_device(NULL, img_total);
    float *d_sqin = to_device(h_sq, sq_total), *d_sqout = to_device(NULL, sq_total);

    ramp_add<<<(RAMP_N + TPB - 1) / TPB, TPB>>>(d_dst, d_src, RAMP_N);
    grid_points<<<(GRID_N + TPB - 1) / TPB, TPB>>>(d_y, GRID_N, x0, dx);
    batch_flat<<<dim3((BATCH_N + TPB - 1) / TPB, BATCHES), TPB>>>(
        d_in, d_bias, d_out, BATCH_N, s);
    dim3 rows_grid((ROW_W + 127) / 128, ROWS);
    square_rows<<<rows_grid, 128>>>(d_m, d_sq, ROW_W);
    alternate<<<1056, TPB>>>(d_x, d_alt, (long long)PAR_N);
    clamp_rows<<<dim3((CLAMP_W + TPB - 1) / TPB, CLAMP_ROWS + 5), TPB>>>(
        d_c, CLAMP_W, CLAMP_ROWS, 0.5f);
    dim3 tile(16, 16);
    dim3 tiles((IMG_W + 15) / 16, (IMG_H + 15) / 16);
    brighten<<<tiles, tile>>>(d_img, d_lit, IMG_W, IMG_H, 1.5f);
    square_batches<<<dim3(264, SQ_BATCHES), TPB>>>(d_sqin, d_sqout, SQ_N);
    die_on(cudaGetLastError(), "launch");
    die_on(cudaDeviceSynchronize(), "sync");

    float *dst = to_host(d_dst, RAMP_N), *y = to_host(d_y, GRID_N);
    float *out = to_host(d_out, batch_total), *sq = to_host(d_sq, rows_total);
    float *alt = to_host(d_alt, PAR_N), *clamped = to_host(d_c, clamp_total);
    float *lit = to_host(d_lit, img_total), *sqb = to_host(d_sqout, sq_total);
    long bad = 0;
    double sums[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (long i = 0; i < RAMP_N; ++i) {
        double ref = (double)h_src[i] + 0.5 * (double)(i & 1023);
        if (fabs(dst[i] - ref) > 1e-4 * (1.0 + fabs(ref)))
            ++bad;
        sums[0] += dst[i];
    }
    for (long i = 0; i < GRID_N; ++i) {
        double x = (double)(x0 + (float)(i & 4095) * dx);
        double ref = x * x - x;
        if (fabs(y[i] - ref) > 1e-4 * (1.0 + fabs(ref)))
            ++bad;
        sums[1] += y[i];
    }
    for (size_t i = 0; i < batch_total; ++i) {
        double ref = (double)h_in[i] * s + h_bias[i % BATCH_N];
        if (fabs(out[i] - ref) > 1e-5 * (1.0 + fabs(ref)))
            ++bad;
        sums[2] += out[i];
    }
    for (size_t i = 0; i < rows_total; ++i) {
        double ref = (double)h_m[i] * h_m[i];
        if (fabs(sq[i] - ref) > 1e-5 * (1.0 + fabs(ref)))
            ++bad;
        sums[3] += sq[i];
    }
    for (long i = 0; i < PAR_N; ++i) {
        double ref = (i & 1) ? -(double)h_x[i] : (double)h_x[i];
        if (alt[i] != (float)ref)
            ++bad;
        sums[4] += alt[i];
    }
    for (size_t i = 0; i < clamp_total; ++i) {
        if (clamped[i] != fminf(h_c[i], 0.5f))
            ++bad;
        sums[5] += clamped[i];
    }
    for (size_t i = 0; i < img_total; ++i) {
        if (lit[i] != fminf(h_img[i] * 1.5f, 1.0f))
            ++bad;
        sums[6] += lit[i];
    }
    for (size_t i = 0; i < sq_total; ++i) {
        if (sqb[i] != h_sq[i] * h_sq[i])
            ++bad;
        sums[7] += sqb[i];
    }
    printf("index_values: ramp %.6e points %.6e batch %.6e rows %.6e "
           "alternate %.6e clamp %.6e image %.6e batches %.6e\n",
           sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6],
           sums[7]);
    printf("index_values: %ld wrong: %s\n", bad, bad ? "FAIL" : "ok");
    cudaFree(d_src); cudaFree(d_dst); cudaFree(d_y); cudaFree(d_in);
    cudaFree(d_bias); cudaFree(d_out); cudaFree(d_m); cudaFree(d_sq);
    cudaFree(d_x); cudaFree(d_alt); cudaFree(d_c); cudaFree(d_img);
    cudaFree(d_lit); cudaFree(d_sqin); cudaFree(d_sqout);
    free(h_src); free(h_in); free(h_bias); free(h_m); free(h_x);
    free(dst); free(y); free(out); free(sq); free(alt); free(h_c);
    free(clamped); free(h_img); free(lit); free(h_sq); free(sqb);
    return bad ? 1 : 0;
}
