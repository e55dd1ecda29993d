// sc_scan_hillis: inclusive prefix sum of N = 2^22 ints by the Hillis-Steele
// method over the whole array. One kernel, hillisStep, is launched log2(N) = 22
// times from a host loop; launch d reads buffer `src` and writes buffer `dst`
// with dst[i] = src[i] + src[i - offset] (offset = 2^d), then the two buffers
// swap roles.
//
// Bottleneck: memory-bound. Each launch streams the whole 16 MiB array (two
// reads and one write per element), so the scan moves O(N log N) data where a
// work-efficient scan moves O(N); the launches are short, so their fixed cost
// matters too.
//
// Tolerance 0: integer addition is exact (inputs are in [-50, 50], so every
// partial sum fits an int with a wide margin).

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CUDA_OK(call) cudaOk((call), #call, __FILE__, __LINE__)

static void cudaOk(cudaError_t err, const char *what, const char *file,
                   int line) {
  if (err != cudaSuccess) {
    fprintf(stderr, "%s:%d: CUDA error in %s: %s\n", file, line, what,
            cudaGetErrorString(err));
    exit(2);
  }
}

__global__ void hillisStep(const int *src, int *dst, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int v = src[i];
  if (i >= offset)
    v += src[i - offset];
  dst[i] = v;
}

// Host helpers -------------------------------------------------------------

static uint32_t readSeed() {
  const char *s = getenv("AUTOPROF_SEED");
  if (s == nullptr)
    return 12345u;
  bool ok = *s != '\0';
  for (const char *p = s; *p; ++p)
    if (*p < '0' || *p > '9')
      ok = false;
  errno = 0;
  unsigned long long v = ok ? strtoull(s, nullptr, 10) : 0;
  if (!ok || errno == ERANGE) {
    fprintf(stderr, "sc_scan_hillis: AUTOPROF_SEED must be an unsigned "
                    "integer, got '%s'\n", s);
    exit(2);
  }
  return (uint32_t)(v ^ (v >> 32));
}

static int readReps() {
  const char *s = getenv("AUTOPROF_REPS");
  int r = s ? atoi(s) : 10;
  return r < 5 ? 5 : r;
}

// xorshift32; the state must never be zero.
struct XorShift32 {
  uint32_t state;
  explicit XorShift32(uint32_t seed) : state(seed ? seed : 0x9e3779b9u) {
    for (int k = 0; k < 8; ++k)
      next();
  }
  uint32_t next() {
    state ^= state << 13;
    state ^= state >> 17;
    state ^= state << 5;
    return state;
  }
};

static double medianOf(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * ((double)v[m - 1] + v[m]);
}

int main() {
  const int n = 1 << 22;
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;

  XorShift32 rng(readSeed());
  std::vector<int> input(n);
  for (int i = 0; i < n; ++i)
    input[i] = (int)(rng.next() % 101u) - 50;

  int *dInput = nullptr, *dBufA = nullptr, *dBufB = nullptr;
  CUDA_OK(cudaMalloc(&dInput, n * sizeof(int)));
  CUDA_OK(cudaMalloc(&dBufA, n * sizeof(int)));
  CUDA_OK(cudaMalloc(&dBufB, n * sizeof(int)));
  CUDA_OK(cudaMemcpy(dInput, input.data(), n * sizeof(int),
                     cudaMemcpyHostToDevice));

  cudaEvent_t evStart, evStop;
  CUDA_OK(cudaEventCreate(&evStart));
  CUDA_OK(cudaEventCreate(&evStop));

  // One run = the whole log2(n)-launch scan on a fresh copy of the input.
  // Run 0 is the warm-up; every launch of runs 1..reps is timed.
  const int reps = readReps();
  std::vector<float> stepMs;
  int *result = nullptr;
  for (int run = 0; run <= reps; ++run) {
    CUDA_OK(cudaMemcpy(dBufA, dInput, n * sizeof(int),
                       cudaMemcpyDeviceToDevice));
    int *src = dBufA;
    int *dst = dBufB;
    for (int offset = 1; offset < n; offset <<= 1) {
      CUDA_OK(cudaEventRecord(evStart));
      hillisStep<<<blocks, threads>>>(src, dst, n, offset);
      CUDA_OK(cudaGetLastError());
      CUDA_OK(cudaEventRecord(evStop));
      CUDA_OK(cudaEventSynchronize(evStop));
      float ms = 0.0f;
      CUDA_OK(cudaEventElapsedTime(&ms, evStart, evStop));
      if (run > 0)
        stepMs.push_back(ms);
      int *tmp = src;
      src = dst;
      dst = tmp;
    }
    result = src; // Holds the scan after the last swap.
  }

  std::vector<int> got(n);
  CUDA_OK(cudaMemcpy(got.data(), result, n * sizeof(int),
                     cudaMemcpyDeviceToHost));

  // CPU reference: a plain running sum in 64 bits.
  long long running = 0;
  int mismatches = 0;
  for (int i = 0; i < n; ++i) {
    running += input[i];
    if ((long long)got[i] != running)
      ++mismatches;
  }
  const double maxErr = mismatches ? 1.0 : 0.0;
  const double tol = 0.0;
  const bool pass = maxErr <= tol;

  printf("corpus: sc_scan_hillis %s max_err=%.3g tol=%.3g hillisStep_us=%.2f\n",
         pass ? "PASS" : "FAIL", maxErr, tol, medianOf(stepMs) * 1000.0);

  CUDA_OK(cudaEventDestroy(evStart));
  CUDA_OK(cudaEventDestroy(evStop));
  CUDA_OK(cudaFree(dInput));
  CUDA_OK(cudaFree(dBufA));
  CUDA_OK(cudaFree(dBufB));
  return pass ? 0 : 1;
}
