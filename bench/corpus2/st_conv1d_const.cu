// st_conv1d_const: 1-D convolution of 2^24 fp32 samples with a 31-tap filter
// held in __constant__ memory (zero padding at both ends). The kernel lives in
// st_conv1d_const_kernels.cuh; one thread per output, 1-D blocks of 256
// threads, early-return guard.
//
// Timing: CUDA events around each launch; one warm-up, then AUTOPROF_REPS
// timed launches, median reported.
//
// Check: the first and last 64 outputs (the zero-padded ends) plus 8192
// outputs at deterministic pseudo-random positions, against a double CPU
// reference.
//
// Tolerance 1e-5: samples in [-1, 1) and taps in [-1/16, 1/16) give
// sum |w * x| <= 1.94 per output, so the 31 float products/sums round by at
// most ~31 * 6e-8 * 1.94 ~ 3.6e-6; a wrong tap or an off-by-one offset is
// off by ~1e-2.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "st_conv1d_const_kernels.cuh"

#define CUDA_OK(call) cudaOk((call), __FILE__, __LINE__, #call)
inline void cudaOk(cudaError_t code, const char *file, int line,
                   const char *text) {
  if (code == cudaSuccess)
    return;
  fprintf(stderr, "%s:%d: %s: %s (%s)\n", file, line, text,
          cudaGetErrorString(code), cudaGetErrorName(code));
  exit(2);
}

static unsigned long long envSeed(void) {
  const char *s = getenv("AUTOPROF_SEED");
  if (!s)
    return 31415926ULL;
  char *end;
  unsigned long long v = strtoull(s, &end, 10);
  if (*s < '0' || *s > '9' || *end != '\0') {
    fprintf(stderr, "st_conv1d_const: AUTOPROF_SEED='%s' is not an unsigned "
                    "integer\n",
            s);
    exit(2);
  }
  return v;
}

static int envReps(void) {
  const char *s = getenv("AUTOPROF_REPS");
  if (!s)
    return 10;
  int v = atoi(s);
  return v < 5 ? 5 : v;
}

// SplitMix64 step.
static uint64_t mix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static float mixUniform(uint64_t *state, float scale) { // [-scale, scale)
  double u = (double)(mix(state) >> 40) / 16777216.0; // [0, 1)
  return (float)((2.0 * u - 1.0) * scale);
}

int main() {
  const int n = 1 << 24;
  const int threadsPerBlock = 256;
  const double tol = 1e-5;
  const int numRandom = 8192;
  const int edge = 64;

  uint64_t state = envSeed();
  const int reps = envReps();

  std::vector<float> signal(n);
  for (int i = 0; i < n; ++i)
    signal[i] = mixUniform(&state, 1.0f);
  float taps[CONV_TAPS];
  for (int k = 0; k < CONV_TAPS; ++k)
    taps[k] = mixUniform(&state, 1.0f / 16.0f);

  float *dIn = nullptr, *dOut = nullptr;
  CUDA_OK(cudaMalloc((void **)&dIn, sizeof(float) * n));
  CUDA_OK(cudaMalloc((void **)&dOut, sizeof(float) * n));
  CUDA_OK(cudaMemcpy(dIn, signal.data(), sizeof(float) * n,
                     cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpyToSymbol(c_taps, taps, sizeof(taps)));

  const int numBlocks = (n + threadsPerBlock - 1) / threadsPerBlock;

  cudaEvent_t before, after;
  CUDA_OK(cudaEventCreate(&before));
  CUDA_OK(cudaEventCreate(&after));
  std::vector<float> samplesMs;
  for (int launch = 0; launch < reps + 1; ++launch) {
    CUDA_OK(cudaEventRecord(before));
    conv1dConst<<<numBlocks, threadsPerBlock>>>(dIn, dOut, n);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaEventRecord(after));
    CUDA_OK(cudaEventSynchronize(after));
    float elapsed = 0.0f;
    CUDA_OK(cudaEventElapsedTime(&elapsed, before, after));
    if (launch != 0) // launch 0 warms up
      samplesMs.push_back(elapsed);
  }
  std::sort(samplesMs.begin(), samplesMs.end());
  const size_t m = samplesMs.size();
  const double medianUs =
      1000.0 * (m % 2 ? samplesMs[m / 2]
                      : 0.5 * (samplesMs[m / 2 - 1] + samplesMs[m / 2]));

  std::vector<float> result(n);
  CUDA_OK(cudaMemcpy(result.data(), dOut, sizeof(float) * n,
                     cudaMemcpyDeviceToHost));
  CUDA_OK(cudaEventDestroy(before));
  CUDA_OK(cudaEventDestroy(after));
  CUDA_OK(cudaFree(dIn));
  CUDA_OK(cudaFree(dOut));

  // Positions to check: both ends, then pseudo-random ones.
  std::vector<int> where;
  for (int i = 0; i < edge; ++i) {
    where.push_back(i);
    where.push_back(n - 1 - i);
  }
  for (int s = 0; s < numRandom; ++s)
    where.push_back((int)(mix(&state) % (uint64_t)n));

  double maxErr = 0.0;
  for (int i : where) {
    double want = 0.0;
    for (int k = -CONV_HALF; k <= CONV_HALF; ++k) {
      int j = i + k;
      if (j < 0 || j >= n)
        continue;
      want += (double)taps[k + CONV_HALF] * (double)signal[j];
    }
    double err = fabs((double)result[i] - want) / fmax(1.0, fabs(want));
    if (err != err)
      err = INFINITY;
    if (err > maxErr)
      maxErr = err;
  }

  const bool pass = maxErr <= tol;
  printf("corpus: st_conv1d_const %s max_err=%.3g tol=%.3g conv1dConst_us=%.2f\n",
         pass ? "PASS" : "FAIL", maxErr, tol, medianUs);
  return pass ? 0 : 1;
}
