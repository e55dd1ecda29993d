/* Sizes as macros, an enclosing guard, the loop variable declared before
   its loop, accumulation straight into the output, dim3 launch shapes
   computed with ceil, as benchmark suites of C heritage write it. */
#include "gemv_common.cuh"

#define NX 16384
#define NY 2048
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

const char *const KernelName = "mv_kernel";

__global__ void mv_kernel(const float *a, const float *x, float *y, int, int)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < NX)
	{
		int j;
		for(j = 0; j < NY; j++)
		{
			y[i] += a[i * NY + j] * x[j];
		}
	}
}

void launch(const float *A, const float *X, float *Y, int Rows, int Cols)
{
	static_assert(NX == kRows && NY == kCols, "sizes");
	dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
	dim3 grid((size_t)ceil(((float)NX) / ((float)block.x)), 1);
	mv_kernel<<< grid, block >>>(A, X, Y, Rows, Cols);
}
