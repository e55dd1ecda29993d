// Three kernels in spellings common outside this project: a matrix-vector
// product whose loop counts down, per-column means read through a small
// load helper, and a product C = A B whose elements come from a
// `__ldg` getter. Each is one thread per output. The host checks against
// sums in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kRows = 2048;
constexpr int kCols = 4096;
constexpr int kDim = 512;

__device__ __forceinline__ float at(const float *p, int i) { return p[i]; }

static __device__ float getElement(const float *__restrict__ m, int r, int c,
                                   int ld) {
  return __ldg(&m[r * ld + c]);
}

__global__ void gemvBackwards(const float *A, const float *x, float *y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kRows) {
    float s = 0.f;
    for (int j = kCols - 1; j >= 0; --j)
      s += A[i * kCols + j] * x[j];
    y[i] = s;
  }
}

__global__ void columnMeans(const float *A, float *mean, int rows, int cols) {
  int c = threadIdx.x + blockIdx.x * blockDim.x;
  if (c >= cols)
    return;
  float acc = 0.0f;
  for (int r = 0; r < rows; r++)
    acc += at(A, r * cols + c);
  mean[c] = acc / rows;
}

__global__ void matmulGetter(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float v = 0.0f;
    for (int e = 0; e < n; ++e)
      v += getElement(A, row, e, n) * getElement(B, e, col, n);
    C[row * n + col] = v;
  }
}

int main() {
  unsigned long long state = 4242;
  if (const char *s = std::getenv("AUTOPROF_SEED"))
    state += std::strtoull(s, nullptr, 10) * 7919;
  auto uniform = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return float((state >> 40) % 20001) / 10000.0f - 1.0f;
  };
  std::vector<float> a((size_t)kRows * kCols), x(kCols), p((size_t)kDim * kDim),
      q((size_t)kDim * kDim);
  for (float &v : a) v = uniform();
  for (float &v : x) v = uniform();
  for (float &v : p) v = uniform();
  for (float &v : q) v = uniform();

  float *dA, *dx, *dy, *dmean, *dP, *dQ, *dC;
  cudaMalloc(&dA, a.size() * sizeof(float));
  cudaMalloc(&dx, kCols * sizeof(float));
  cudaMalloc(&dy, kRows * sizeof(float));
  cudaMalloc(&dmean, kCols * sizeof(float));
  cudaMalloc(&dP, p.size() * sizeof(float));
  cudaMalloc(&dQ, q.size() * sizeof(float));
  cudaMalloc(&dC, p.size() * sizeof(float));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x.data(), kCols * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dP, p.data(), p.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dQ, q.data(), q.size() * sizeof(float), cudaMemcpyHostToDevice);

  dim3 tile(16, 16), tiles((kDim + 15) / 16, (kDim + 15) / 16);
  for (int rep = 0; rep < 3; ++rep) {
    gemvBackwards<<<kRows / 128, 128>>>(dA, dx, dy);
    columnMeans<<<(kCols + 255) / 256, 256>>>(dA, dmean, kRows, kCols);
    matmulGetter<<<tiles, tile>>>(dP, dQ, dC, kDim);
  }
  std::vector<float> y(kRows), mean(kCols), c(p.size());
  cudaMemcpy(y.data(), dy, kRows * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(mean.data(), dmean, kCols * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost);

  long bad = 0;
  for (int i = 0; i < kRows; ++i) {
    double want = 0, scale = 0;
    for (int j = 0; j < kCols; ++j) {
      want += double(a[(size_t)i * kCols + j]) * x[j];
      scale += std::fabs(double(a[(size_t)i * kCols + j]) * x[j]);
    }
    bad += std::fabs(y[i] - want) > 1e-4 * (1 + scale);
  }
  for (int j = 0; j < kCols; ++j) {
    double want = 0;
    for (int i = 0; i < kRows; ++i)
      want += a[(size_t)i * kCols + j];
    bad += std::fabs(mean[j] - want / kRows) > 1e-4;
  }
  for (int i = 0; i < kDim; i += 7)
    for (int j = 0; j < kDim; ++j) {
      double want = 0, scale = 0;
      for (int e = 0; e < kDim; ++e) {
        want += double(p[(size_t)i * kDim + e]) * q[(size_t)e * kDim + j];
        scale += std::fabs(double(p[(size_t)i * kDim + e]) *
                           q[(size_t)e * kDim + j]);
      }
      bad += std::fabs(c[(size_t)i * kDim + j] - want) > 1e-4 * (1 + scale);
    }
  std::printf("backwards_and_helpers: %s (%ld bad)\n", bad ? "FAILED" : "ok",
              bad);
  return bad != 0;
}
