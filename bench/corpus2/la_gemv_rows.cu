// la_gemv_rows: y = A * x in fp32, A is 16384 x 4096 (row-major, 256 MiB).
// One thread per row with a local accumulator, 1-D blocks of 128 threads:
// at each step the lanes of a warp read 32 different rows, 16 KiB apart.
//
// Check: every element of y against a double-precision CPU reference.
// Tolerance 1e-3: sequential fp32 dot products of length 4096 of values in
// [-1, 1) stay within about 1e-4 of the double result.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CUDA_OK(expr)                                                          \
  do {                                                                         \
    cudaError_t status_ = (expr);                                              \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__, __LINE__, #expr,     \
                   cudaGetErrorString(status_));                               \
      std::exit(2);                                                            \
    }                                                                          \
  } while (false)

__global__ void gemvRows(const float *mat, const float *vec, float *out,
                         size_t nRows, size_t nCols) {
  size_t row = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= nRows)
    return;
  float acc = 0.0f;
  for (size_t col = 0; col < nCols; ++col)
    acc += mat[row * nCols + col] * vec[col];
  out[row] = acc;
}

struct SplitMix64 {
  uint64_t state;
  uint64_t operator()() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  float symmetric() { // uniform in [-1, 1)
    return (float)((*this)() >> 40) * (1.0f / 8388608.0f) - 1.0f;
  }
};

static uint64_t envSeed() {
  const char *raw = std::getenv("AUTOPROF_SEED");
  if (raw == nullptr)
    return 0x5EEDULL;
  std::string text(raw);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) {
    std::fprintf(stderr, "la_gemv_rows: AUTOPROF_SEED must be an unsigned integer, got '%s'\n", raw);
    std::exit(2);
  }
  return std::strtoull(raw, nullptr, 10);
}

static int envReps() {
  const char *raw = std::getenv("AUTOPROF_REPS");
  if (raw == nullptr)
    return 10;
  int r = std::atoi(raw);
  return r < 5 ? 5 : r;
}

int main() {
  const size_t rows = 16384, cols = 4096;
  const int blockSize = 128;
  const double tol = 1e-3;

  SplitMix64 gen{envSeed()};
  const int reps = envReps();

  std::vector<float> A(rows * cols), x(cols), y(rows);
  for (auto &v : A)
    v = gen.symmetric();
  for (auto &v : x)
    v = gen.symmetric();

  float *dA, *dx, *dy;
  CUDA_OK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&dx, x.size() * sizeof(float)));
  CUDA_OK(cudaMalloc(&dy, y.size() * sizeof(float)));
  CUDA_OK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemset(dy, 0, y.size() * sizeof(float)));

  const unsigned gridSize = (unsigned)((rows + blockSize - 1) / blockSize);

  cudaEvent_t evStart, evStop;
  CUDA_OK(cudaEventCreate(&evStart));
  CUDA_OK(cudaEventCreate(&evStop));

  // Warm-up launch, then the timed ones.
  gemvRows<<<gridSize, blockSize>>>(dA, dx, dy, rows, cols);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());

  std::vector<float> samplesUs;
  for (int r = 0; r < reps; ++r) {
    CUDA_OK(cudaEventRecord(evStart));
    gemvRows<<<gridSize, blockSize>>>(dA, dx, dy, rows, cols);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaEventRecord(evStop));
    CUDA_OK(cudaEventSynchronize(evStop));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, evStart, evStop));
    samplesUs.push_back(1000.0f * ms);
  }
  std::sort(samplesUs.begin(), samplesUs.end());
  const size_t h = samplesUs.size() / 2;
  const double medianUs = samplesUs.size() % 2
                              ? samplesUs[h]
                              : 0.5 * ((double)samplesUs[h - 1] + samplesUs[h]);

  CUDA_OK(cudaMemcpy(y.data(), dy, y.size() * sizeof(float), cudaMemcpyDeviceToHost));
  CUDA_OK(cudaEventDestroy(evStart));
  CUDA_OK(cudaEventDestroy(evStop));
  CUDA_OK(cudaFree(dA));
  CUDA_OK(cudaFree(dx));
  CUDA_OK(cudaFree(dy));

  double maxErr = 0.0;
  for (size_t r = 0; r < rows; ++r) {
    double want = 0.0;
    const float *rowPtr = &A[r * cols];
    for (size_t c = 0; c < cols; ++c)
      want += (double)rowPtr[c] * (double)x[c];
    double err = std::fabs((double)y[r] - want) / std::max(1.0, std::fabs(want));
    if (!(err <= maxErr)) // NaN counts as an infinite error
      maxErr = std::isnan(err) ? INFINITY : err;
  }

  const bool ok = maxErr <= tol;
  std::printf("corpus: la_gemv_rows %s max_err=%.3g tol=%.3g gemvRows_us=%.2f\n",
              ok ? "PASS" : "FAIL", maxErr, tol, medianUs);
  return ok ? 0 : 1;
}
