//===- avgpool2d_divergent.cu - Avg pooling, border branches ---*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// 3x3 average pooling, stride 1, padding 1, padding excluded from the
/// divisor (count_include_pad = false, as in a PoolFormer token mixer), over
/// an NCHW tensor of 256 x 512 x 14 x 14 floats. One thread per output
/// decomposes its index with integer division and modulo by the runtime
/// sizes; interior outputs take a fast path, border outputs a path that
/// tests every tap against the image bounds and counts the taps it keeps.
/// Window, stride and padding are runtime arguments.
///
/// Bottleneck: divergence. A warp covers 32 consecutive outputs, about 2.3
/// rows of a 14-wide plane, so nearly every warp holds both interior and
/// border threads and runs both paths, whose loop trip counts also differ
/// by thread. The runtime integer division and modulo make it integer-heavy
/// as well; the 206 MB of traffic are secondary.
///
/// Tolerance: 1e-5. Each output averages at most 9 values in [-1, 1), an
/// error of a few 1e-8.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void avgPool2dKernel(const float *In, float *Out, int Planes, int H,
                                int W, int OutH, int OutW, int Window,
                                int Stride, int Pad) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= Planes * OutH * OutW)
    return;
  int Ow = I % OutW;
  int Oh = (I / OutW) % OutH;
  int Plane = I / (OutH * OutW);
  int H0 = Oh * Stride - Pad;
  int W0 = Ow * Stride - Pad;
  const float *Src = In + (size_t)Plane * H * W;
  float Sum = 0.0f;
  if (H0 >= 0 && H0 + Window <= H && W0 >= 0 && W0 + Window <= W) {
    // Interior: the whole window lies inside the plane.
    for (int Kh = 0; Kh < Window; ++Kh)
      for (int Kw = 0; Kw < Window; ++Kw)
        Sum += Src[(H0 + Kh) * W + W0 + Kw];
    Out[I] = Sum / (float)(Window * Window);
  } else {
    // Border: skip the taps that fall in the padding.
    int Count = 0;
    for (int Kh = 0; Kh < Window; ++Kh) {
      int Ih = H0 + Kh;
      if (Ih < 0 || Ih >= H)
        continue;
      for (int Kw = 0; Kw < Window; ++Kw) {
        int Iw = W0 + Kw;
        if (Iw < 0 || Iw >= W)
          continue;
        Sum += Src[Ih * W + Iw];
        ++Count;
      }
    }
    Out[I] = Sum / (float)Count;
  }
}

int main() {
  constexpr int Batch = 256;
  constexpr int Channels = 512;
  constexpr int H = 14;
  constexpr int W = 14;
  constexpr int PoolWindow = 3;
  constexpr int PoolStride = 1;
  constexpr int PoolPad = 1; // Less than PoolWindow: every window keeps a tap.
  constexpr int OutH = (H + 2 * PoolPad - PoolWindow) / PoolStride + 1;
  constexpr int OutW = (W + 2 * PoolPad - PoolWindow) / PoolStride + 1;
  constexpr int Planes = Batch * Channels;
  constexpr int InSize = Planes * H * W;
  constexpr int OutSize = Planes * OutH * OutW;
  constexpr int BlockSize = 256;
  constexpr int NumSamples = 4096;
  constexpr double Tol = 1e-5;

  corpus::Rng R(corpus::seed());
  std::vector<float> HIn(InSize);
  R.fill(HIn);

  corpus::DeviceBuffer<float> In(InSize), Out(OutSize);
  In.upload(HIn);

  corpus::Harness Hr("avgpool2d_divergent");
  int Grid = (OutSize + BlockSize - 1) / BlockSize;
  Hr.time("avgPool2dKernel", [&] {
    avgPool2dKernel<<<Grid, BlockSize>>>(In.get(), Out.get(), Planes, H, W,
                                         OutH, OutW, PoolWindow, PoolStride,
                                         PoolPad);
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
    int HLo = std::max(Oh * PoolStride - PoolPad, 0);
    int HHi = std::min(Oh * PoolStride - PoolPad + PoolWindow, H);
    int WLo = std::max(Ow * PoolStride - PoolPad, 0);
    int WHi = std::min(Ow * PoolStride - PoolPad + PoolWindow, W);
    double Sum = 0.0;
    for (int Ih = HLo; Ih < HHi; ++Ih)
      for (int Iw = WLo; Iw < WHi; ++Iw)
        Sum += HIn[((size_t)Plane * H + Ih) * W + Iw];
    Hr.compare(HOut[I], Sum / ((HHi - HLo) * (WHi - WLo)));
  }
  return Hr.finish(Tol);
}
