// Each thread accumulates into c[i] while reading x through a pointer that,
// in the first launch, is the output one element back: thread i reads
// c[i + k - 1], which for k == 1 is its own element, already added to. A
// register accumulation that ignored the overlap would read the stale value;
// the printed checksum shows it.
#include <cstdio>

__global__ void smear(const float *x, float *c, int n, int taps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - taps)
    for (int k = 0; k < taps; ++k)
      c[i] += 0.5f * x[i + k];
}

int main() {
  const int n = 1 << 12, taps = 4;
  float *c;
  cudaMallocManaged(&c, n * sizeof(float));
  // No element is zero: the first update changes the element that the
  // second iteration reads back.
  for (int i = 0; i < n; ++i)
    c[i] = (i % 7) * 0.25f + 0.5f;
  // One thread, so that the result does not depend on other threads' order.
  smear<<<1, 1>>>(c, c + 1, 8, taps);
  smear<<<1, 1>>>(c, c + 16, 8, taps);
  cudaDeviceSynchronize();
  double sum = 0;
  for (int i = 0; i < 32; ++i)
    sum += c[i] * (i + 1);
  std::printf("checksum %.6f\n", sum);
  return 0;
}
