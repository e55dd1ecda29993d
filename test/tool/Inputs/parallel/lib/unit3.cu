#include "../common.cuh"

__global__ void scale3(float *v, float s, unsigned len) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < len)
    v[t] *= s + 3.0;
}

void launch3(const float *a, float *b, float *c, int n) {
  gather<3><<<1, 128>>>(a, b, n);
  scale3<<<(n + 255) / 256, 256>>>(c, 2.0f, n);
}
