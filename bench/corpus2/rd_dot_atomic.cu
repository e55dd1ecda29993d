// rd_dot_atomic: dot product of two float vectors of 2^25 elements.
//
// dotAtomic runs one thread per element (blocks of 256); each thread
// multiplies its pair and adds the product to a single global float with
// atomicAdd. The result is zeroed before every launch.
//
// Bottleneck: atomic-contention. 2^25 atomics all target the same address and
// are serialised at one L2 slice.
//
// Inputs: uniform in [-1, 1), each element a hash of (seed, index).
// Check: the float atomics add in an unspecified order, so the error is
// measured against the sum of |x_i * y_i| (about N/4), not against the dot
// product itself: |got - want| / max(1, sum |x_i y_i|), tolerance 1e-6.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#define N_ELEMS (1 << 25)
#define BLOCK_SIZE 256

static void cudaCheck(cudaError_t code, const char *file, int line) {
  if (code != cudaSuccess) {
    fprintf(stderr, "%s:%d: CUDA failure: %s\n", file, line,
            cudaGetErrorString(code));
    exit(2);
  }
}
#define CHECK_CUDA(x) cudaCheck((x), __FILE__, __LINE__)

__global__ void dotAtomic(const float *x, const float *y, float *result,
                          int n) {
  int idx = threadIdx.x + blockIdx.x * blockDim.x;
  if (idx < n) {
    atomicAdd(result, x[idx] * y[idx]);
  }
}

// Host helpers.

static unsigned long long getSeed() {
  const char *env = getenv("AUTOPROF_SEED");
  if (!env)
    return 0xC0FFEEULL;
  std::string s(env);
  bool ok = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  unsigned long long v = 0;
  if (ok) {
    try {
      v = std::stoull(s);
    } catch (const std::exception &) {
      ok = false;
    }
  }
  if (!ok) {
    fprintf(stderr, "rd_dot_atomic: AUTOPROF_SEED must be an unsigned "
                    "integer, got '%s'\n",
            env);
    exit(2);
  }
  return v;
}

static int getReps() {
  const char *env = getenv("AUTOPROF_REPS");
  int r = env ? atoi(env) : 10;
  return std::max(r, 5);
}

// Value at index i of stream `stream`: a splitmix64 finaliser over the seed
// and the index, mapped to [-1, 1) with 24 bits.
static float hashValue(unsigned long long seed, unsigned stream, unsigned i) {
  unsigned long long z = seed + 0x9E3779B97F4A7C15ULL * ((unsigned long long)i +
                                                         1) +
                         ((unsigned long long)stream << 56);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (float)(z >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

int main() {
  const int n = N_ELEMS;
  const double tol = 1e-6;
  unsigned long long seed = getSeed();

  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = hashValue(seed, 0, (unsigned)i);
    hy[i] = hashValue(seed, 1, (unsigned)i);
  }

  float *dx, *dy, *dres;
  CHECK_CUDA(cudaMalloc((void **)&dx, sizeof(float) * n));
  CHECK_CUDA(cudaMalloc((void **)&dy, sizeof(float) * n));
  CHECK_CUDA(cudaMalloc((void **)&dres, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, hx.data(), sizeof(float) * n,
                        cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dy, hy.data(), sizeof(float) * n,
                        cudaMemcpyHostToDevice));

  cudaEvent_t evStart, evStop;
  CHECK_CUDA(cudaEventCreate(&evStart));
  CHECK_CUDA(cudaEventCreate(&evStop));

  int grid = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  int reps = getReps();
  std::vector<float> samples;
  for (int rep = -1; rep < reps; ++rep) { // rep -1: warm-up, not recorded
    // Reset the accumulator; it runs before evStart, so it is not timed.
    CHECK_CUDA(cudaMemset(dres, 0, sizeof(float)));
    CHECK_CUDA(cudaEventRecord(evStart));
    dotAtomic<<<grid, BLOCK_SIZE>>>(dx, dy, dres, n);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(evStop));
    CHECK_CUDA(cudaEventSynchronize(evStop));
    float ms;
    CHECK_CUDA(cudaEventElapsedTime(&ms, evStart, evStop));
    if (rep >= 0)
      samples.push_back(ms * 1e3f);
  }
  std::sort(samples.begin(), samples.end());
  size_t mid = samples.size() / 2;
  float medianUs = (samples.size() & 1) ? samples[mid]
                                        : 0.5f * (samples[mid - 1] + samples[mid]);

  float got = 0.0f;
  CHECK_CUDA(cudaMemcpy(&got, dres, sizeof(float), cudaMemcpyDeviceToHost));

  double want = 0.0, sumAbs = 0.0;
  for (int i = 0; i < n; ++i) {
    double p = (double)hx[i] * (double)hy[i];
    want += p;
    sumAbs += fabs(p);
  }
  double err = fabs((double)got - want) / std::max(1.0, sumAbs);
  if (std::isnan(err))
    err = INFINITY;

  bool pass = err <= tol;
  printf("corpus: rd_dot_atomic %s max_err=%.3g tol=%.3g dotAtomic_us=%.2f\n",
         pass ? "PASS" : "FAIL", err, tol, medianUs);

  CHECK_CUDA(cudaEventDestroy(evStart));
  CHECK_CUDA(cudaEventDestroy(evStop));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  CHECK_CUDA(cudaFree(dres));
  return pass ? 0 : 1;
}
