// la_syrk_update: symmetric rank-k update of the lower triangle,
// C += alpha * A * A^T, with A of n x k (n = 2048, k = 256, fp32, row-major)
// and C of n x n. One thread per element of C on 32x8 thread blocks; threads
// above the diagonal do nothing (the guard is an enclosing if), those on or
// below it compute a length-k dot product of two rows of A. Neighbouring
// threads of a warp read rows of A that are k floats apart.
//
// Check: every diagonal element and 4096 sampled strictly-lower elements
// against C0 + alpha * A * A^T in double, and every strictly-upper element
// against C0 (it must be left untouched).
// Tolerance 1e-4: dot products of 256 values in [-1, 1), fp32 rounding stays
// near 1e-6 relative.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

static void checkCuda(cudaError_t err, const char *what, const char *file,
                      int line) {
  if (err == cudaSuccess)
    return;
  std::fprintf(stderr, "%s:%d: %s failed: %s\n", file, line, what,
               cudaGetErrorString(err));
  std::exit(2);
}
#define CHECK_CUDA(x) checkCuda((x), #x, __FILE__, __LINE__)

__global__ void syrk_lower_update(int n, int k, float alpha, const float *a,
                                  float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x; // column of C
  int i = blockIdx.y * blockDim.y + threadIdx.y; // row of C
  if (i < n && j <= i) {
    float dot = 0.0f;
    for (int p = 0; p < k; ++p)
      dot += a[i * k + p] * a[j * k + p];
    c[i * n + j] += alpha * dot;
  }
}

namespace {

struct XorShift32 {
  uint32_t s;
  explicit XorShift32(uint32_t seed) : s(seed ? seed : 0x9E3779B9u) {}
  uint32_t next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return s;
  }
  float unit() { // [-1, 1)
    return static_cast<float>(next() >> 8) / 8388608.0f - 1.0f;
  }
};

uint32_t seedFromEnv() {
  const char *txt = std::getenv("AUTOPROF_SEED");
  if (!txt)
    return 777u;
  uint64_t v = 0;
  bool ok = *txt != '\0';
  for (const char *q = txt; *q && ok; ++q) {
    if (*q < '0' || *q > '9')
      ok = false;
    else
      v = v * 10 + static_cast<uint64_t>(*q - '0');
  }
  if (!ok) {
    std::fprintf(stderr, "la_syrk_update: bad AUTOPROF_SEED '%s' (want an unsigned integer)\n", txt);
    std::exit(2);
  }
  return static_cast<uint32_t>(v * 0x9E3779B97F4A7C15ull >> 32) | 1u;
}

int repsFromEnv() {
  const char *txt = std::getenv("AUTOPROF_REPS");
  int r = txt ? std::atoi(txt) : 10;
  return std::max(r, 5);
}

} // namespace

int main() {
  const int n = 2048;
  const int k = 256;
  const float alpha = 0.5f;
  const double tol = 1e-4;

  XorShift32 rng(seedFromEnv());
  const int reps = repsFromEnv();

  std::vector<float> a(static_cast<size_t>(n) * k);
  std::vector<float> c0(static_cast<size_t>(n) * n);
  for (float &v : a)
    v = rng.unit();
  for (float &v : c0)
    v = rng.unit();

  const size_t aBytes = a.size() * sizeof(float);
  const size_t cBytes = c0.size() * sizeof(float);
  float *dA = nullptr, *dC = nullptr, *dC0 = nullptr;
  CHECK_CUDA(cudaMalloc(&dA, aBytes));
  CHECK_CUDA(cudaMalloc(&dC, cBytes));
  CHECK_CUDA(cudaMalloc(&dC0, cBytes));
  CHECK_CUDA(cudaMemcpy(dA, a.data(), aBytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dC0, c0.data(), cBytes, cudaMemcpyHostToDevice));

  dim3 block(32, 8);
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);

  std::vector<double> us;
  for (int rep = -1; rep < reps; ++rep) { // rep -1: warm-up, not recorded
    CHECK_CUDA(cudaMemcpy(dC, dC0, cBytes, cudaMemcpyDeviceToDevice));
    CHECK_CUDA(cudaDeviceSynchronize());
    auto start = std::chrono::steady_clock::now();
    syrk_lower_update<<<grid, block>>>(n, k, alpha, dA, dC);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    auto stop = std::chrono::steady_clock::now();
    if (rep >= 0)
      us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
  }
  std::sort(us.begin(), us.end());
  const double median = us.size() % 2 == 1
                            ? us[us.size() / 2]
                            : 0.5 * (us[us.size() / 2 - 1] + us[us.size() / 2]);

  std::vector<float> c(c0.size());
  CHECK_CUDA(cudaMemcpy(c.data(), dC, cBytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dC));
  CHECK_CUDA(cudaFree(dC0));

  double worst = 0.0;
  auto record = [&worst](double got, double want) {
    double e = std::fabs(got - want) / std::max(1.0, std::fabs(want));
    if (std::isnan(e))
      e = INFINITY;
    worst = std::max(worst, e);
  };
  auto reference = [&](int i, int j) {
    double s = 0.0;
    for (int p = 0; p < k; ++p)
      s += static_cast<double>(a[static_cast<size_t>(i) * k + p]) *
           a[static_cast<size_t>(j) * k + p];
    return static_cast<double>(c0[static_cast<size_t>(i) * n + j]) +
           static_cast<double>(alpha) * s;
  };

  for (int i = 0; i < n; ++i) // diagonal
    record(c[static_cast<size_t>(i) * n + i], reference(i, i));
  for (int s = 0; s < 4096; ++s) { // sample of the strictly lower triangle
    int i = 1 + static_cast<int>(rng.next() % (n - 1));
    int j = static_cast<int>(rng.next() % i);
    record(c[static_cast<size_t>(i) * n + j], reference(i, j));
  }
  for (int i = 0; i < n; ++i) // upper triangle is untouched
    for (int j = i + 1; j < n; ++j)
      record(c[static_cast<size_t>(i) * n + j], c0[static_cast<size_t>(i) * n + j]);

  const bool pass = worst <= tol;
  std::printf("corpus: la_syrk_update %s max_err=%.3g tol=%.3g syrk_lower_update_us=%.2f\n",
              pass ? "PASS" : "FAIL", worst, tol, median);
  return pass ? 0 : 1;
}
