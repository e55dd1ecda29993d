// rd_row_sumsq: sum of squares of every row of a 32768 x 1024 float matrix.
//
// rowSumSq runs one thread per row (128 blocks of 256) and adds each squared
// element straight into out[row] in global memory, so the host zeroes the
// output before every launch.
//
// Bottleneck: global-accumulation. The running sum lives in global memory
// (out may alias the input as far as the compiler knows), so every one of the
// 1024 iterations is a load-add-store round trip, on top of row-strided reads
// that a warp cannot coalesce.
//
// Inputs: uniform in [-1, 1) from a seeded 64-bit LCG.
// Check: CPU sums in double; error |got - want| / max(1, |want|), tolerance
// 1e-4.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr size_t kRows = 32768;
constexpr size_t kCols = 1024;
constexpr unsigned kBlock = 256;
constexpr double kTol = 1e-4;

void checkCuda(cudaError_t st, const char *what, const char *file, int line) {
  if (st == cudaSuccess)
    return;
  std::fprintf(stderr, "%s:%d: CUDA error in %s: %s\n", file, line, what,
               cudaGetErrorString(st));
  std::exit(2);
}

} // namespace

#define CK(expr) checkCuda((expr), #expr, __FILE__, __LINE__)

__global__ void rowSumSq(const float *m, float *out, size_t nrows,
                         size_t ncols) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r >= nrows)
    return;
  for (size_t c = 0; c < ncols; ++c) {
    float v = m[r * ncols + c];
    out[r] += v * v;
  }
}

namespace {

uint64_t seedFromEnv() {
  const char *txt = std::getenv("AUTOPROF_SEED");
  if (!txt)
    return 424242u;
  errno = 0;
  char *end = nullptr;
  unsigned long long v = std::strtoull(txt, &end, 10);
  bool digitsOnly = *txt != '\0';
  for (const char *p = txt; *p; ++p)
    digitsOnly = digitsOnly && *p >= '0' && *p <= '9';
  if (!digitsOnly || end == txt || *end != '\0' || errno == ERANGE) {
    std::fprintf(stderr, "rd_row_sumsq: bad AUTOPROF_SEED '%s' (want an "
                         "unsigned integer)\n",
                 txt);
    std::exit(2);
  }
  return v;
}

int repsFromEnv() {
  const char *txt = std::getenv("AUTOPROF_REPS");
  if (!txt)
    return 10;
  long v = std::strtol(txt, nullptr, 10);
  return v < 5 ? 5 : (int)v;
}

// Knuth's MMIX LCG; the top 24 bits give the float.
class Lcg {
  uint64_t s_;

public:
  explicit Lcg(uint64_t seed) : s_(seed ^ 0xD1B54A32D192ED03ULL) {}
  float nextSym() {
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)(s_ >> 40) / 8388608.0f - 1.0f;
  }
};

} // namespace

int main() {
  const size_t n = kRows * kCols;
  std::vector<float> hostM(n);
  Lcg gen(seedFromEnv());
  for (auto &x : hostM)
    x = gen.nextSym();

  float *devM = nullptr, *devOut = nullptr;
  CK(cudaMalloc(&devM, n * sizeof(float)));
  CK(cudaMalloc(&devOut, kRows * sizeof(float)));
  CK(cudaMemcpy(devM, hostM.data(), n * sizeof(float),
                cudaMemcpyHostToDevice));

  const unsigned grid = (unsigned)((kRows + kBlock - 1) / kBlock);
  const int reps = repsFromEnv();
  std::vector<double> us;
  for (int i = 0; i <= reps; ++i) { // i == 0 is the warm-up
    CK(cudaMemset(devOut, 0, kRows * sizeof(float)));
    CK(cudaDeviceSynchronize());
    auto t0 = std::chrono::steady_clock::now();
    rowSumSq<<<grid, kBlock>>>(devM, devOut, kRows, kCols);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    auto t1 = std::chrono::steady_clock::now();
    if (i > 0)
      us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  double med = us.size() % 2 ? us[us.size() / 2]
                             : (us[us.size() / 2 - 1] + us[us.size() / 2]) / 2;

  std::vector<float> got(kRows);
  CK(cudaMemcpy(got.data(), devOut, kRows * sizeof(float),
                cudaMemcpyDeviceToHost));

  double worst = 0.0;
  for (size_t r = 0; r < kRows; ++r) {
    double want = 0.0;
    const float *row = &hostM[r * kCols];
    for (size_t c = 0; c < kCols; ++c)
      want += (double)row[c] * (double)row[c];
    double err = std::fabs((double)got[r] - want) / std::max(1.0, std::fabs(want));
    if (!(err <= worst)) // NaN sticks as infinity
      worst = std::isnan(err) ? INFINITY : err;
  }

  const bool ok = worst <= kTol;
  std::printf("corpus: rd_row_sumsq %s max_err=%.3g tol=%.3g rowSumSq_us=%.2f\n",
              ok ? "PASS" : "FAIL", worst, kTol, med);

  CK(cudaFree(devM));
  CK(cudaFree(devOut));
  return ok ? 0 : 1;
}
