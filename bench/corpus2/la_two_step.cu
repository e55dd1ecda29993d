// la_two_step: two dependent matrix-vector products in fp32,
//   t = A * x   (A: 8192 x 4096, row-major)
//   z = B * t   (B: 4096 x 8192, row-major)
// run one after the other on the same data. Both kernels use one thread per
// output row and 1-D blocks of 128 threads (8192 and 4096 threads), so warp
// loads are strided by the row length. A host loop launches the pair and
// times each kernel with its own pair of CUDA events.
//
// Check: every element of t and of z against double CPU references (z from
// the double t). B is drawn from [-1/64, 1/64) so that z stays of the same
// order as t. Tolerance 1e-3: sequential fp32 sums of 4096 and 8192 products.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call) check_call((call), #call, __FILE__, __LINE__)
static inline void check_call(cudaError_t code, const char *text,
                              const char *file, int line) {
  if (code != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, text,
                 cudaGetErrorString(code));
    std::exit(2);
  }
}

static const unsigned M = 8192; // rows of A, length of t, columns of B
static const unsigned K = 4096; // columns of A, length of x
static const unsigned P = 4096; // rows of B, length of z

__global__ void stepAx(const float *A, const float *x, float *t, unsigned m,
                       unsigned k) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m)
    return;
  float s = 0.0f;
  for (unsigned j = 0; j < k; ++j)
    s += A[row * k + j] * x[j];
  t[row] = s;
}

__global__ void stepBt(const float *B, const float *t, float *z, int p,
                       int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p) {
    float acc = 0.0f;
    for (int j = 0; j < m; j++)
      acc += B[(size_t)i * m + j] * t[j];
    z[i] = acc;
  }
}

// xoshiro128+ style generator, seeded through splitmix64.
struct Rand {
  uint32_t s[4];
  explicit Rand(uint64_t seed) {
    for (int i = 0; i < 4; ++i) {
      uint64_t z = (seed += 0x9E3779B97F4A7C15ULL);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      s[i] = (uint32_t)((z ^ (z >> 31)) >> 16) | 1u;
    }
  }
  static uint32_t rotl(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }
  uint32_t next() {
    uint32_t result = s[0] + s[3];
    uint32_t tmp = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= tmp;
    s[3] = rotl(s[3], 11);
    return result;
  }
  // Uniform in [-scale, scale).
  float sym(float scale) {
    return scale * ((float)(next() >> 8) * (1.0f / 8388608.0f) - 1.0f);
  }
};

static uint64_t parse_seed() {
  const char *v = std::getenv("AUTOPROF_SEED");
  if (!v)
    return 99991ULL;
  uint64_t seed = 0;
  const char *c = v;
  if (*c == '\0')
    goto bad;
  for (; *c; ++c) {
    if (*c < '0' || *c > '9')
      goto bad;
    seed = seed * 10u + (uint64_t)(*c - '0');
  }
  return seed;
bad:
  std::fprintf(stderr, "la_two_step: AUTOPROF_SEED='%s' is not an unsigned integer\n", v);
  std::exit(2);
}

static int parse_reps() {
  const char *v = std::getenv("AUTOPROF_REPS");
  int r = v ? std::atoi(v) : 10;
  return r < 5 ? 5 : r;
}

static double median_us(std::vector<float> ms) {
  std::sort(ms.begin(), ms.end());
  size_t n = ms.size();
  double mid = (n % 2) ? ms[n / 2] : 0.5 * ((double)ms[n / 2 - 1] + ms[n / 2]);
  return mid * 1000.0;
}

static double rel_err(double got, double want) {
  double e = std::fabs(got - want) / std::max(1.0, std::fabs(want));
  return std::isnan(e) ? INFINITY : e;
}

int main() {
  const double tol = 1e-3;
  const unsigned tpb = 128;
  Rand rng(parse_seed());
  const int reps = parse_reps();

  std::vector<float> A((size_t)M * K), x(K), B((size_t)P * M);
  for (float &v : A)
    v = rng.sym(1.0f);
  for (float &v : x)
    v = rng.sym(1.0f);
  for (float &v : B)
    v = rng.sym(1.0f / 64.0f);

  float *dA, *dx, *dB, *dt, *dz;
  CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
  CHECK(cudaMalloc(&dx, x.size() * sizeof(float)));
  CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
  CHECK(cudaMalloc(&dt, M * sizeof(float)));
  CHECK(cudaMalloc(&dz, P * sizeof(float)));
  CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t ev[3];
  for (auto &e : ev)
    CHECK(cudaEventCreate(&e));

  std::vector<float> msA, msB;
  for (int it = 0; it <= reps; ++it) { // iteration 0 warms both kernels up
    CHECK(cudaEventRecord(ev[0]));
    stepAx<<<(M + tpb - 1) / tpb, tpb>>>(dA, dx, dt, M, K);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev[1]));
    stepBt<<<(P + tpb - 1) / tpb, tpb>>>(dB, dt, dz, (int)P, (int)M);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev[2]));
    CHECK(cudaEventSynchronize(ev[2]));
    float a = 0.0f, b = 0.0f;
    CHECK(cudaEventElapsedTime(&a, ev[0], ev[1]));
    CHECK(cudaEventElapsedTime(&b, ev[1], ev[2]));
    if (it > 0) {
      msA.push_back(a);
      msB.push_back(b);
    }
  }

  std::vector<float> t(M), z(P);
  CHECK(cudaMemcpy(t.data(), dt, M * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(z.data(), dz, P * sizeof(float), cudaMemcpyDeviceToHost));
  for (auto &e : ev)
    CHECK(cudaEventDestroy(e));
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dz));

  double worst = 0.0;
  std::vector<double> tRef(M);
  for (unsigned r = 0; r < M; ++r) {
    double s = 0.0;
    for (unsigned j = 0; j < K; ++j)
      s += (double)A[(size_t)r * K + j] * (double)x[j];
    tRef[r] = s;
    worst = std::max(worst, rel_err(t[r], s));
  }
  for (unsigned i = 0; i < P; ++i) {
    double s = 0.0;
    for (unsigned j = 0; j < M; ++j)
      s += (double)B[(size_t)i * M + j] * tRef[j];
    worst = std::max(worst, rel_err(z[i], s));
  }

  const bool pass = worst <= tol;
  std::printf("corpus: la_two_step %s max_err=%.3g tol=%.3g stepAx_us=%.2f stepBt_us=%.2f\n",
              pass ? "PASS" : "FAIL", worst, tol, median_us(msA), median_us(msB));
  return pass ? 0 : 1;
}
