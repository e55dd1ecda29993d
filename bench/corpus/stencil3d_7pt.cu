// stencil3d_7pt: one Jacobi sweep of a 7-point stencil on a 512^3 fp32 grid
// (x contiguous, then y, then z; 512 MiB per buffer):
//   Out = Center * In[z][y][x] + Side * (sum of the 6 face neighbours)
// on interior points; boundary points are copied unchanged. One thread per
// point (blockIdx.z = z), out of place, so every launch does the same work.
//
// Bottleneck: memory-bound. ~8 flops per point against 8 bytes of compulsory
// DRAM traffic; the z neighbours are a whole plane (1 MiB) away, so they are
// re-fetched from L2/DRAM rather than reused.
//
// Tolerance 1e-5: each output is 7 products/sums of values in [-1, 1), a few
// roundings of <= 6e-8 relative each against the double CPU reference.

#include "corpus.cuh"

__global__ void stencil3d7pt(const float *In, float *Out, int NX, int NY,
                             int NZ, float Center, float Side) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  int Z = blockIdx.z;
  if (X >= NX || Y >= NY || Z >= NZ)
    return;
  size_t Plane = (size_t)NX * NY;
  size_t I = (size_t)Z * Plane + (size_t)Y * NX + X;
  if (X == 0 || Y == 0 || Z == 0 || X == NX - 1 || Y == NY - 1 || Z == NZ - 1) {
    Out[I] = In[I];
    return;
  }
  Out[I] = Center * In[I] + Side * (In[I - 1] + In[I + 1] + In[I - NX] +
                                    In[I + NX] + In[I - Plane] + In[I + Plane]);
}

int main() {
  constexpr int NX = 512;
  constexpr int NY = 512;
  constexpr int NZ = 512;
  constexpr float Center = 0.4f;
  constexpr float Side = 0.1f;
  constexpr int BlockX = 32;
  constexpr int BlockY = 8;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-5;

  corpus::Harness H("stencil3d_7pt");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)NX * NY * NZ);
  R.fill(HostIn);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevOut(HostIn.size());
  DevIn.upload(HostIn);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((NX + BlockX - 1) / BlockX, (NY + BlockY - 1) / BlockY, NZ);
  H.time("stencil3d7pt", [&] {
    stencil3d7pt<<<Grid, Block>>>(DevIn.get(), DevOut.get(), NX, NY, NZ, Center,
                                  Side);
  });

  std::vector<float> HostOut;
  DevOut.download(HostOut);
  auto Idx = [&](int X, int Y, int Z) -> size_t {
    return ((size_t)Z * NY + Y) * NX + X;
  };
  for (int S = 0; S < NumSamples; ++S) {
    int X = (int)R.below(NX);
    int Y = (int)R.below(NY);
    int Z = (int)R.below(NZ);
    double Want;
    if (X == 0 || Y == 0 || Z == 0 || X == NX - 1 || Y == NY - 1 || Z == NZ - 1)
      Want = HostIn[Idx(X, Y, Z)];
    else
      Want = (double)Center * HostIn[Idx(X, Y, Z)] +
             (double)Side *
                 ((double)HostIn[Idx(X - 1, Y, Z)] + HostIn[Idx(X + 1, Y, Z)] +
                  HostIn[Idx(X, Y - 1, Z)] + HostIn[Idx(X, Y + 1, Z)] +
                  HostIn[Idx(X, Y, Z - 1)] + HostIn[Idx(X, Y, Z + 1)]);
    H.compare(HostOut[Idx(X, Y, Z)], Want);
  }
  return H.finish(Tol);
}
