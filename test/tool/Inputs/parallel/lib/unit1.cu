#include "../common.cuh"

__global__ void scale1(float *v, float s, unsigned len) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < len)
    v[t] *= s + 1.0;
}

void launch1(const float *a, float *b, float *c, int n) {
  gather<1><<<1, 128>>>(a, b, n);
  scale1<<<(n + 255) / 256, 256>>>(c, 2.0f, n);
}
