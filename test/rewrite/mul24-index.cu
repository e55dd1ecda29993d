// __umul24(a, b) and __mul24(a, b), the 24-bit multiplies of older CUDA code,
// compute a * b for a thread's index, its block's size and position: the
// kernel model reads them as that product, so the transformations see the
// same index as when it is spelled with `*`. Calls of other intrinsics stay
// opaque.

// RUN: clang-autoprof optimize --dry-run --explain %s -- -std=c++17 | FileCheck %s
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 %s -o %t.cu -- -std=c++17 > /dev/null
// RUN: %no-checks %t.cu | FileCheck --check-prefix=VEC %s

#include <cuda_runtime.h>

#define BLOCK_DIM 16
#define THREADS 256

__global__ void transpose_naive(float *odata, float *idata, int width, int height)
{
	unsigned int xIndex = __umul24(blockDim.x, blockIdx.x) + threadIdx.x;
	unsigned int yIndex = __umul24(blockDim.y, blockIdx.y) + threadIdx.y;
	if (xIndex < width && yIndex < height) {
		unsigned int index_in = xIndex + __umul24(width, yIndex);
		unsigned int index_out = yIndex + __umul24(height, xIndex);
		odata[index_out] = idata[index_in];
	}
}
// CHECK-LABEL: kernel transpose_naive at
// CHECK:   tile-transpose-smem: stage the naive transpose

__global__ void matrixMul(float *C, const float *A, const float *B, int wA, int wB)
{
	int row = __mul24(blockIdx.y, BLOCK_DIM) + threadIdx.y;
	int col = __mul24(blockIdx.x, BLOCK_DIM) + threadIdx.x;
	float Csub = 0;
	for (int k = 0; k < wA; ++k)
		Csub += A[__mul24(row, wA) + k] * B[__mul24(k, wB) + col];
	C[__mul24(row, wB) + col] = Csub;
}
// CHECK-LABEL: kernel matrixMul at
// CHECK:   tile-matmul-smem: stage the naive product

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	const int tid = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
	if (tid < n)
		y[tid] = a * x[tid] + y[tid];
}
// CHECK-LABEL: kernel saxpy at
// CHECK:   vectorize-float4: make each thread
// VEC-LABEL: void saxpy(
// VEC:      const int tid4 = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
// VEC:      if (tid4 < n / 4 &&
// VEC:      float4 y4 = reinterpret_cast<const float4 *>(y)[tid4];
// VEC:      } else if (tid4 < (n + 3) / 4) {
// VEC-NEXT:   for (int tid = 4 * tid4; tid < n && tid < 4 * tid4 + 4; ++tid) {

__global__ void column_sums(const float *m, float *sums, int rows, int cols)
{
	unsigned c = __umul24(blockIdx.x, THREADS) + threadIdx.x;
	if (c < cols) {
		float acc = 0.f;
		for (int r = 0; r < rows; ++r)
			acc += m[r * cols + c];
		sums[c] = acc;
	}
}
// CHECK-LABEL: kernel column_sums at
// CHECK:   split-serial-loop: give each output

/* The high half of a product is no index the model knows. */
__global__ void high_half(float *y, unsigned n)
{
	unsigned i = __umulhi(blockIdx.x, blockDim.x) + threadIdx.x;
	if (i < n)
		y[i] = 0.f;
}
// CHECK-LABEL: kernel high_half at
// CHECK:   vectorize-float4: not applied: it has no guard of the global index

int main(void)
{
	float *a, *b, *c;
	int n = 1 << 20;
	cudaMalloc((void **)&a, n * sizeof(float));
	cudaMalloc((void **)&b, n * sizeof(float));
	cudaMalloc((void **)&c, n * sizeof(float));
	dim3 threads(BLOCK_DIM, BLOCK_DIM);
	dim3 grid(1024 / BLOCK_DIM, 1024 / BLOCK_DIM);
	transpose_naive<<<grid, threads>>>(a, b, 1024, 1024);
	matrixMul<<<grid, threads>>>(c, a, b, 1024, 1024);
	saxpy<<<(n + THREADS - 1) / THREADS, THREADS>>>(n, 2.0f, a, b);
	column_sums<<<4, THREADS>>>(a, c, 1024, 1024);
	high_half<<<n / THREADS, THREADS>>>(a, n);
	cudaDeviceSynchronize();
	return 0;
}
