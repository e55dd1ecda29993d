// The kernel of every program of the live learning tests, built by the
// stand-in nvcc beside it (cuda/bin/nvcc) and run by test/optimize's fake
// program: each word of its TIMES in the text makes the program faster.
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.0f * x[i];
}

void run(float *x, int n) { scale<<<(n + 255) / 256, 256>>>(x, n); }
