//===- fused_activation_chain.cu - Fused elementwise epilogue --*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One kernel, one thread per element of a Rows x Cols matrix (32768 x 1024),
/// fusing an epilogue:
///   X    = In + Bias[col]                 bias add
///   G    = 0.5 X (1 + erf(X / sqrt(2)))   exact GELU
///   S    = G * Scale[col] + Residual      scale and residual add
///   Gate = 1 / (1 + exp(-S))              sigmoid gate
///   Mish = S * tanh(log(1 + exp(S)))      Mish branch
///   Snk  = S + sin(2 S)^2 / 2             snake branch
///   Out  = Gate * Mish + (1 - Gate) * Snk
///
/// Bottleneck: special-function-bound. Each element evaluates erff, two
/// expf, logf, tanhf and sinf (full-precision library versions) plus an IEEE
/// division, against 12 bytes of DRAM traffic (403 MB per launch).
///
/// Tolerance: 1e-4. |S| < 6.3 and every step is well conditioned; the
/// library functions are within a few ulp, so the result is off by a few
/// 1e-7 relative; 1e-4 leaves headroom for fast-math rewrites of the
/// transcendentals while catching logic errors.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void fusedActivationChainKernel(const float *In, const float *Bias,
                                           const float *Scale,
                                           const float *Residual, float *Out,
                                           int N, int Cols) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int Col = I % Cols;
  float X = In[I] + Bias[Col];
  float G = 0.5f * X * (1.0f + erff(X * 0.70710678f));
  float S = G * Scale[Col] + Residual[I];
  float Gate = 1.0f / (1.0f + expf(-S));
  float Mish = S * tanhf(logf(1.0f + expf(S)));
  float Sine = sinf(2.0f * S);
  float Snake = S + 0.5f * Sine * Sine;
  Out[I] = Gate * Mish + (1.0f - Gate) * Snake;
}

int main() {
  constexpr int Rows = 32768;
  constexpr int Cols = 1024;
  constexpr int N = Rows * Cols;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;
  constexpr double InvSqrt2 = 0.70710678118654752440;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(N), HResidual(N), HBias(Cols), HScale(Cols);
  R.fill(HIn, -3.0f, 3.0f);
  R.fill(HResidual, -1.0f, 1.0f);
  R.fill(HBias, -0.5f, 0.5f);
  R.fill(HScale, 0.5f, 1.5f);

  corpus::DeviceBuffer<float> In(N), Residual(N), Bias(Cols), Scale(Cols),
      Out(N);
  In.upload(HIn);
  Residual.upload(HResidual);
  Bias.upload(HBias);
  Scale.upload(HScale);

  corpus::Harness H("fused_activation_chain");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time("fusedActivationChainKernel", [&] {
    fusedActivationChainKernel<<<Grid, BlockSize>>>(
        In.get(), Bias.get(), Scale.get(), Residual.get(), Out.get(), N, Cols);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int Smp = 0; Smp < NumSamples; ++Smp) {
    int I = Smp == 0 ? N - 1 : (int)Pick.below(N);
    int Col = I % Cols;
    double X = (double)HIn[I] + (double)HBias[Col];
    double G = 0.5 * X * (1.0 + std::erf(X * InvSqrt2));
    double S = G * (double)HScale[Col] + (double)HResidual[I];
    double Gate = 1.0 / (1.0 + std::exp(-S));
    double Mish = S * std::tanh(std::log(1.0 + std::exp(S)));
    double Sine = std::sin(2.0 * S);
    double Snake = S + 0.5 * Sine * Sine;
    H.compare(HOut[I], Gate * Mish + (1.0 - Gate) * Snake);
  }
  return H.finish(Tol);
}
