// Element-wise kernels in other forms, C++ on the host. Grid-stride loops:
// an in-place ReLU over a grid sized from the number of SMs, a blend
// written as a `while` whose step is a local, launched with one thread
// per element, and an affine map with 32-bit indices over a fixed grid.
// Batches on y: a bias added to every row of a batch, and rows scaled
// through row pointers, rows of 8190 floats so that every other row is
// not 16-byte aligned. The element counts are not multiples of four. The host checks every
// output against a reference computed on the CPU and prints one line of
// sums; AUTOPROF_SEED picks the inputs.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace {

constexpr std::size_t kRelu = (std::size_t(1) << 26) + 3;
constexpr int kBlend = (1 << 25) + 1;
constexpr int kAffine = (1 << 24) + 2;
constexpr int kBatch = 64, kRow = 1 << 18;
constexpr int kRows = 2048, kCols = 8190;

void check(cudaError_t Err, const char *What) {
  if (Err != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", What, cudaGetErrorString(Err));
    std::exit(2);
  }
}

} // namespace

__global__ void relu_gs(float *data, std::size_t count) {
  for (std::size_t e = blockIdx.x * (std::size_t)blockDim.x + threadIdx.x;
       e < count; e += (std::size_t)blockDim.x * gridDim.x)
    data[e] = data[e] > 0.0f ? data[e] : 0.0f;
}

__global__ void blend_gs(const float *from, const float *to, float *mix,
                         int len, float w) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  const int hop = gridDim.x * blockDim.x;
  while (t < len) {
    const float gap = to[t] - from[t];
    mix[t] = from[t] + w * gap;
    t += hop;
  }
}

__global__ void affine_gs(const float *__restrict__ x, float *__restrict__ y,
                          float a, float b, int n) {
  if (n <= 0)
    return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    y[i] = a * x[i] + b;
  }
}

__global__ void add_bias(float *out, const float *in, const float *bias,
                         int n) {
  int b = blockIdx.y;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[b * n + i] = in[b * n + i] + bias[i];
}

__global__ void scale_rows(const float *x, float *y, int cols, float s) {
  const float *src = x + (size_t)blockIdx.y * cols;
  float *dst = y + (size_t)blockIdx.y * cols;
  int c = threadIdx.x + blockDim.x * blockIdx.x;
  if (c >= cols) return;
  dst[c] = src[c] * s;
}

int main() {
  const char *Seed = std::getenv("AUTOPROF_SEED");
  std::mt19937 Gen(11u + (Seed ? unsigned(std::strtoul(Seed, nullptr, 10)) : 0u));
  std::uniform_real_distribution<float> U(-1.0f, 1.0f);
  std::vector<float> Relu(kRelu), From(kBlend), To(kBlend), X(kAffine);
  std::vector<float> In((size_t)kBatch * kRow), Bias(kRow),
      M((size_t)kRows * kCols);
  for (float &V : In) V = U(Gen);
  for (float &V : Bias) V = U(Gen);
  for (float &V : M) V = U(Gen);
  for (float &V : Relu) V = U(Gen);
  for (float &V : From) V = U(Gen);
  for (float &V : To) V = U(Gen);
  for (float &V : X) V = U(Gen);

  int Sms = 0;
  check(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0), "sms");
  float *DRelu, *DFrom, *DTo, *DMix, *DX, *DY, *DIn, *DBias, *DOut, *DM, *DS;
  check(cudaMalloc(&DIn, In.size() * sizeof(float)), "malloc");
  check(cudaMalloc(&DOut, In.size() * sizeof(float)), "malloc");
  check(cudaMalloc(&DBias, Bias.size() * sizeof(float)), "malloc");
  check(cudaMalloc(&DM, M.size() * sizeof(float)), "malloc");
  check(cudaMalloc(&DS, M.size() * sizeof(float)), "malloc");
  check(cudaMemcpy(DIn, In.data(), In.size() * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(DBias, Bias.data(), Bias.size() * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(DM, M.data(), M.size() * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMalloc(&DRelu, kRelu * sizeof(float)), "malloc");
  check(cudaMalloc(&DFrom, kBlend * sizeof(float)), "malloc");
  check(cudaMalloc(&DTo, kBlend * sizeof(float)), "malloc");
  check(cudaMalloc(&DMix, kBlend * sizeof(float)), "malloc");
  check(cudaMalloc(&DX, kAffine * sizeof(float)), "malloc");
  check(cudaMalloc(&DY, kAffine * sizeof(float)), "malloc");
  check(cudaMemcpy(DRelu, Relu.data(), kRelu * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(DFrom, From.data(), kBlend * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(DTo, To.data(), kBlend * sizeof(float), cudaMemcpyHostToDevice), "copy");
  check(cudaMemcpy(DX, X.data(), kAffine * sizeof(float), cudaMemcpyHostToDevice), "copy");

  relu_gs<<<Sms * 8, 256>>>(DRelu, kRelu);
  blend_gs<<<(kBlend + 255) / 256, 256>>>(DFrom, DTo, DMix, kBlend, 0.375f);
  affine_gs<<<2048, 128>>>(DX, DY, 1.5f, -0.25f, kAffine);
  dim3 Batches((kRow + 255) / 256, kBatch);
  add_bias<<<Batches, 256>>>(DOut, DIn, DBias, kRow);
  scale_rows<<<dim3((kCols + 127) / 128, kRows), 128>>>(DM, DS, kCols, 0.75f);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "sync");

  std::vector<float> GotRelu(kRelu), Mix(kBlend), Y(kAffine), Out(In.size()),
      S(M.size());
  check(cudaMemcpy(Out.data(), DOut, Out.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(S.data(), DS, S.size() * sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(GotRelu.data(), DRelu, kRelu * sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(Mix.data(), DMix, kBlend * sizeof(float), cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(Y.data(), DY, kAffine * sizeof(float), cudaMemcpyDeviceToHost), "copy");

  long Bad = 0;
  double SumRelu = 0, SumMix = 0, SumY = 0, SumOut = 0, SumS = 0;
  for (size_t I = 0; I < Out.size(); ++I) {
    if (Out[I] != In[I] + Bias[I % kRow]) ++Bad;
    SumOut += Out[I];
  }
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != M[I] * 0.75f) ++Bad;
    SumS += S[I];
  }
  for (std::size_t I = 0; I < kRelu; ++I) {
    if (GotRelu[I] != (Relu[I] > 0.0f ? Relu[I] : 0.0f)) ++Bad;
    SumRelu += GotRelu[I];
  }
  for (int I = 0; I < kBlend; ++I) {
    double Ref = From[I] + 0.375 * (double(To[I]) - From[I]);
    if (std::fabs(Mix[I] - Ref) > 1e-6) ++Bad;
    SumMix += Mix[I];
  }
  for (int I = 0; I < kAffine; ++I) {
    double Ref = 1.5 * X[I] - 0.25;
    if (std::fabs(Y[I] - Ref) > 1e-6) ++Bad;
    SumY += Y[I];
  }
  std::printf("elementwise_forms: relu %.6e mix %.6e affine %.6e bias %.6e "
              "rows %.6e\n",
              SumRelu, SumMix, SumY, SumOut, SumS);
  std::printf("elementwise_forms: %ld wrong: %s\n", Bad, Bad ? "FAIL" : "ok");
  cudaFree(DRelu); cudaFree(DFrom); cudaFree(DTo); cudaFree(DMix);
  cudaFree(DX); cudaFree(DY); cudaFree(DIn); cudaFree(DOut); cudaFree(DBias);
  cudaFree(DM); cudaFree(DS);
  return Bad ? 1 : 0;
}
