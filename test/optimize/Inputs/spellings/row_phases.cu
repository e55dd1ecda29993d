// Row kernels of several phases, one thread per row, as ports of CPU code
// keep them: a softmax that stores the exponentials while it sums them and
// rescales in place, a layer norm over a grid-stride loop that centres the
// row in place before it sums the squares, and a scaling by each row's
// first element, read before the loop that overwrites it. Checked against
// a double reference on the host; the seed comes from AUTOPROF_SEED.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr int kRows = 8192;
constexpr int kCols = 1024;
constexpr int kNormRows = 4096;
constexpr int kWidth = 768;

void must(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(2);
  }
}

} // namespace

__global__ void softmax_rows(const float *__restrict__ in,
                             float *__restrict__ out, unsigned rows,
                             unsigned cols) {
  const unsigned r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < rows) {
    const size_t base = (size_t)r * cols;
    float hi = in[base];
    for (unsigned k = 1; k < cols; k++)
      hi = max(hi, in[base + k]);
    float total = 0;
    for (unsigned k = 0; k < cols; k++) {
      out[base + k] = expf(in[base + k] - hi);
      total += out[base + k];
    }
    for (unsigned k = 0; k < cols; k++)
      out[base + k] /= total;
  }
}

__global__ void layer_norm(double *data, int n, int width, double eps) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < n;
       row += blockDim.x * gridDim.x) {
    double *p = data + (size_t)row * width;
    double mean = 0;
    for (int i = 0; i < width; i++)
      mean += p[i];
    mean /= width;
    for (int i = 0; i < width; i++)
      p[i] -= mean;
    double var = 0;
    for (int i = 0; i < width; i++)
      var += p[i] * p[i];
    double rs = 1.0 / sqrt(var / width + eps);
    for (int i = 0; i < width; i++)
      p[i] *= rs;
  }
}

__global__ void by_first(float *a, float *total, int n, int w) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0;
    for (int j = 0; j < w; ++j)
      s += fabsf(a[r * w + j]);
    float f = a[r * w];
    for (int j = 0; j < w; ++j)
      a[r * w + j] = a[r * w + j] * f / s;
    total[r] = s;
  }
}

int main() {
  unsigned seed = 7;
  if (const char *s = std::getenv("AUTOPROF_SEED"))
    seed += static_cast<unsigned>(std::strtoul(s, nullptr, 10));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);

  std::vector<float> x((size_t)kRows * kCols);
  for (float &v : x)
    v = dist(gen);
  std::vector<double> d((size_t)kNormRows * kWidth);
  for (double &v : d)
    v = dist(gen) * 10.0 + 5.0;

  float *dx, *dy, *da, *dt;
  double *dd, *dwork;
  size_t nx = x.size(), nd = d.size();
  must(cudaMalloc(&dx, nx * sizeof(float)), "malloc");
  must(cudaMalloc(&dy, nx * sizeof(float)), "malloc");
  must(cudaMalloc(&da, nx * sizeof(float)), "malloc");
  must(cudaMalloc(&dt, kRows * sizeof(float)), "malloc");
  must(cudaMalloc(&dd, nd * sizeof(double)), "malloc");
  must(cudaMalloc(&dwork, nd * sizeof(double)), "malloc");
  must(cudaMemcpy(dx, x.data(), nx * sizeof(float), cudaMemcpyHostToDevice),
       "copy");
  must(cudaMemcpy(dd, d.data(), nd * sizeof(double), cudaMemcpyHostToDevice),
       "copy");

  const dim3 block(128);
  for (int rep = 0; rep < 3; ++rep) {
    softmax_rows<<<(kRows + block.x - 1) / block.x, block>>>(dx, dy, kRows,
                                                              kCols);
    must(cudaMemcpy(dwork, dd, nd * sizeof(double), cudaMemcpyDeviceToDevice),
         "copy");
    layer_norm<<<64, block>>>(dwork, kNormRows, kWidth, 1e-5);
    must(cudaMemcpy(da, dx, nx * sizeof(float), cudaMemcpyDeviceToDevice),
         "copy");
    by_first<<<(kRows + block.x - 1) / block.x, block>>>(da, dt, kRows, kCols);
  }
  must(cudaDeviceSynchronize(), "run");

  std::vector<float> y(nx), a(nx), t(kRows);
  std::vector<double> ln(nd);
  must(cudaMemcpy(y.data(), dy, nx * sizeof(float), cudaMemcpyDeviceToHost),
       "copy");
  must(cudaMemcpy(a.data(), da, nx * sizeof(float), cudaMemcpyDeviceToHost),
       "copy");
  must(cudaMemcpy(t.data(), dt, kRows * sizeof(float), cudaMemcpyDeviceToHost),
       "copy");
  must(cudaMemcpy(ln.data(), dwork, nd * sizeof(double),
                  cudaMemcpyDeviceToHost),
       "copy");

  double worst = 0, sums[3] = {0, 0, 0};
  auto check = [&](double want, double got) {
    double e = std::fabs(want - got) / (1e-3 + std::fabs(want));
    worst = e > worst ? e : worst;
  };
  for (int r = 0; r < kRows; r += 3) {
    const float *row = &x[(size_t)r * kCols];
    double m = row[0], s = 0, abs = 0;
    for (int c = 0; c < kCols; ++c)
      m = row[c] > m ? row[c] : m;
    for (int c = 0; c < kCols; ++c) {
      s += std::exp(row[c] - m);
      abs += std::fabs(row[c]);
    }
    for (int c = 0; c < kCols; c += 5) {
      check(std::exp(row[c] - m) / s, y[(size_t)r * kCols + c]);
      check((double)row[c] * row[0] / abs, a[(size_t)r * kCols + c]);
      sums[0] += y[(size_t)r * kCols + c];
      sums[2] += a[(size_t)r * kCols + c];
    }
    check(abs, t[r]);
  }
  for (int r = 0; r < kNormRows; r += 5) {
    const double *row = &d[(size_t)r * kWidth];
    double mean = 0, var = 0;
    for (int i = 0; i < kWidth; ++i)
      mean += row[i];
    mean /= kWidth;
    for (int i = 0; i < kWidth; ++i)
      var += (row[i] - mean) * (row[i] - mean);
    double rs = 1.0 / std::sqrt(var / kWidth + 1e-5);
    for (int i = 0; i < kWidth; i += 7) {
      check((row[i] - mean) * rs, ln[(size_t)r * kWidth + i]);
      sums[1] += ln[(size_t)r * kWidth + i];
    }
  }
  bool ok = worst < 1e-3;
  std::printf("row_phases: softmax %.6f norm %.6f scaled %.6f\n", sums[0],
              sums[1], sums[2]);
  std::printf("row_phases: worst relative error %.3g: %s\n", worst,
              ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
