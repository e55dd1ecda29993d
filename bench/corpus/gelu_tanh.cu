//===- gelu_tanh.cu - Mixture of tanh-approximated GELU units --*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A learned activation made of NumUnits tanh-approximated GELU units:
///   Out[i] = sum_k A_k * gelu(B_k * In[i] + C_k),
///   gelu(u) = 0.5 u (1 + tanh(sqrt(2/pi) (u + 0.044715 u^3))),
/// with u^3 written as powf(u, 3.0f), over 2^24 floats in [-3, 3), one thread
/// per element. The 3 * NumUnits coefficients are a small array in global
/// memory that every thread reads.
///
/// Bottleneck: special-function-bound. Each element evaluates 8 tanhf and 8
/// powf (the full-precision library versions), several hundred instructions,
/// against only 8 bytes of DRAM traffic (134 MB per launch).
///
/// Tolerance: 1e-4. tanhf and powf are within 2 ulp; each unit's value is
/// at most about 5 in magnitude and |A_k| < 0.5, so the sum of 8 units
/// carries an error of a few 1e-6 at worst; 1e-4 leaves headroom for a
/// rewrite with fast exp-based tanh while still catching logic errors.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void geluTanhMixKernel(const float *In, const float *Coef,
                                  float *Out, int N, int NumUnits) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float X = In[I];
  float Acc = 0.0f;
  for (int K = 0; K < NumUnits; ++K) {
    float A = Coef[3 * K];
    float B = Coef[3 * K + 1];
    float C = Coef[3 * K + 2];
    float U = B * X + C;
    float Inner = 0.7978845608f * (U + 0.044715f * powf(U, 3.0f));
    Acc += A * (0.5f * U * (1.0f + tanhf(Inner)));
  }
  Out[I] = Acc;
}

int main() {
  constexpr int N = 1 << 24;
  constexpr int NumUnits = 8;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;
  constexpr double Sqrt2OverPi = 0.79788456080286535588;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N);
  R.fill(HIn, -3.0f, 3.0f);
  std::vector<float> HCoef(3 * NumUnits);
  for (int K = 0; K < NumUnits; ++K) {
    HCoef[3 * K] = R.uniform(-0.5f, 0.5f);     // A: weight.
    HCoef[3 * K + 1] = R.uniform(0.5f, 1.5f);  // B: scale.
    HCoef[3 * K + 2] = R.uniform(-0.5f, 0.5f); // C: shift.
  }

  corpus::DeviceBuffer<float> In(N), Coef(3 * NumUnits), Out(N);
  In.upload(HIn);
  Coef.upload(HCoef);

  corpus::Harness H("gelu_tanh");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("geluTanhMixKernel", [&] {
    geluTanhMixKernel<<<Grid, BlockSize>>>(In.get(), Coef.get(), Out.get(), N,
                                           NumUnits);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? N - 1 : (int)Pick.below(N);
    double X = HIn[I];
    double Want = 0.0;
    for (int K = 0; K < NumUnits; ++K) {
      double U = (double)HCoef[3 * K + 1] * X + (double)HCoef[3 * K + 2];
      double Inner = Sqrt2OverPi * (U + 0.044715 * U * U * U);
      Want += (double)HCoef[3 * K] * (0.5 * U * (1.0 + std::tanh(Inner)));
    }
    H.compare(HOut[I], Want);
  }
  return H.finish(Tol);
}
