/* C = alpha * A * B + beta * C with sizes that are no multiple of a tile,
   launched with blocks of 32 x 8 threads; each thread scales its element
   and accumulates the product into it. A C host compares every element
   with a double reference. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NI 600
#define NJ 700
#define NK 500
#define DATA_TYPE float
#define ALPHA 1.5f
#define BETA 0.25f

__global__ void gemm(DATA_TYPE *a, DATA_TYPE *b, DATA_TYPE *c)
{
	int j = blockIdx.x * blockDim.x + threadIdx.x;
	int i = blockIdx.y * blockDim.y + threadIdx.y;

	if ((i < NI) && (j < NJ)) {
		c[i * NJ + j] *= BETA;
		int k;
		for (k = 0; k < NK; k++)
			c[i * NJ + j] += ALPHA * a[i * NK + k] * b[k * NJ + j];
	}
}

static unsigned long long state;
static float uniform(void)
{
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((state >> 40) & 0xffff) / 65536.0f - 0.5f;
}

int main(void)
{
	const char *s = getenv("AUTOPROF_SEED");
	state = 11u + (s ? strtoull(s, NULL, 10) : 0u);
	size_t na = (size_t)NI * NK, nb = (size_t)NK * NJ, nc = (size_t)NI * NJ;
	float *a = (float *)malloc(na * sizeof(float));
	float *b = (float *)malloc(nb * sizeof(float));
	float *c = (float *)malloc(nc * sizeof(float));
	float *out = (float *)malloc(nc * sizeof(float));
	for (size_t x = 0; x < na; ++x) a[x] = uniform();
	for (size_t x = 0; x < nb; ++x) b[x] = uniform();
	for (size_t x = 0; x < nc; ++x) c[x] = uniform();
	float *da, *db, *dc;
	cudaMalloc((void **)&da, na * sizeof(float));
	cudaMalloc((void **)&db, nb * sizeof(float));
	cudaMalloc((void **)&dc, nc * sizeof(float));
	cudaMemcpy(da, a, na * sizeof(float), cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, nb * sizeof(float), cudaMemcpyHostToDevice);
	dim3 block(32, 8);
	dim3 grid((NJ + block.x - 1) / block.x, (NI + block.y - 1) / block.y);
	for (int rep = 0; rep < 3; ++rep) {
		cudaMemcpy(dc, c, nc * sizeof(float), cudaMemcpyHostToDevice);
		gemm<<<grid, block>>>(da, db, dc);
	}
	cudaMemcpy(out, dc, nc * sizeof(float), cudaMemcpyDeviceToHost);
	if (cudaDeviceSynchronize() != cudaSuccess) {
		fprintf(stderr, "cuda error\n");
		return 1;
	}
	int wrong = 0;
	for (int i = 0; i < NI; ++i)
		for (int j = 0; j < NJ; ++j) {
			double r = (double)BETA * c[(size_t)i * NJ + j];
			for (int k = 0; k < NK; ++k)
				r += (double)ALPHA * a[(size_t)i * NK + k] * b[(size_t)k * NJ + j];
			wrong += fabs(out[(size_t)i * NJ + j] - r) > 1e-3 * (1.0 + fabs(r));
		}
	printf("gemm: %d wrong\n", wrong);
	return wrong != 0;
}
