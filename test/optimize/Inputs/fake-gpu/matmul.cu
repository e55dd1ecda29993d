// A product that accumulates into its output, launched on 16 x 16 blocks.
#include <cstdio>
#define DIM 192

__global__ void product(const float *__restrict__ left,
                        const float *__restrict__ right, float *out) {
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int j = threadIdx.x + blockDim.x * blockIdx.x;
  if (j < DIM && i < DIM) {
    out[i * DIM + j] = 0.0f;
    for (int t = 0; t != DIM; t++)
      out[i * DIM + j] += left[i * DIM + t] * right[t * DIM + j];
  }
}

int main() {
  float *l, *r, *o;
  cudaMalloc(&l, DIM * DIM * sizeof(float));
  cudaMalloc(&r, DIM * DIM * sizeof(float));
  cudaMalloc(&o, DIM * DIM * sizeof(float));
  dim3 block(16, 16);
  product<<<dim3(DIM / 16, DIM / 16), block>>>(l, r, o);
  cudaDeviceSynchronize();
  puts("ok");
  return 0;
}
