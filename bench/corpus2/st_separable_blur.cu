// st_separable_blur: separable Gaussian blur (radius 4, sigma 2, 9 taps,
// normalised) of a 4096 x 4096 fp32 image with clamp-to-edge borders, as two
// kernels run one after the other:
//   blurHorizontal: tmp[y][x] = sum_k w[k] * src[y][clamp(x + k - 4)]
//   blurVertical:   dst[y][x] = sum_k w[k] * tmp[clamp(y + k - 4)][x]
// The 9 weights are a global-memory array. All indices are unsigned; one
// thread per pixel, 2-D blocks of 32 x 8 threads for both passes.
//
// Timing: CUDA events; each kernel gets one warm-up and AUTOPROF_REPS timed
// launches (the horizontal pass first, so the vertical pass always reads the
// finished temporary), median per kernel reported. Every pixel of the final
// image is checked against a double CPU reference of both passes.
//
// Tolerance 1e-5: pixels in [0, 1) and non-negative weights summing to 1, so
// each pass is a convex combination whose 9 float products/sums round by at
// most ~9 * 6e-8 ~ 5.4e-7, plus the rounding of the float temporary; a wrong
// tap, offset or border rule is off by ~1e-2.

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#define BLUR_RADIUS 4u
#define BLUR_TAPS (2u * BLUR_RADIUS + 1u)

#define CU(stmt)                                                               \
  do {                                                                         \
    const cudaError_t rc_ = (stmt);                                            \
    if (rc_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: CUDA failure '%s' in %s\n", __FILE__,       \
                   __LINE__, cudaGetErrorString(rc_), #stmt);                  \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__global__ void blurHorizontal(const float *src, float *tmp, const float *w,
                               unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
  for (unsigned k = 0; k < BLUR_TAPS; ++k) {
    unsigned sx = x + k;
    sx = sx < BLUR_RADIUS ? 0u : sx - BLUR_RADIUS;
    if (sx > width - 1u)
      sx = width - 1u;
    acc += w[k] * src[y * width + sx];
  }
  tmp[y * width + x] = acc;
}

__global__ void blurVertical(const float *tmp, float *dst, const float *w,
                             unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
  for (unsigned k = 0; k < BLUR_TAPS; ++k) {
    unsigned sy = y + k;
    sy = sy < BLUR_RADIUS ? 0u : sy - BLUR_RADIUS;
    if (sy > height - 1u)
      sy = height - 1u;
    acc += w[k] * tmp[sy * width + x];
  }
  dst[y * width + x] = acc;
}

// --- host side -------------------------------------------------------------

namespace {

unsigned long long parseSeed() {
  const char *raw = std::getenv("AUTOPROF_SEED");
  if (raw == nullptr)
    return 4242ULL;
  std::string text(raw);
  bool ok = !text.empty();
  for (char ch : text)
    ok = ok && ch >= '0' && ch <= '9';
  errno = 0;
  unsigned long long value = ok ? std::strtoull(raw, nullptr, 10) : 0;
  if (!ok || errno == ERANGE) {
    std::fprintf(stderr,
                 "st_separable_blur: AUTOPROF_SEED must be a decimal unsigned "
                 "integer (got \"%s\")\n",
                 raw);
    std::exit(2);
  }
  return value;
}

int parseReps() {
  const char *raw = std::getenv("AUTOPROF_REPS");
  int n = raw ? std::atoi(raw) : 10;
  return n < 5 ? 5 : n;
}

// 64-bit LCG (Knuth's MMIX constants); the top 24 bits make the float.
class Lcg64 {
  uint64_t s_;

public:
  explicit Lcg64(uint64_t seed) : s_(seed ^ 0x5DEECE66DULL) {}
  float unit() { // [0, 1)
    s_ = s_ * 6364136223846793005ULL + 1442695040888963407ULL;
    return (float)(s_ >> 40) * (1.0f / 16777216.0f);
  }
};

float medianMs(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5f * (v[h - 1] + v[h]);
}

} // namespace

int main() {
  const unsigned width = 4096u, height = 4096u;
  const double tol = 1e-5;
  const size_t pixels = (size_t)width * height;
  const size_t bytes = pixels * sizeof(float);

  Lcg64 rng(parseSeed());
  const int reps = parseReps();

  std::vector<float> image(pixels);
  for (float &p : image)
    p = rng.unit();

  // Gaussian weights, sigma = 2, normalised to sum 1.
  std::vector<float> weights(BLUR_TAPS);
  {
    const double sigma = 2.0;
    double wsum = 0.0;
    std::vector<double> g(BLUR_TAPS);
    for (unsigned k = 0; k < BLUR_TAPS; ++k) {
      double d = (double)k - (double)BLUR_RADIUS;
      g[k] = std::exp(-d * d / (2.0 * sigma * sigma));
      wsum += g[k];
    }
    for (unsigned k = 0; k < BLUR_TAPS; ++k)
      weights[k] = (float)(g[k] / wsum);
  }

  float *dSrc, *dTmp, *dDst, *dW;
  CU(cudaMalloc(&dSrc, bytes));
  CU(cudaMalloc(&dTmp, bytes));
  CU(cudaMalloc(&dDst, bytes));
  CU(cudaMalloc(&dW, BLUR_TAPS * sizeof(float)));
  CU(cudaMemcpy(dSrc, image.data(), bytes, cudaMemcpyHostToDevice));
  CU(cudaMemcpy(dW, weights.data(), BLUR_TAPS * sizeof(float),
                cudaMemcpyHostToDevice));

  const dim3 block(32, 8);
  const dim3 grid((width + block.x - 1) / block.x,
                  (height + block.y - 1) / block.y);

  cudaEvent_t e0, e1;
  CU(cudaEventCreate(&e0));
  CU(cudaEventCreate(&e1));
  auto timeIt = [&](auto launch) {
    std::vector<float> samples;
    for (int i = 0; i <= reps; ++i) {
      CU(cudaEventRecord(e0));
      launch();
      CU(cudaGetLastError());
      CU(cudaEventRecord(e1));
      CU(cudaEventSynchronize(e1));
      float ms = 0.0f;
      CU(cudaEventElapsedTime(&ms, e0, e1));
      if (i > 0) // i == 0 warms up
        samples.push_back(ms);
    }
    return 1000.0 * medianMs(samples);
  };

  double horizUs = timeIt([&] {
    blurHorizontal<<<grid, block>>>(dSrc, dTmp, dW, width, height);
  });
  double vertUs = timeIt([&] {
    blurVertical<<<grid, block>>>(dTmp, dDst, dW, width, height);
  });

  std::vector<float> out(pixels);
  CU(cudaMemcpy(out.data(), dDst, bytes, cudaMemcpyDeviceToHost));
  CU(cudaEventDestroy(e0));
  CU(cudaEventDestroy(e1));
  CU(cudaFree(dSrc));
  CU(cudaFree(dTmp));
  CU(cudaFree(dDst));
  CU(cudaFree(dW));

  // CPU reference in double: both passes over the full image.
  auto clampIdx = [](long v, long hi) { return v < 0 ? 0 : (v > hi ? hi : v); };
  std::vector<double> refTmp(pixels), ref(pixels);
  for (long y = 0; y < (long)height; ++y)
    for (long x = 0; x < (long)width; ++x) {
      double a = 0.0;
      for (long k = -(long)BLUR_RADIUS; k <= (long)BLUR_RADIUS; ++k)
        a += (double)weights[k + BLUR_RADIUS] *
             image[y * width + clampIdx(x + k, width - 1)];
      refTmp[y * width + x] = a;
    }
  for (long y = 0; y < (long)height; ++y)
    for (long x = 0; x < (long)width; ++x) {
      double a = 0.0;
      for (long k = -(long)BLUR_RADIUS; k <= (long)BLUR_RADIUS; ++k)
        a += (double)weights[k + BLUR_RADIUS] *
             refTmp[clampIdx(y + k, height - 1) * width + x];
      ref[y * width + x] = a;
    }

  double maxErr = 0.0;
  for (size_t i = 0; i < pixels; ++i) {
    double e = std::fabs((double)out[i] - ref[i]) / std::max(1.0, std::fabs(ref[i]));
    if (std::isnan(e))
      e = INFINITY;
    maxErr = std::max(maxErr, e);
  }

  const bool pass = maxErr <= tol;
  std::printf("corpus: st_separable_blur %s max_err=%.3g tol=%.3g "
              "blurHorizontal_us=%.2f blurVertical_us=%.2f\n",
              pass ? "PASS" : "FAIL", maxErr, tol, horizUs, vertUs);
  return pass ? 0 : 1;
}
