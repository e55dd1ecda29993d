#define N_ROWS 512
__global__ void colsum(const float *m, float *out, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    float t = 0.0f;
    for (int r = 0; r < N_ROWS; ++r)
      t += m[r * cols + c];
    out[c] = t;
  }
}
__global__ void acc2d(const float *a, float *o, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    for (int k = 0; k < n; ++k)
      o[y * n + x] += a[y * n + k];
}
