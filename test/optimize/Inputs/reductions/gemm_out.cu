// C += A * B with every thread adding into its element of C inside the k
// loop; the reference is computed in double on the host. Seeded inputs,
// one summary line, exit status 1 on a mismatch.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef EDGE
#define EDGE 1024
#endif

__global__ void gemm_acc(const float *a, const float *b, float *c, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < n && x < n)
    for (int k = 0; k < n; k++)
      c[y * n + x] += a[y * n + k] * b[k * n + x];
}

int main() {
  const char *seed_text = std::getenv("AUTOPROF_SEED");
  unsigned seed = seed_text ? std::atoi(seed_text) : 1;
  const int n = EDGE;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  srand(seed);
  for (auto &v : a) v = rand() / (float)RAND_MAX - 0.5f;
  for (auto &v : b) v = rand() / (float)RAND_MAX - 0.5f;
  for (auto &v : c) v = rand() / (float)RAND_MAX;
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
  gemm_acc<<<grid, block>>>(da, db, dc, n);
  std::vector<float> out(n * n);
  cudaMemcpy(out.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < n; y += 97)
    for (int x = 0; x < n; x += 89) {
      double want = c[y * n + x];
      for (int k = 0; k < n; ++k)
        want += (double)a[y * n + k] * b[k * n + x];
      if (std::fabs(out[y * n + x] - want) > 1e-3 * (1 + std::fabs(want)))
        ++bad;
    }
  std::printf("gemm_acc n=%d: %s\n", n, bad ? "FAILED" : "ok");
  return bad ? 1 : 0;
}
