// A program nvcc builds: its host code calls max(float, float), which
// the CUDA headers declare for the host, and Clang's for the device only.
#include <cstdio>
__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
}
int main() {
  float a = 1.0f, b = 2.0f;
  float m = max(a, b);
  std::printf("%f\n", m);
  return 0;
}
