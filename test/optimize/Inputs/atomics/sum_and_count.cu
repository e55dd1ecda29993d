/* A sum of products and a count of the entries above a threshold, each
   thread adding its share into one global element with atomicAdd; each
   kernel runs three times on fresh zeros. The host checks both in double
   and in integers. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define LEN (1 << 24)
#define THREADS 256

__global__ void dotAll(const float *a, const float *b, float *total, int len)
{
    int k = blockIdx.x * THREADS + threadIdx.x;
    if (k < len)
        atomicAdd(total, a[k] * b[k]);
}

__global__ void countAbove(const float *a, unsigned int *hits, float cut,
                           int len)
{
    int k = threadIdx.x + blockIdx.x * blockDim.x;
    if (k >= len)
        return;
    if (a[k] > cut)
        atomicAdd(hits, 1u);
}

static float next_value(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)((*state >> 40) & 0xffff) / 32768.0f - 1.0f;
}

int main(void)
{
    unsigned long long state = 12345;
    const char *env = getenv("AUTOPROF_SEED");
    if (env)
        state = strtoull(env, NULL, 10) * 977 + 1;
    float *ha = (float *)malloc(LEN * sizeof(float));
    float *hb = (float *)malloc(LEN * sizeof(float));
    for (int i = 0; i < LEN; i++) {
        ha[i] = next_value(&state);
        hb[i] = next_value(&state);
    }
    float *da, *db, *dtotal;
    unsigned int *dhits;
    cudaMalloc((void **)&da, LEN * sizeof(float));
    cudaMalloc((void **)&db, LEN * sizeof(float));
    cudaMalloc((void **)&dtotal, sizeof(float));
    cudaMalloc((void **)&dhits, sizeof(unsigned int));
    cudaMemcpy(da, ha, LEN * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(db, hb, LEN * sizeof(float), cudaMemcpyHostToDevice);
    float total = 0;
    unsigned int hits = 0;
    for (int rep = 0; rep < 3; rep++) {
        cudaMemset(dtotal, 0, sizeof(float));
        cudaMemset(dhits, 0, sizeof(unsigned int));
        dotAll<<<(LEN + THREADS - 1) / THREADS, THREADS>>>(da, db, dtotal, LEN);
        countAbove<<<(LEN + 127) / 128, 128>>>(da, dhits, 0.25f, LEN);
        cudaMemcpy(&total, dtotal, sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(&hits, dhits, sizeof(unsigned int), cudaMemcpyDeviceToHost);
    }
    double want = 0, scale = 0;
    unsigned int want_hits = 0;
    for (int i = 0; i < LEN; i++) {
        want += (double)ha[i] * hb[i];
        scale += fabs((double)ha[i] * hb[i]);
        want_hits += ha[i] > 0.25f;
    }
    int ok = fabs(total - want) <= 1e-4 * scale && hits == want_hits;
    printf("sum_and_count: %s (%g against %g, %u against %u)\n",
           ok ? "ok" : "FAILED", total, want, hits, want_hits);
    return ok ? 0 : 1;
}
