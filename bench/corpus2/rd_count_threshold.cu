// rd_count_threshold: for every column of a row-major 16384 x 2048 int
// matrix, the number of elements strictly greater than a threshold (17).
//
// countAboveThreshold runs one thread per column (2048 threads, 8 blocks of
// 256); each thread walks all 16384 rows of its column, counting in a local
// unsigned and storing the count once at the end.
//
// Bottleneck: serial-column-loop. Only 64 warps exist for the whole GPU, each
// running a 16384-iteration loop of global loads, so the kernel is bound by
// load latency on a handful of SMs.
//
// Inputs: integers in [-50, 50] from a seeded 32-bit LCG.
// Check: counts must match the CPU exactly (tolerance 0).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

static void check(cudaError_t rc, const char *expr, const char *file,
                  int line) {
  if (rc != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, expr,
                 cudaGetErrorString(rc));
    std::exit(2);
  }
}
#define CU(expr) check((expr), #expr, __FILE__, __LINE__)

__global__ void countAboveThreshold(const int *mat, int nrows, int ncols,
                                    int thresh, unsigned *counts) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= ncols)
    return;
  unsigned n = 0;
  for (int i = 0; i < nrows; ++i)
    if (mat[i * ncols + j] > thresh)
      ++n;
  counts[j] = n;
}

namespace host {

uint64_t seed() {
  const char *s = std::getenv("AUTOPROF_SEED");
  if (!s)
    return 99991;
  uint64_t v = 0;
  const char *end = s + std::strlen(s);
  auto [ptr, ec] = std::from_chars(s, end, v, 10);
  if (ec != std::errc() || ptr != end || ptr == s) {
    std::fprintf(stderr,
                 "rd_count_threshold: AUTOPROF_SEED must be an unsigned "
                 "integer (got '%s')\n",
                 s);
    std::exit(2);
  }
  return v;
}

int reps() {
  const char *s = std::getenv("AUTOPROF_REPS");
  if (!s)
    return 10;
  int r = std::atoi(s);
  return r < 5 ? 5 : r;
}

// Numerical Recipes LCG; the high bits are used.
struct Lcg32 {
  uint32_t s;
  uint32_t next() { return s = s * 1664525u + 1013904223u; }
  int smallInt(int lo, int hi) { // inclusive
    return lo + (int)((next() >> 8) % (uint32_t)(hi - lo + 1));
  }
};

} // namespace host

int main() {
  const int rows = 16384, cols = 2048, threshold = 17, threads = 256;
  const double tol = 0.0;

  uint64_t sd = host::seed();
  host::Lcg32 gen{(uint32_t)sd ^ (uint32_t)(sd >> 32) ^ 0xA5A5A5A5u};
  std::vector<int> mat((size_t)rows * cols);
  for (int &x : mat)
    x = gen.smallInt(-50, 50);

  int *dMat;
  unsigned *dCounts;
  CU(cudaMalloc(&dMat, mat.size() * sizeof(int)));
  CU(cudaMalloc(&dCounts, cols * sizeof(unsigned)));
  CU(cudaMemcpy(dMat, mat.data(), mat.size() * sizeof(int),
                cudaMemcpyHostToDevice));

  cudaEvent_t beg, fin;
  CU(cudaEventCreate(&beg));
  CU(cudaEventCreate(&fin));
  const int blocks = (cols + threads - 1) / threads;
  const int nrep = host::reps();
  std::vector<float> us;
  for (int it = 0; it < nrep + 1; ++it) {
    CU(cudaEventRecord(beg));
    countAboveThreshold<<<blocks, threads>>>(dMat, rows, cols, threshold,
                                             dCounts);
    CU(cudaGetLastError());
    CU(cudaEventRecord(fin));
    CU(cudaEventSynchronize(fin));
    float ms = 0;
    CU(cudaEventElapsedTime(&ms, beg, fin));
    if (it > 0) // first launch warms up
      us.push_back(ms * 1000.0f);
  }
  std::sort(us.begin(), us.end());
  float med = (us.size() % 2) ? us[us.size() / 2]
                              : 0.5f * (us[us.size() / 2 - 1] + us[us.size() / 2]);

  std::vector<unsigned> got(cols);
  CU(cudaMemcpy(got.data(), dCounts, cols * sizeof(unsigned),
                cudaMemcpyDeviceToHost));

  std::vector<double> want(cols, 0.0);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j)
      if (mat[(size_t)i * cols + j] > threshold)
        want[j] += 1.0;

  double maxErr = 0.0;
  for (int j = 0; j < cols; ++j) {
    double e = std::fabs((double)got[j] - want[j]) / std::max(1.0, want[j]);
    maxErr = std::max(maxErr, e);
  }

  bool pass = maxErr <= tol;
  std::printf("corpus: rd_count_threshold %s max_err=%.3g tol=%.3g "
              "countAboveThreshold_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, tol, med);

  CU(cudaEventDestroy(beg));
  CU(cudaEventDestroy(fin));
  CU(cudaFree(dMat));
  CU(cudaFree(dCounts));
  return pass ? 0 : 1;
}
