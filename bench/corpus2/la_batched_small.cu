// la_batched_small: 2^20 independent 8x8 fp32 matrix products C = A * B in
// one launch (kernels in la_batched_small_kernels.cuh), one thread per output
// element (2^26 threads in 1-D blocks of 256). Each thread reads one row of
// its A and one column of its B straight from global memory.
//
// Check: 65536 sampled output elements against a double CPU reference.
// Tolerance 1e-5: 8-term fp32 dot products of values in [-1, 1).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "la_batched_small_kernels.cuh"

namespace {

void die(const char *file, int line, const char *expr, cudaError_t err) {
  std::fprintf(stderr, "%s:%d: '%s' returned %s (%s)\n", file, line, expr,
               cudaGetErrorName(err), cudaGetErrorString(err));
  std::exit(2);
}

#define TRY(expr)                                                              \
  do {                                                                         \
    cudaError_t err_ = (expr);                                                 \
    if (err_ != cudaSuccess)                                                   \
      die(__FILE__, __LINE__, #expr, err_);                                    \
  } while (0)

// Permuted congruential generator (PCG32, XSH-RR).
class Pcg32 {
public:
  explicit Pcg32(uint64_t seed) {
    next();
    state_ += seed;
    next();
  }
  uint32_t next() {
    uint64_t old = state_;
    state_ = old * 6364136223846793005ULL + 1442695040888963407ULL;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }
  float uniform() { return (float)(next() >> 8) * 0x1.0p-23f - 1.0f; } // [-1, 1)

private:
  uint64_t state_ = 0;
};

uint64_t seedOrDefault() {
  const char *s = std::getenv("AUTOPROF_SEED");
  if (s == nullptr)
    return 20261204ULL;
  char *end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  bool digitsOnly = *s != '\0';
  for (const char *q = s; *q; ++q)
    digitsOnly = digitsOnly && (*q >= '0' && *q <= '9');
  if (!digitsOnly || end == s || *end != '\0') {
    std::fprintf(stderr, "la_batched_small: AUTOPROF_SEED is not an unsigned integer: '%s'\n", s);
    std::exit(2);
  }
  return v;
}

int repsOrDefault() {
  const char *s = std::getenv("AUTOPROF_REPS");
  int n = s ? std::atoi(s) : 10;
  return n >= 5 ? n : 5;
}

template <typename T> struct DevArray {
  T *ptr = nullptr;
  size_t n = 0;
  explicit DevArray(size_t count) : n(count) { TRY(cudaMalloc(&ptr, n * sizeof(T))); }
  ~DevArray() { cudaFree(ptr); }
  DevArray(const DevArray &) = delete;
  DevArray &operator=(const DevArray &) = delete;
};

} // namespace

int main() {
  constexpr int kThreads = 256;
  constexpr int kBlocks = (kTotalElems + kThreads - 1) / kThreads;
  constexpr int kSamples = 1 << 16;
  constexpr double kTol = 1e-5;

  Pcg32 rng(seedOrDefault());
  const int reps = repsOrDefault();

  std::vector<float> hostA(kTotalElems), hostB(kTotalElems), hostC(kTotalElems);
  for (float &v : hostA)
    v = rng.uniform();
  for (float &v : hostB)
    v = rng.uniform();

  DevArray<float> devA(kTotalElems), devB(kTotalElems), devC(kTotalElems);
  const size_t bytes = sizeof(float) * (size_t)kTotalElems;
  TRY(cudaMemcpy(devA.ptr, hostA.data(), bytes, cudaMemcpyHostToDevice));
  TRY(cudaMemcpy(devB.ptr, hostB.data(), bytes, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  TRY(cudaEventCreate(&start));
  TRY(cudaEventCreate(&stop));

  batchedSmallMatmul<<<kBlocks, kThreads>>>(devA.ptr, devB.ptr, devC.ptr); // warm-up
  TRY(cudaGetLastError());
  TRY(cudaDeviceSynchronize());

  std::vector<float> us(reps);
  for (int r = 0; r < reps; ++r) {
    TRY(cudaEventRecord(start));
    batchedSmallMatmul<<<kBlocks, kThreads>>>(devA.ptr, devB.ptr, devC.ptr);
    TRY(cudaGetLastError());
    TRY(cudaEventRecord(stop));
    TRY(cudaEventSynchronize(stop));
    float ms = 0.0f;
    TRY(cudaEventElapsedTime(&ms, start, stop));
    us[r] = ms * 1e3f;
  }
  std::sort(us.begin(), us.end());
  const float medianUs = (reps % 2) ? us[reps / 2] : 0.5f * (us[reps / 2 - 1] + us[reps / 2]);

  TRY(cudaMemcpy(hostC.data(), devC.ptr, bytes, cudaMemcpyDeviceToHost));
  TRY(cudaEventDestroy(start));
  TRY(cudaEventDestroy(stop));

  double maxErr = 0.0;
  for (int s = 0; s < kSamples; ++s) {
    const int mat = (int)(rng.next() % (uint32_t)kBatchCount);
    const int i = (int)(rng.next() % kMatDim);
    const int j = (int)(rng.next() % kMatDim);
    const size_t base = (size_t)mat * kMatElems;
    double want = 0.0;
    for (int p = 0; p < kMatDim; ++p)
      want += (double)hostA[base + i * kMatDim + p] * (double)hostB[base + p * kMatDim + j];
    const double got = hostC[base + i * kMatDim + j];
    double err = std::fabs(got - want) / std::max(1.0, std::fabs(want));
    if (std::isnan(err))
      err = INFINITY;
    maxErr = std::max(maxErr, err);
  }

  const bool pass = maxErr <= kTol;
  std::printf("corpus: la_batched_small %s max_err=%.3g tol=%.3g batchedSmallMatmul_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, kTol, medianUs);
  return pass ? 0 : 1;
}
