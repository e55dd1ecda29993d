#include "../common.cuh"

__global__ void scale4(float *v, float s, unsigned len) {
  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  if (t < len)
    v[t] *= s + 4.0;
}

void launch4(const float *a, float *b, float *c, int n) {
  gather<4><<<1, 128>>>(a, b, n);
  scale4<<<(n + 255) / 256, 256>>>(c, 2.0f, n);
}
