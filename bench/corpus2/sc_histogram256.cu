// sc_histogram256: 256-bin histogram of 2^26 uniformly distributed random
// bytes. The kernel (hist256, in sc_histogram256_kernels.cuh) runs one thread
// per byte in 1-D blocks of 256 and does atomicAdd on the global bins.
//
// Bottleneck: atomic-contention. 2^26 global atomics land on only 256
// addresses, so the L2 atomic units serialise the updates of each bin.
//
// Tolerance 0: integer atomics are exact and their order does not matter.

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "sc_histogram256_kernels.cuh"

static void check(cudaError_t status, const char *file, int line) {
  if (status == cudaSuccess)
    return;
  std::fprintf(stderr, "%s:%d: CUDA error %d: %s\n", file, line, (int)status,
               cudaGetErrorString(status));
  std::exit(2);
}
#define CHK(x) check((x), __FILE__, __LINE__)

static uint64_t getSeed() {
  const char *env = std::getenv("AUTOPROF_SEED");
  if (env == nullptr)
    return 2718281828ULL;
  char *end = nullptr;
  errno = 0;
  uint64_t v = std::strtoull(env, &end, 10);
  if (env[0] < '0' || env[0] > '9' || *end != '\0' || errno != 0) {
    std::fprintf(stderr, "sc_histogram256: bad AUTOPROF_SEED '%s'\n", env);
    std::exit(2);
  }
  return v;
}

static int getReps() {
  const char *env = std::getenv("AUTOPROF_REPS");
  long v = env ? std::strtol(env, nullptr, 10) : 10;
  if (v < 5)
    v = 5;
  return (int)v;
}

// xorshift64* generator.
static uint64_t g_state;
static uint64_t nextRand() {
  g_state ^= g_state >> 12;
  g_state ^= g_state << 25;
  g_state ^= g_state >> 27;
  return g_state * 0x2545F4914F6CDD1DULL;
}

int main() {
  const unsigned int N = 1u << 26; // multiple of 8: one draw gives 8 bytes
  const unsigned int BLOCK = 256;
  const unsigned int GRID = (N + BLOCK - 1) / BLOCK;

  g_state = getSeed() * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
  if (g_state == 0)
    g_state = 1;
  std::vector<unsigned char> bytes(N);
  for (unsigned int i = 0; i < N; i += 8) {
    uint64_t r = nextRand();
    for (int k = 0; k < 8; ++k)
      bytes[i + k] = (unsigned char)(r >> (8 * k));
  }

  unsigned char *dBytes = nullptr;
  unsigned int *dBins = nullptr;
  CHK(cudaMalloc(&dBytes, N));
  CHK(cudaMalloc(&dBins, HIST256_BINS * sizeof(unsigned int)));
  CHK(cudaMemcpy(dBytes, bytes.data(), N, cudaMemcpyHostToDevice));

  const int reps = getReps();
  std::vector<double> times;
  for (int it = 0; it <= reps; ++it) { // it == 0: warm-up
    // Untimed reset: the kernel accumulates into the bins.
    CHK(cudaMemset(dBins, 0, HIST256_BINS * sizeof(unsigned int)));
    CHK(cudaDeviceSynchronize());
    auto t0 = std::chrono::high_resolution_clock::now();
    hist256<<<GRID, BLOCK>>>(dBytes, dBins, N);
    CHK(cudaGetLastError());
    CHK(cudaDeviceSynchronize());
    auto t1 = std::chrono::high_resolution_clock::now();
    if (it > 0)
      times.push_back(
          std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0)
              .count() /
          1000.0);
  }
  std::sort(times.begin(), times.end());
  size_t mid = times.size() / 2;
  double medUs =
      times.size() % 2 ? times[mid] : 0.5 * (times[mid - 1] + times[mid]);

  unsigned int got[HIST256_BINS];
  CHK(cudaMemcpy(got, dBins, sizeof(got), cudaMemcpyDeviceToHost));

  uint64_t want[HIST256_BINS] = {};
  for (unsigned int i = 0; i < N; ++i)
    want[bytes[i]]++;
  bool same = true;
  for (int b = 0; b < HIST256_BINS; ++b)
    if ((uint64_t)got[b] != want[b])
      same = false;
  double maxErr = same ? 0.0 : 1.0;
  double tol = 0.0;
  bool pass = maxErr <= tol;

  std::printf("corpus: sc_histogram256 %s max_err=%.3g tol=%.3g hist256_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, tol, medUs);

  CHK(cudaFree(dBytes));
  CHK(cudaFree(dBins));
  return pass ? 0 : 1;
}
