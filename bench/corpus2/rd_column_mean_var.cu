// rd_column_mean_var: mean and population variance of every column of a
// row-major 8192 x 4096 float matrix.
//
// columnMeanVar runs one thread per column (4096 threads, 16 blocks of 256).
// Each thread walks down its column twice: the first pass sums the column to
// get the mean, the second sums the squared deviations from that mean.
//
// Bottleneck: serial-column-loop. Only 4096 threads exist, each running two
// 8192-iteration loops of dependent global loads, so most SMs sit idle and
// the few busy ones are latency bound.
//
// Inputs: uniform in [-1, 1) from a seeded xorshift64 generator.
// Check: CPU two-pass mean/variance in double; error |got - want| /
// max(1, |want|) over both outputs, tolerance 2e-5.

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define NROWS 8192
#define NCOLS 4096
#define THREADS_PER_BLOCK 256
#define TOLERANCE 2e-5

#define CUDA_CHECK(call)                                                       \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,     \
              cudaGetErrorString(err_));                                       \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

__global__ void columnMeanVar(const float *data, int rows, int cols,
                              float *mean, float *var) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    float sum = 0.0f;
    for (int r = 0; r < rows; r++)
      sum += data[r * cols + col];
    float m = sum / rows;

    float sq = 0.0f;
    for (int r = 0; r < rows; r++) {
      float d = data[r * cols + col] - m;
      sq += d * d;
    }
    mean[col] = m;
    var[col] = sq / rows;
  }
}

// ---- host helpers ---------------------------------------------------------

static uint64_t read_seed() {
  const char *s = getenv("AUTOPROF_SEED");
  if (s == NULL)
    return 7919;
  if (*s == '\0') {
    fprintf(stderr, "rd_column_mean_var: AUTOPROF_SEED is empty\n");
    exit(2);
  }
  uint64_t v = 0;
  for (const char *p = s; *p; ++p) {
    if (*p < '0' || *p > '9') {
      fprintf(stderr,
              "rd_column_mean_var: AUTOPROF_SEED is not an unsigned integer: "
              "'%s'\n",
              s);
      exit(2);
    }
    uint64_t digit = (uint64_t)(*p - '0');
    if (v > (UINT64_MAX - digit) / 10) {
      fprintf(stderr, "rd_column_mean_var: AUTOPROF_SEED is out of range: '%s'\n",
              s);
      exit(2);
    }
    v = v * 10 + digit;
  }
  return v;
}

static int read_reps() {
  const char *s = getenv("AUTOPROF_REPS");
  int n = s ? atoi(s) : 10;
  return n < 5 ? 5 : n;
}

// xorshift64; the seed is scrambled so that 0 and small seeds are fine.
struct XorShift64 {
  uint64_t state;
  explicit XorShift64(uint64_t seed) {
    state = seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (state == 0)
      state = 0x2545F4914F6CDD1DULL;
  }
  uint64_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  }
  // Uniform in [-1, 1), a multiple of 2^-23.
  float sym() { return (float)(next() >> 40) * (2.0f / 16777216.0f) - 1.0f; }
};

static float median_of(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5f * (v[n / 2 - 1] + v[n / 2]);
}

int main() {
  const size_t total = (size_t)NROWS * NCOLS;
  XorShift64 rng(read_seed());
  std::vector<float> h_data(total);
  for (size_t i = 0; i < total; i++)
    h_data[i] = rng.sym();

  float *d_data, *d_mean, *d_var;
  CUDA_CHECK(cudaMalloc(&d_data, total * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_mean, NCOLS * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_var, NCOLS * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_data, h_data.data(), total * sizeof(float),
                        cudaMemcpyHostToDevice));

  int blocks = (NCOLS + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
  cudaEvent_t t0, t1;
  CUDA_CHECK(cudaEventCreate(&t0));
  CUDA_CHECK(cudaEventCreate(&t1));

  // Warm-up launch.
  columnMeanVar<<<blocks, THREADS_PER_BLOCK>>>(d_data, NROWS, NCOLS, d_mean,
                                               d_var);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  int reps = read_reps();
  std::vector<float> times_us;
  for (int it = 0; it < reps; it++) {
    CUDA_CHECK(cudaEventRecord(t0));
    columnMeanVar<<<blocks, THREADS_PER_BLOCK>>>(d_data, NROWS, NCOLS, d_mean,
                                                 d_var);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventRecord(t1));
    CUDA_CHECK(cudaEventSynchronize(t1));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    times_us.push_back(ms * 1000.0f);
  }

  std::vector<float> g_mean(NCOLS), g_var(NCOLS);
  CUDA_CHECK(cudaMemcpy(g_mean.data(), d_mean, NCOLS * sizeof(float),
                        cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(g_var.data(), d_var, NCOLS * sizeof(float),
                        cudaMemcpyDeviceToHost));

  // CPU reference, two passes in double, walking the matrix row by row.
  std::vector<double> ref_mean(NCOLS, 0.0), ref_var(NCOLS, 0.0);
  for (int r = 0; r < NROWS; r++)
    for (int c = 0; c < NCOLS; c++)
      ref_mean[c] += (double)h_data[(size_t)r * NCOLS + c];
  for (int c = 0; c < NCOLS; c++)
    ref_mean[c] /= NROWS;
  for (int r = 0; r < NROWS; r++)
    for (int c = 0; c < NCOLS; c++) {
      double d = (double)h_data[(size_t)r * NCOLS + c] - ref_mean[c];
      ref_var[c] += d * d;
    }
  for (int c = 0; c < NCOLS; c++)
    ref_var[c] /= NROWS;

  double max_err = 0.0;
  for (int c = 0; c < NCOLS; c++) {
    double e1 = fabs((double)g_mean[c] - ref_mean[c]) /
                std::max(1.0, fabs(ref_mean[c]));
    double e2 = fabs((double)g_var[c] - ref_var[c]) /
                std::max(1.0, fabs(ref_var[c]));
    if (std::isnan(e1) || std::isnan(e2)) {
      max_err = INFINITY;
      break;
    }
    max_err = std::max(max_err, std::max(e1, e2));
  }

  bool pass = max_err <= TOLERANCE;
  printf("corpus: rd_column_mean_var %s max_err=%.3g tol=%.3g "
         "columnMeanVar_us=%.2f\n",
         pass ? "PASS" : "FAIL", max_err, TOLERANCE, median_of(times_us));

  CUDA_CHECK(cudaEventDestroy(t0));
  CUDA_CHECK(cudaEventDestroy(t1));
  CUDA_CHECK(cudaFree(d_data));
  CUDA_CHECK(cudaFree(d_mean));
  CUDA_CHECK(cudaFree(d_var));
  return pass ? 0 : 1;
}
