#include "../common.cuh"

__global__ void scale2(float *v, float s, unsigned len) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < len)
    v[t] *= s + 2.0;
}

void launch2(const float *a, float *b, float *c, int n) {
  gather<2><<<1, 128>>>(a, b, n);
  scale2<<<(n + 255) / 256, 256>>>(c, 2.0f, n);
}
