// Sums of the 4096 columns of a 4096 x 4096 row-major float matrix, one
// thread per column in 32 blocks of 128: too few threads, each summing a
// long column. The host checks every sum in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kRows = 4096, kCols = 4096;

__global__ void column_sums(const float *m, float *sums) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= kCols)
    return;
  float total = 0.0f;
  for (int row = 0; row < kRows; ++row)
    total += m[(size_t)row * kCols + col];
  sums[col] = total;
}

int main() {
  unsigned seed = 7;
  if (const char *s = std::getenv("AUTOPROF_SEED"))
    seed = std::strtoul(s, nullptr, 10);
  std::vector<float> h((size_t)kRows * kCols);
  for (auto &x : h) {
    seed = seed * 1103515245u + 12345u;
    x = ((seed >> 9) & 0xffff) / 65536.0f - 0.5f;
  }
  float *m, *sums;
  cudaMalloc(&m, h.size() * sizeof(float));
  cudaMalloc(&sums, kCols * sizeof(float));
  cudaMemcpy(m, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 5; ++rep)
    column_sums<<<kCols / 128, 128>>>(m, sums);
  std::vector<float> got(kCols);
  cudaMemcpy(got.data(), sums, kCols * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int c = 0; c < kCols; ++c) {
    double want = 0;
    for (int r = 0; r < kRows; ++r)
      want += h[(size_t)r * kCols + c];
    if (std::fabs(got[c] - want) > 1e-3 * (1 + std::fabs(want)))
      ++bad;
  }
  std::printf("column_sums: %s\n", bad ? "FAILED" : "ok");
  return bad != 0;
}
