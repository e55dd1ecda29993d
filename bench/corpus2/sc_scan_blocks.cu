// sc_scan_blocks: inclusive prefix sum of 2^24 floats in three kernels run
// one after the other:
//   1. blockScan: each block of 1024 threads scans its 1024 elements in
//      shared memory (Hillis-Steele, two barriers per step) and writes its
//      total to blockSums;
//   2. scanSums: a single block of 1024 threads scans the 16384 block totals:
//      each thread scans 16 consecutive totals serially, the 1024 thread
//      totals are scanned in shared memory, and each thread adds the total of
//      the threads before it;
//   3. addOffsets: adds the scanned total of all preceding blocks to every
//      element. All three are out of place, so nothing accumulates between
//      runs.
//
// Bottleneck: barrier-stalls (the in-place shared-memory scan needs two
// __syncthreads per step) and a single-block middle kernel (small grid).
//
// Tolerance: the inputs are uniform in [-1, 1), so a prefix sum can be near 0
// while its rounding error grows with the sum of the magnitudes. The error of
// element i is |got - want| / max(1, S_i) with S_i = |x_0| + ... + |x_i| (the
// running sum of |x|, the natural scale of a summation's rounding error). The
// fp32 association used here has depth about 40 (10 + 16 + 10 + 1), which
// bounds the error by about 40 * 2^-24 = 2.4e-6 of S_i; tol = 1e-5.

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_CUDA(expr)                                                       \
  do {                                                                         \
    cudaError_t e_ = (expr);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,      \
                   #expr, cudaGetErrorString(e_));                             \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

constexpr size_t kN = size_t(1) << 24;
constexpr int kScanBlock = 1024;
constexpr int kNumBlocks = int(kN / kScanBlock); // 16384
constexpr int kSumsThreads = 1024;
constexpr int kAddBlock = 512;

__global__ void blockScan(const float *in, float *partial, float *blockSums) {
  __shared__ float tmp[kScanBlock];
  const int t = threadIdx.x;
  const size_t gi = (size_t)blockIdx.x * kScanBlock + t;
  tmp[t] = in[gi];
  __syncthreads();
  for (int off = 1; off < kScanBlock; off *= 2) {
    float add = 0.0f;
    if (t >= off)
      add = tmp[t - off];
    __syncthreads();
    tmp[t] += add;
    __syncthreads();
  }
  partial[gi] = tmp[t];
  if (t == kScanBlock - 1)
    blockSums[blockIdx.x] = tmp[t];
}

// Launched with one block of kSumsThreads threads.
__global__ void scanSums(const float *sums, float *scanned, int count) {
  __shared__ float totals[kSumsThreads];
  const int t = threadIdx.x;
  const int per = (count + kSumsThreads - 1) / kSumsThreads;
  const int begin = t * per;
  const int end = min(begin + per, count);

  float run = 0.0f;
  for (int k = begin; k < end; ++k) {
    run += sums[k];
    scanned[k] = run;
  }
  totals[t] = run;
  __syncthreads();
  for (int off = 1; off < kSumsThreads; off *= 2) {
    float add = 0.0f;
    if (t >= off)
      add = totals[t - off];
    __syncthreads();
    totals[t] += add;
    __syncthreads();
  }
  const float before = t > 0 ? totals[t - 1] : 0.0f;
  for (int k = begin; k < end; ++k)
    scanned[k] += before;
}

__global__ void addOffsets(const float *partial, const float *scannedSums,
                           float *out, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    size_t blk = i / kScanBlock;
    float offset = blk > 0 ? scannedSums[blk - 1] : 0.0f;
    out[i] = partial[i] + offset;
  }
}

// ---- host side -------------------------------------------------------------

namespace {

unsigned long long seedFromEnv() {
  const char *text = std::getenv("AUTOPROF_SEED");
  if (!text)
    return 0x5eedULL;
  std::string s(text);
  errno = 0;
  unsigned long long v = std::strtoull(text, nullptr, 10);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos ||
      errno == ERANGE) {
    std::fprintf(stderr, "AUTOPROF_SEED is not an unsigned integer: \"%s\"\n",
                 text);
    std::exit(2);
  }
  return v;
}

int repsFromEnv() {
  const char *text = std::getenv("AUTOPROF_REPS");
  if (!text)
    return 10;
  return std::max(5, std::atoi(text));
}

// 64-bit LCG (Knuth's MMIX constants); the high bits are the good ones.
class Lcg {
  uint64_t s_;

public:
  explicit Lcg(uint64_t seed) : s_(seed * 2862933555777941757ULL + 1) {}
  uint64_t step() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return s_;
  }
  float symmetric() { // uniform in [-1, 1), multiples of 2^-23
    return (float)((int64_t)(step() >> 40) - (1 << 23)) * (1.0f / (1 << 23));
  }
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return (v.size() & 1) ? v[h] : (v[h - 1] + v[h]) / 2;
}

} // namespace

int main() {
  Lcg rng(seedFromEnv());
  std::vector<float> hIn(kN);
  for (auto &x : hIn)
    x = rng.symmetric();

  float *dIn, *dPartial, *dSums, *dScanned, *dOut;
  CHECK_CUDA(cudaMalloc(&dIn, kN * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dPartial, kN * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dSums, kNumBlocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dScanned, kNumBlocks * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dOut, kN * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dIn, hIn.data(), kN * sizeof(float),
                        cudaMemcpyHostToDevice));

  using Clock = std::chrono::steady_clock;
  auto timeUs = [](auto &&launch) {
    CHECK_CUDA(cudaDeviceSynchronize());
    auto t0 = Clock::now();
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    return std::chrono::duration<double, std::micro>(Clock::now() - t0)
        .count();
  };

  const int reps = repsFromEnv();
  const unsigned addGrid = (unsigned)((kN + kAddBlock - 1) / kAddBlock);
  std::vector<double> usScan, usSums, usAdd;
  for (int r = 0; r <= reps; ++r) { // r == 0 is the warm-up run
    double a = timeUs([&] {
      blockScan<<<kNumBlocks, kScanBlock>>>(dIn, dPartial, dSums);
    });
    double b = timeUs([&] {
      scanSums<<<1, kSumsThreads>>>(dSums, dScanned, kNumBlocks);
    });
    double c = timeUs([&] {
      addOffsets<<<addGrid, kAddBlock>>>(dPartial, dScanned, dOut, kN);
    });
    if (r > 0) {
      usScan.push_back(a);
      usSums.push_back(b);
      usAdd.push_back(c);
    }
  }

  std::vector<float> hOut(kN);
  CHECK_CUDA(cudaMemcpy(hOut.data(), dOut, kN * sizeof(float),
                        cudaMemcpyDeviceToHost));

  // Reference in double; error relative to the running sum of |x|.
  const double tol = 1e-5;
  double want = 0.0, absSum = 0.0, maxErr = 0.0;
  for (size_t i = 0; i < kN; ++i) {
    want += (double)hIn[i];
    absSum += std::fabs((double)hIn[i]);
    double err = std::fabs((double)hOut[i] - want) / std::max(1.0, absSum);
    if (!(err <= maxErr)) // NaN counts as an infinite error
      maxErr = std::isnan(err) ? INFINITY : err;
  }
  const bool pass = maxErr <= tol;

  std::printf("corpus: sc_scan_blocks %s max_err=%.3g tol=%.3g "
              "blockScan_us=%.2f scanSums_us=%.2f addOffsets_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, tol, median(usScan),
              median(usSums), median(usAdd));

  CHECK_CUDA(cudaFree(dIn));
  CHECK_CUDA(cudaFree(dPartial));
  CHECK_CUDA(cudaFree(dSums));
  CHECK_CUDA(cudaFree(dScanned));
  CHECK_CUDA(cudaFree(dOut));
  return pass ? 0 : 1;
}
