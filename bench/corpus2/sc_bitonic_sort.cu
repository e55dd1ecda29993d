// sc_bitonic_sort: bitonic sort of 2^20 unsigned 32-bit keys in global
// memory, ascending. One kernel, bitonicStage, is launched for every (k, j)
// stage from nested host loops: k = 2, 4, ..., n and j = k/2, ..., 1, i.e.
// 20 * 21 / 2 = 210 launches of 2^20 threads (blocks of 512). Thread i
// compares key i with key i ^ j when i ^ j > i and swaps them into the order
// that bit k of i selects.
//
// Bottleneck: launch-overhead. Each of the 210 short launches streams the
// whole 4 MiB array through global memory with half of the threads idle; all
// stages with j < 512 could run inside one block in shared memory.
//
// Tolerance 0: sorting is exact; the result must equal std::sort's.

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void cudaCheck(cudaError_t e, const char *file, int line) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: CUDA failure: %s (%s)\n", file, line,
                 cudaGetErrorString(e), cudaGetErrorName(e));
    std::exit(2);
  }
}

} // namespace

#define CHECK(x) cudaCheck((x), __FILE__, __LINE__)

__global__ void bitonicStage(unsigned int *keys, unsigned int n,
                             unsigned int j, unsigned int k) {
  unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid >= n)
    return;
  unsigned int partner = tid ^ j;
  if (partner <= tid)
    return;
  unsigned int a = keys[tid];
  unsigned int b = keys[partner];
  bool ascending = (tid & k) == 0;
  if (ascending ? (a > b) : (a < b)) {
    keys[tid] = b;
    keys[partner] = a;
  }
}

struct Env {
  static uint32_t seed() {
    const char *v = std::getenv("AUTOPROF_SEED");
    if (!v)
      return 0xC0FFEEu;
    char *end;
    errno = 0;
    unsigned long long s = std::strtoull(v, &end, 10);
    if (*v < '0' || *v > '9' || *end || errno) {
      std::fprintf(stderr, "AUTOPROF_SEED: expected an unsigned integer, "
                           "got '%s'\n", v);
      std::exit(2);
    }
    return (uint32_t)s ^ (uint32_t)(s >> 32);
  }
  static int reps() {
    const char *v = std::getenv("AUTOPROF_REPS");
    int r = v ? std::atoi(v) : 10;
    return std::max(r, 5);
  }
};

// 32-bit LCG (Numerical Recipes constants) with an output mix so that the low
// bits are usable too.
struct Rand32 {
  uint32_t x;
  explicit Rand32(uint32_t s) : x(s) {}
  uint32_t operator()() {
    x = x * 1664525u + 1013904223u;
    uint32_t y = x;
    y ^= y >> 16;
    y *= 0x7feb352du;
    y ^= y >> 15;
    return y;
  }
};

int main() {
  constexpr unsigned int kLogN = 20;
  constexpr unsigned int kN = 1u << kLogN; // must be a power of two
  constexpr unsigned int kThreads = 512;
  constexpr unsigned int kBlocks = (kN + kThreads - 1) / kThreads;

  Rand32 gen(Env::seed());
  std::vector<unsigned int> keys(kN);
  for (auto &key : keys)
    key = gen();

  unsigned int *dOrig = nullptr, *dKeys = nullptr;
  CHECK(cudaMalloc(&dOrig, kN * sizeof(unsigned int)));
  CHECK(cudaMalloc(&dKeys, kN * sizeof(unsigned int)));
  CHECK(cudaMemcpy(dOrig, keys.data(), kN * sizeof(unsigned int),
                   cudaMemcpyHostToDevice));

  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));

  const int reps = Env::reps();
  std::vector<float> stageMs;
  stageMs.reserve((size_t)reps * kLogN * (kLogN + 1) / 2);
  for (int pass = 0; pass <= reps; ++pass) { // pass 0 warms up
    // Sorting is in place: start every pass from the original keys.
    CHECK(cudaMemcpy(dKeys, dOrig, kN * sizeof(unsigned int),
                     cudaMemcpyDeviceToDevice));
    for (unsigned int k = 2; k <= kN; k <<= 1) {
      for (unsigned int j = k >> 1; j > 0; j >>= 1) {
        CHECK(cudaEventRecord(e0));
        bitonicStage<<<kBlocks, kThreads>>>(dKeys, kN, j, k);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(e1));
        CHECK(cudaEventSynchronize(e1));
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, e0, e1));
        if (pass > 0)
          stageMs.push_back(ms);
      }
    }
  }
  std::sort(stageMs.begin(), stageMs.end());
  const size_t m = stageMs.size();
  const double medianUs =
      1000.0 * (m % 2 ? stageMs[m / 2]
                      : 0.5 * ((double)stageMs[m / 2 - 1] + stageMs[m / 2]));

  std::vector<unsigned int> sorted(kN);
  CHECK(cudaMemcpy(sorted.data(), dKeys, kN * sizeof(unsigned int),
                   cudaMemcpyDeviceToHost));

  std::vector<unsigned int> expect = keys;
  std::sort(expect.begin(), expect.end());
  const bool equal = std::equal(expect.begin(), expect.end(), sorted.begin());
  const double maxErr = equal ? 0.0 : 1.0;
  const double tol = 0.0;

  std::printf("corpus: sc_bitonic_sort %s max_err=%.3g tol=%.3g "
              "bitonicStage_us=%.2f\n",
              maxErr <= tol ? "PASS" : "FAIL", maxErr, tol, medianUs);

  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  CHECK(cudaFree(dOrig));
  CHECK(cudaFree(dKeys));
  return maxErr <= tol ? 0 : 1;
}
