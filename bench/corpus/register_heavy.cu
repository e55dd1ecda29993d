// register_heavy: each thread relaxes its own periodic chain of Cells = 192
// fp32 values for Steps in-place (Gauss-Seidel) sweeps:
//   S[k] = Coupling * (S[k-1] + S[k+1]) + Decay * S[k]   (indices mod Cells)
// Chains are stored structure-of-arrays (cell k of chain i at k * NumChains +
// i) so the initial loads and final stores are coalesced.
//
// Bottleneck: register-limited-occupancy. The whole chain stays live in
// registers (~200 per thread), so only a few warps fit per SM, and the sweep
// is one long dependent add/FMA chain whose latency those few warps cannot
// hide.
//
// Tolerance 1e-4: |Decay| + 2 |Coupling| = 1, so a sweep never grows the max
// norm and rounding errors (~3 ops of <= 0.5 ulp per cell and step, values
// |S| < 1) add up at most linearly: <= 48 steps * ~2e-7 ~ 1e-5 absolute
// against a double-precision CPU reference; 1e-4 leaves a 10x margin.

#include "corpus.cuh"

constexpr int Cells = 192;

__global__ void chainRelax(const float *In, float *Out, int NumChains,
                           int Steps, float Decay, float Coupling) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= NumChains)
    return;
  float S[Cells];
#pragma unroll
  for (int K = 0; K < Cells; ++K)
    S[K] = In[(size_t)K * NumChains + I];
#pragma unroll 1
  for (int Step = 0; Step < Steps; ++Step) {
#pragma unroll
    for (int K = 0; K < Cells; ++K) {
      float Left = S[(K + Cells - 1) % Cells];
      float Right = S[(K + 1) % Cells];
      S[K] = fmaf(Coupling, Left + Right, Decay * S[K]);
    }
  }
#pragma unroll
  for (int K = 0; K < Cells; ++K)
    Out[(size_t)K * NumChains + I] = S[K];
}

int main() {
  constexpr int NumChains = 1 << 18;
  constexpr int Steps = 48;
  constexpr float Decay = 0.9f;
  constexpr float Coupling = 0.05f;
  constexpr int BlockSize = 128;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;

  corpus::Harness H("register_heavy");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)Cells * NumChains);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevOut(HostIn.size());
  DevIn.upload(HostIn);

  int Grid = (NumChains + BlockSize - 1) / BlockSize;
  H.time("chainRelax", [&] {
    chainRelax<<<Grid, BlockSize>>>(DevIn.get(), DevOut.get(), NumChains, Steps,
                                    Decay, Coupling);
  });

  std::vector<float> HostOut;
  DevOut.download(HostOut);

  // Chains are independent: replay a random sample of them on the CPU.
  std::vector<double> S(Cells);
  for (int Sample = 0; Sample < NumSamples; ++Sample) {
    int Chain = (int)R.below(NumChains);
    for (int K = 0; K < Cells; ++K)
      S[K] = HostIn[(size_t)K * NumChains + Chain];
    for (int Step = 0; Step < Steps; ++Step)
      for (int K = 0; K < Cells; ++K) {
        double Left = S[(K + Cells - 1) % Cells];
        double Right = S[(K + 1) % Cells];
        S[K] = (double)Coupling * (Left + Right) + (double)Decay * S[K];
      }
    for (int K = 0; K < Cells; ++K)
      H.compare(HostOut[(size_t)K * NumChains + Chain], S[K]);
  }
  return H.finish(Tol);
}
