// tiny_grid_latency: evaluates one long polynomial p(x) = sum_k c_k x^k of
// degree 2^17 at NumPoints = 64 points with Horner's rule, one thread per
// point, so the whole grid is a single block of 64 threads. The coefficients
// are generated on the fly from a hash of k (salted from the seed), so the
// loop touches no memory.
//
// Bottleneck: small-grid. Two warps on one SM run a 131072-step chain of
// dependent FMAs; the other SMs idle and the FMA latency is never hidden.
// (Splitting each polynomial into chunks evaluated in parallel would fix it.)
//
// Tolerance 1e-4: |x| < 0.95 and |c_k| <= 0.5, so |r| <= 0.5 / (1 - 0.95) = 10
// and Horner is contracting: each step's rounding (<= 6e-8 * |r|) is damped by
// x in later steps, so the accumulated error is at most ~ 6e-8 * 10 / 0.05 ~
// 1.2e-5 (typically far less) against the double CPU reference.

#include "corpus.cuh"

__host__ __device__ inline float seriesCoefficient(unsigned K, unsigned Salt) {
  unsigned Hash = (K ^ Salt) * 2654435761u;
  // A 24-bit integer scaled into [-0.5, 0.5): exact in fp32.
  return (float)(Hash >> 8) * (1.0f / 16777216.0f) - 0.5f;
}

__global__ void hornerSerial(const float *X, float *Y, int NumPoints,
                             int Degree, unsigned Salt) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= NumPoints)
    return;
  float Xv = X[I];
  float Acc = 0.0f;
  for (int K = Degree; K >= 0; --K)
    Acc = fmaf(Acc, Xv, seriesCoefficient((unsigned)K, Salt));
  Y[I] = Acc;
}

int main() {
  constexpr int NumPoints = 64;
  constexpr int Degree = 1 << 17;
  constexpr int BlockSize = 64;
  constexpr double Tol = 1e-4;

  corpus::Harness H("tiny_grid_latency");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostX(NumPoints);
  R.fill(HostX, -0.95f, 0.95f);
  unsigned Salt = (unsigned)R.next();

  corpus::DeviceBuffer<float> DevX(NumPoints);
  corpus::DeviceBuffer<float> DevY(NumPoints);
  DevX.upload(HostX);

  int Grid = (NumPoints + BlockSize - 1) / BlockSize;
  H.time("hornerSerial", [&] {
    hornerSerial<<<Grid, BlockSize>>>(DevX.get(), DevY.get(), NumPoints, Degree,
                                      Salt);
  });

  std::vector<float> HostY;
  DevY.download(HostY);
  for (int P = 0; P < NumPoints; ++P) {
    double Xv = HostX[P];
    double Acc = 0.0;
    for (int K = Degree; K >= 0; --K)
      Acc = Acc * Xv + seriesCoefficient((unsigned)K, Salt);
    H.compare(HostY[P], Acc);
  }
  return H.finish(Tol);
}
