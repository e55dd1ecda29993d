// sc_compact: stream compaction of 2^24 ints, keeping the positive ones.
//   1. markPositive writes flags[i] = (in[i] > 0);
//   2. scatterPositive: every flagged element takes the next free output slot
//      from one global atomic counter and writes itself there (naive,
//      single pass, no scan).
// Inputs are uniform in [-1000, 1000], so about half of the elements survive.
//
// Bottleneck: atomic-contention. About 2^23 atomics hit a single address.
//
// Tolerance 0. The order of the atomics is not deterministic, so the check
// sorts the GPU output and compares it with the sorted CPU result exactly,
// and checks the count.

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define GPU_CHECK(stmt)                                                        \
  do {                                                                         \
    const cudaError_t status_ = (stmt);                                        \
    if (status_ != cudaSuccess) {                                              \
      std::fprintf(stderr, "%s:%d: '%s' failed: %s\n", __FILE__, __LINE__,    \
                   #stmt, cudaGetErrorString(status_));                        \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void markPositive(const int *in, int *flags, size_t n) {
  size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  flags[idx] = in[idx] > 0 ? 1 : 0;
}

__global__ void scatterPositive(const int *in, const int *flags, int *out,
                                unsigned int *counter, size_t n) {
  size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (idx < n && flags[idx]) {
    unsigned int slot = atomicAdd(counter, 1u);
    out[slot] = in[idx];
  }
}

// ---------------------------------------------------------------- host ----

static uint64_t envSeed() {
  const char *s = std::getenv("AUTOPROF_SEED");
  if (s == nullptr)
    return 31337;
  char *rest = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(s, &rest, 10);
  bool digitsOnly = *s >= '0' && *s <= '9' && *rest == '\0';
  if (!digitsOnly || errno == ERANGE) {
    std::fprintf(stderr, "sc_compact: AUTOPROF_SEED='%s' is not an unsigned "
                         "integer\n", s);
    std::exit(2);
  }
  return v;
}

static int envReps() {
  int r = 10;
  if (const char *s = std::getenv("AUTOPROF_REPS"))
    r = std::atoi(s);
  return r >= 5 ? r : 5;
}

// xoshiro128** seeded through splitmix-style mixing.
class Xoshiro128 {
  uint32_t s[4];
  static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

public:
  explicit Xoshiro128(uint64_t seed) {
    for (int i = 0; i < 4; ++i) {
      seed += 0x9E3779B97F4A7C15ull;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      s[i] = (uint32_t)((z ^ (z >> 31)) >> 16);
    }
    if ((s[0] | s[1] | s[2] | s[3]) == 0)
      s[0] = 1;
  }
  uint32_t next() {
    const uint32_t result = rotl(s[1] * 5, 7) * 9;
    const uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }
};

// Times one launch with CUDA events; keeps every timed sample.
class EventTimer {
  cudaEvent_t a_, b_;
  std::vector<float> samples_;

public:
  EventTimer() {
    GPU_CHECK(cudaEventCreate(&a_));
    GPU_CHECK(cudaEventCreate(&b_));
  }
  ~EventTimer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  template <class F> void measure(F &&launch, bool keep) {
    GPU_CHECK(cudaEventRecord(a_));
    launch();
    GPU_CHECK(cudaGetLastError());
    GPU_CHECK(cudaEventRecord(b_));
    GPU_CHECK(cudaEventSynchronize(b_));
    float ms = 0.0f;
    GPU_CHECK(cudaEventElapsedTime(&ms, a_, b_));
    if (keep)
      samples_.push_back(ms);
  }
  double medianUs() const {
    std::vector<float> v = samples_;
    std::sort(v.begin(), v.end());
    size_t h = v.size() / 2;
    double ms = v.size() % 2 ? v[h] : 0.5 * ((double)v[h - 1] + v[h]);
    return ms * 1000.0;
  }
};

int main() {
  const size_t n = size_t(1) << 24;
  const int block = 256;
  const unsigned grid = (unsigned)((n + block - 1) / block);

  Xoshiro128 rng(envSeed());
  std::vector<int> h_in(n);
  for (size_t i = 0; i < n; ++i)
    h_in[i] = (int)(rng.next() % 2001u) - 1000;

  int *d_in, *d_flags, *d_out;
  unsigned int *d_count;
  GPU_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d_flags, n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
  GPU_CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
  GPU_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(int),
                       cudaMemcpyHostToDevice));

  EventTimer flagTimer, scatterTimer;
  const int reps = envReps();
  for (int it = 0; it <= reps; ++it) { // it == 0: warm-up run
    flagTimer.measure(
        [&] { markPositive<<<grid, block>>>(d_in, d_flags, n); }, it > 0);
    // Untimed reset: the scatter appends through the counter.
    GPU_CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));
    GPU_CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
    scatterTimer.measure(
        [&] {
          scatterPositive<<<grid, block>>>(d_in, d_flags, d_out, d_count, n);
        },
        it > 0);
  }

  unsigned int gpuCount = 0;
  GPU_CHECK(cudaMemcpy(&gpuCount, d_count, sizeof(unsigned int),
                       cudaMemcpyDeviceToHost));
  const size_t shown = std::min((size_t)gpuCount, n);
  std::vector<int> got(shown);
  if (shown > 0)
    GPU_CHECK(cudaMemcpy(got.data(), d_out, shown * sizeof(int),
                         cudaMemcpyDeviceToHost));

  std::vector<int> want;
  want.reserve(n);
  for (size_t i = 0; i < n; ++i)
    if (h_in[i] > 0)
      want.push_back(h_in[i]);

  bool match = (size_t)gpuCount == want.size();
  if (match) {
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    match = got == want;
  }
  const double maxErr = match ? 0.0 : 1.0;
  const double tol = 0.0;
  const bool pass = maxErr <= tol;

  std::printf("corpus: sc_compact %s max_err=%.3g tol=%.3g "
              "markPositive_us=%.2f scatterPositive_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, tol, flagTimer.medianUs(),
              scatterTimer.medianUs());

  GPU_CHECK(cudaFree(d_in));
  GPU_CHECK(cudaFree(d_flags));
  GPU_CHECK(cudaFree(d_out));
  GPU_CHECK(cudaFree(d_count));
  return pass ? 0 : 1;
}
