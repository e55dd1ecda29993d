// conv2d_naive: direct 2-D convolution (cross-correlation, as in deep
// learning), NCHW fp32: Out[n][co][y][x] = sum over ci, ky, kx of
// In[n][ci][y+ky-1][x+kx-1] * Weight[co][ci][ky][kx], 3x3 filter, stride 1,
// zero padding 1, Batch = 4, CIn = 32, COut = 64, 128x128 images. One thread
// per output element; blockIdx.z = n * COut + co.
//
// Bottleneck: poor-data-reuse. Every input pixel is re-read from global
// memory 9 * COut times and every weight once per output pixel; nothing is
// staged in shared memory or registers.
//
// Tolerance 1e-4: each output is a sum of 288 fp32 products of values in
// [-1, 1) (|Out| ~ 5); fp32 accumulation stays within ~1e-5 relative of the
// double CPU reference, so 1e-4 is a 10x margin while indexing bugs give
// errors of order 1.

#include "corpus.cuh"

constexpr int FilterSize = 3;
constexpr int Pad = 1;

__global__ void conv2dNaive(const float *In, const float *Weight, float *Out,
                            int CIn, int COut, int Height, int Width) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  int Image = blockIdx.z / COut;
  int Co = blockIdx.z % COut;
  if (X >= Width || Y >= Height)
    return;
  float Acc = 0.0f;
  for (int Ci = 0; Ci < CIn; ++Ci) {
    for (int Ky = 0; Ky < FilterSize; ++Ky) {
      int Iy = Y + Ky - Pad;
      if (Iy < 0 || Iy >= Height)
        continue;
      for (int Kx = 0; Kx < FilterSize; ++Kx) {
        int Ix = X + Kx - Pad;
        if (Ix < 0 || Ix >= Width)
          continue;
        float V = In[(((size_t)Image * CIn + Ci) * Height + Iy) * Width + Ix];
        float W = Weight[((Co * CIn + Ci) * FilterSize + Ky) * FilterSize + Kx];
        Acc += V * W;
      }
    }
  }
  Out[(((size_t)Image * COut + Co) * Height + Y) * Width + X] = Acc;
}

int main() {
  constexpr int Batch = 4;
  constexpr int CIn = 32;
  constexpr int COut = 64;
  constexpr int Height = 128;
  constexpr int Width = 128;
  constexpr int BlockX = 16;
  constexpr int BlockY = 16;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-4;

  corpus::Harness H("conv2d_naive");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn((size_t)Batch * CIn * Height * Width);
  std::vector<float> HostW((size_t)COut * CIn * FilterSize * FilterSize);
  R.fill(HostIn);
  R.fill(HostW);

  corpus::DeviceBuffer<float> DevIn(HostIn.size());
  corpus::DeviceBuffer<float> DevW(HostW.size());
  corpus::DeviceBuffer<float> DevOut((size_t)Batch * COut * Height * Width);
  DevIn.upload(HostIn);
  DevW.upload(HostW);

  dim3 Block(BlockX, BlockY);
  dim3 Grid((Width + BlockX - 1) / BlockX, (Height + BlockY - 1) / BlockY,
            Batch * COut);
  H.time("conv2dNaive", [&] {
    conv2dNaive<<<Grid, Block>>>(DevIn.get(), DevW.get(), DevOut.get(), CIn,
                                 COut, Height, Width);
  });

  std::vector<float> HostOut;
  DevOut.download(HostOut);
  for (int S = 0; S < NumSamples; ++S) {
    int Image = (int)R.below(Batch);
    int Co = (int)R.below(COut);
    int Y = (int)R.below(Height);
    int X = (int)R.below(Width);
    double Want = 0.0;
    for (int Ci = 0; Ci < CIn; ++Ci)
      for (int Ky = 0; Ky < FilterSize; ++Ky)
        for (int Kx = 0; Kx < FilterSize; ++Kx) {
          int Iy = Y + Ky - Pad;
          int Ix = X + Kx - Pad;
          if (Iy < 0 || Iy >= Height || Ix < 0 || Ix >= Width)
            continue;
          double V =
              HostIn[(((size_t)Image * CIn + Ci) * Height + Iy) * Width + Ix];
          double W =
              HostW[(((size_t)Co * CIn + Ci) * FilterSize + Ky) * FilterSize +
                    Kx];
          Want += V * W;
        }
    H.compare(HostOut[(((size_t)Image * COut + Co) * Height + Y) * Width + X],
              Want);
  }
  return H.finish(Tol);
}
