// st_jacobi2d_steps: 20 time steps of a 2-D 5-point Jacobi relaxation on a
// 4096 x 4096 fp32 grid (row-major, x contiguous):
//   new[j][i] = 0.25 * (old[j][i-1] + old[j][i+1] + old[j-1][i] + old[j+1][i])
// on interior points; the boundary keeps its initial values (both buffers
// hold it and the kernel never writes it). Each time step is one launch; the
// host loop ping-pongs the two buffers. Blocks are 32 x 4 threads.
//
// Timing: one warm-up launch, then whole runs of the 20 steps from the initial
// state (reset untimed before each run) until at least AUTOPROF_REPS launches
// were timed; the median over all timed launches is reported. The checked
// result is the state after the last full run of 20 steps.
//
// Tolerance 1e-5: values stay in [-1, 1] (averaging), the three float adds of
// one step round by at most 0.25 * (2 + 3 + 4) * 2^-24 ~ 1.3e-7 absolute and
// the averaging does not amplify earlier errors, so 20 steps stay below
// ~2.7e-6 against the double CPU reference; a wrong neighbour or weight gives
// errors of order 0.1.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define NX 4096
#define NY 4096
#define NSTEPS 20
#define BLOCK_X 32
#define BLOCK_Y 4
#define TOLERANCE 1e-5

#define CK(call)                                                               \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              cudaGetErrorString(e_));                                         \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

__global__ void jacobiStep(const float *src, float *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < NX - 1 && j > 0 && j < NY - 1) {
    int c = j * NX + i;
    dst[c] = 0.25f * (src[c - 1] + src[c + 1] + src[c - NX] + src[c + NX]);
  }
}

// ---- host helpers -------------------------------------------------------

static unsigned long readSeed() {
  const char *s = getenv("AUTOPROF_SEED");
  if (s == NULL)
    return 12345UL;
  if (*s == '\0') {
    fprintf(stderr, "st_jacobi2d_steps: AUTOPROF_SEED is empty\n");
    exit(2);
  }
  unsigned long v = 0;
  for (const char *p = s; *p; ++p) {
    if (*p < '0' || *p > '9') {
      fprintf(stderr, "st_jacobi2d_steps: AUTOPROF_SEED is not an integer: %s\n",
              s);
      exit(2);
    }
    v = v * 10UL + (unsigned long)(*p - '0');
  }
  return v;
}

static int readReps() {
  const char *s = getenv("AUTOPROF_REPS");
  int r = s ? atoi(s) : 10;
  return r < 5 ? 5 : r;
}

// xorshift32; a zero state is replaced since xorshift would stay at zero.
static unsigned int g_state;
static void seedRng(unsigned long seed) {
  g_state = (unsigned int)(((unsigned long long)seed * 0x9E3779B97F4A7C15ULL) >> 32);
  if (g_state == 0)
    g_state = 0x1234567u;
}
static float nextUniform() { // [-1, 1)
  g_state ^= g_state << 13;
  g_state ^= g_state >> 17;
  g_state ^= g_state << 5;
  return (float)((g_state >> 8) * (1.0 / 8388608.0) - 1.0);
}

int main() {
  const size_t count = (size_t)NX * NY;
  const size_t bytes = count * sizeof(float);
  seedRng(readSeed());
  const int reps = readReps();

  std::vector<float> init(count);
  for (size_t k = 0; k < count; ++k)
    init[k] = nextUniform();

  float *dA = NULL, *dB = NULL;
  CK(cudaMalloc(&dA, bytes));
  CK(cudaMalloc(&dB, bytes));

  dim3 block(BLOCK_X, BLOCK_Y);
  dim3 grid((NX + BLOCK_X - 1) / BLOCK_X, (NY + BLOCK_Y - 1) / BLOCK_Y);

  cudaEvent_t t0, t1;
  CK(cudaEventCreate(&t0));
  CK(cudaEventCreate(&t1));

  // Warm-up launch (its result is discarded by the reset below).
  CK(cudaMemcpy(dA, init.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dB, init.data(), bytes, cudaMemcpyHostToDevice));
  jacobiStep<<<grid, block>>>(dA, dB);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());

  std::vector<float> times;
  float *cur = dA;
  while ((int)times.size() < reps) {
    // Reset both buffers to the initial state (untimed).
    CK(cudaMemcpy(dA, init.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, init.data(), bytes, cudaMemcpyHostToDevice));
    float *src = dA, *dst = dB;
    for (int step = 0; step < NSTEPS; ++step) {
      CK(cudaEventRecord(t0));
      jacobiStep<<<grid, block>>>(src, dst);
      CK(cudaGetLastError());
      CK(cudaEventRecord(t1));
      CK(cudaEventSynchronize(t1));
      float ms = 0.0f;
      CK(cudaEventElapsedTime(&ms, t0, t1));
      times.push_back(ms);
      float *tmp = src;
      src = dst;
      dst = tmp;
    }
    cur = src; // the buffer written by the last step
  }

  std::vector<float> got(count);
  CK(cudaMemcpy(got.data(), cur, bytes, cudaMemcpyDeviceToHost));
  CK(cudaEventDestroy(t0));
  CK(cudaEventDestroy(t1));
  CK(cudaFree(dA));
  CK(cudaFree(dB));

  std::sort(times.begin(), times.end());
  size_t nt = times.size();
  double medianUs = (nt % 2 ? times[nt / 2]
                            : 0.5 * (times[nt / 2 - 1] + times[nt / 2])) *
                    1000.0;

  // CPU reference in double: all 20 steps on the full grid.
  std::vector<double> ra(init.begin(), init.end());
  std::vector<double> rb(ra);
  double *rs = ra.data(), *rd = rb.data();
  for (int step = 0; step < NSTEPS; ++step) {
    for (int j = 1; j < NY - 1; ++j) {
      const double *up = rs + (size_t)(j - 1) * NX;
      const double *mid = rs + (size_t)j * NX;
      const double *down = rs + (size_t)(j + 1) * NX;
      double *out = rd + (size_t)j * NX;
      for (int i = 1; i < NX - 1; ++i)
        out[i] = 0.25 * (mid[i - 1] + mid[i + 1] + up[i] + down[i]);
    }
    double *tmp = rs;
    rs = rd;
    rd = tmp;
  }

  double maxErr = 0.0;
  for (size_t k = 0; k < count; ++k) {
    double want = rs[k];
    double err = fabs((double)got[k] - want) / std::max(1.0, fabs(want));
    if (!(err <= maxErr)) // NaN counts as infinitely wrong
      maxErr = std::isnan(err) ? INFINITY : err;
  }

  bool pass = maxErr <= TOLERANCE;
  printf("corpus: st_jacobi2d_steps %s max_err=%.3g tol=%.3g jacobiStep_us=%.2f\n",
         pass ? "PASS" : "FAIL", maxErr, TOLERANCE, medianUs);
  return pass ? 0 : 1;
}
