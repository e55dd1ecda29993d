__global__ void strided(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * n];
}
__global__ void streaming(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * 2.0f;
}
__global__ void branchy(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  if (x > 0) x = -x;
  if (i % 2) x *= 2.0f;
  if (threadIdx.x < 16) x += 1.0f;
  out[i] = x;
}
