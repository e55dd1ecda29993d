#include "../common.cuh"

__global__ void scale5(float *v, float s, unsigned len) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < len)
    v[t] *= s + 5.0;
}

void launch5(const float *a, float *b, float *c, int n) {
  gather<5><<<1, 128>>>(a, b, n);
  scale5<<<(n + 255) / 256, 256>>>(c, 2.0f, n);
}
