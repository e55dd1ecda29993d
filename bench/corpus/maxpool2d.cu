//===- maxpool2d.cu - 3x3 stride-2 max pooling, NCHW -----------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 3x3 max pooling with stride 2 and no padding over an NCHW tensor of
/// 32 x 96 x 224 x 224 floats, giving 32 x 96 x 111 x 111. One thread per
/// output decomposes its index into (plane, row, column) and scans its
/// window. The kernel is a template over the window and stride, instantiated
/// once.
///
/// Bottleneck: memory-bound. The overlapping windows are served mostly from
/// cache, so DRAM traffic is about the 617 MB input plus the 151 MB output.
///
/// Tolerance: 0. A maximum is exact, so any difference is a bug.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

template <int Window, int Stride>
__global__ void maxPool2dKernel(const float *In, float *Out, int Planes, int H,
                                int W, int OutH, int OutW) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= Planes * OutH * OutW)
    return;
  int Ow = I % OutW;
  int Oh = (I / OutW) % OutH;
  int Plane = I / (OutW * OutH);
  const float *Src =
      In + (size_t)Plane * H * W + (size_t)(Oh * Stride) * W + Ow * Stride;
  float Max = -INFINITY;
  for (int Kh = 0; Kh < Window; ++Kh)
    for (int Kw = 0; Kw < Window; ++Kw)
      Max = fmaxf(Max, Src[Kh * W + Kw]);
  Out[I] = Max;
}

int main() {
  constexpr int Batch = 32;
  constexpr int Channels = 96;
  constexpr int H = 224;
  constexpr int W = 224;
  constexpr int PoolWindow = 3;
  constexpr int PoolStride = 2;
  constexpr int OutH = (H - PoolWindow) / PoolStride + 1;
  constexpr int OutW = (W - PoolWindow) / PoolStride + 1;
  constexpr int Planes = Batch * Channels;
  constexpr size_t InSize = (size_t)Planes * H * W;
  constexpr int OutSize = Planes * OutH * OutW;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 0.0;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(InSize);
  R.fill(HIn);

  corpus::DeviceBuffer<float> In(InSize), Out(OutSize);
  In.upload(HIn);

  corpus::Harness Hr("maxpool2d");
  int Grid = (OutSize + BlockSize - 1) / BlockSize;
  Hr.time("maxPool2dKernel", [&] {
    maxPool2dKernel<PoolWindow, PoolStride>
        <<<Grid, BlockSize>>>(In.get(), Out.get(), Planes, H, W, OutH, OutW);
  });

  std::vector<float> HOut;
  Out.download(HOut);
  // Check a deterministic random sample of outputs, and the last one.
  corpus::Rng Pick(corpus::seed() ^ 0x5DEECE66DULL);
  for (int S = 0; S < NumSamples; ++S) {
    int I = S == 0 ? OutSize - 1 : (int)Pick.below(OutSize);
    int Plane = I / (OutH * OutW);
    int Oh = I / OutW % OutH;
    int Ow = I % OutW;
    float Want = -INFINITY;
    for (int Kh = 0; Kh < PoolWindow; ++Kh)
      for (int Kw = 0; Kw < PoolWindow; ++Kw) {
        int Ih = Oh * PoolStride + Kh;
        int Iw = Ow * PoolStride + Kw;
        Want = std::max(Want, HIn[((size_t)Plane * H + Ih) * W + Iw]);
      }
    Hr.compare(HOut[I], Want);
  }
  return Hr.finish(Tol);
}
