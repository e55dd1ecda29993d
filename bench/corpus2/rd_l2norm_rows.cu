// rd_l2norm_rows: Euclidean (L2) norm of every row of a 4096 x 8192 double
// matrix.
//
// l2NormRows (in rd_l2norm_rows_kernels.cuh) runs one 256-thread block per
// row: a strided sum of squares per thread, then a shared-memory tree with a
// __syncthreads after every level.
//
// Bottleneck: barrier-stalls. Each thread handles only 32 elements before the
// block spends eight barrier-separated rounds, most threads idle, folding 256
// partial sums.
//
// Inputs: uniform in [-1, 1) from a seeded splitmix64 generator.
// Check: CPU norms in double; error |got - want| / max(1, |want|), tolerance
// 1e-12 (only the summation order differs).

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "rd_l2norm_rows_kernels.cuh"

constexpr int kRows = 4096;
constexpr int kCols = 8192;
constexpr double kTolerance = 1e-12;

#define CUDA_TRY(stmt)                                                         \
  do {                                                                         \
    const cudaError_t e = (stmt);                                              \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s -> %s (%s)\n", __FILE__, __LINE__,       \
                   #stmt, cudaGetErrorName(e), cudaGetErrorString(e));         \
      std::exit(2);                                                            \
    }                                                                          \
  } while (false)

struct SplitMix64 {
  uint64_t x;
  uint64_t operator()() {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [-1, 1) with 53 random bits.
  double symmetric() { return (double)((*this)() >> 11) * 0x1.0p-52 - 1.0; }
};

static uint64_t envSeed() {
  const char *v = std::getenv("AUTOPROF_SEED");
  if (v == nullptr)
    return 1234567ull;
  bool ok = v[0] >= '0' && v[0] <= '9'; // strtoull would accept "-1" or " 1"
  errno = 0;
  char *stop = nullptr;
  unsigned long long s = std::strtoull(v, &stop, 10);
  if (!ok || *stop != '\0' || errno != 0) {
    std::fprintf(stderr, "rd_l2norm_rows: AUTOPROF_SEED='%s' is not an "
                         "unsigned integer\n",
                 v);
    std::exit(2);
  }
  return s;
}

static int envReps() {
  int r = 10;
  if (const char *v = std::getenv("AUTOPROF_REPS"))
    r = std::atoi(v);
  return std::max(5, r);
}

int main() {
  const size_t count = (size_t)kRows * kCols;
  SplitMix64 rng{envSeed()};
  std::vector<double> A(count);
  for (double &a : A)
    a = rng.symmetric();

  double *dA = nullptr, *dNorms = nullptr;
  CUDA_TRY(cudaMalloc(&dA, count * sizeof(double)));
  CUDA_TRY(cudaMalloc(&dNorms, kRows * sizeof(double)));
  CUDA_TRY(cudaMemcpy(dA, A.data(), count * sizeof(double),
                      cudaMemcpyHostToDevice));

  const int reps = envReps();
  std::vector<double> elapsed;
  elapsed.reserve(reps);
  for (int k = 0; k <= reps; ++k) {
    CUDA_TRY(cudaDeviceSynchronize());
    const auto start = std::chrono::high_resolution_clock::now();
    l2NormRows<<<kRows, kL2NormThreads>>>(dA, kCols, dNorms);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(cudaDeviceSynchronize());
    const auto stop = std::chrono::high_resolution_clock::now();
    if (k == 0)
      continue; // warm-up
    elapsed.push_back(
        std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::sort(elapsed.begin(), elapsed.end());
  const size_t h = elapsed.size() / 2;
  const double medianUs = (elapsed.size() % 2 == 1)
                              ? elapsed[h]
                              : 0.5 * (elapsed[h - 1] + elapsed[h]);

  std::vector<double> norms(kRows);
  CUDA_TRY(cudaMemcpy(norms.data(), dNorms, kRows * sizeof(double),
                      cudaMemcpyDeviceToHost));

  double maxErr = 0.0;
  for (int i = 0; i < kRows; ++i) {
    double ss = 0.0;
    for (int j = 0; j < kCols; ++j) {
      const double a = A[(size_t)i * kCols + j];
      ss += a * a;
    }
    const double want = std::sqrt(ss);
    const double err = std::fabs(norms[i] - want) / std::max(1.0, want);
    if (std::isnan(err)) {
      maxErr = INFINITY;
      break;
    }
    maxErr = std::max(maxErr, err);
  }

  const bool pass = maxErr <= kTolerance;
  std::printf("corpus: rd_l2norm_rows %s max_err=%.3g tol=%.3g "
              "l2NormRows_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, kTolerance, medianUs);

  CUDA_TRY(cudaFree(dA));
  CUDA_TRY(cudaFree(dNorms));
  return pass ? 0 : 1;
}
