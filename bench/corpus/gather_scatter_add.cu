//===- gather_scatter_add.cu - Scatter-add with float atomics --*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Scatter-add (segment sum): Out[Idx[i]] += Val[i] for 2^25 values in
/// [0, 1) whose indices are uniform over only 4096 outputs, one thread per
/// value with a float atomicAdd to global memory.
///
/// Bottleneck: atomic-contention. 32M float atomics land on 4096 addresses
/// (8192 per address), which the L2 atomic units serialise; the 256 MiB of
/// index and value reads are secondary.
///
/// Tolerance: 1e-4. Atomic order varies between launches. Each output sums
/// 8192 positive values to about 4096; random fp32 rounding of that sum
/// gives a relative error of about 2e-6 (1e-5 at five sigma), below 1e-4,
/// while a racy non-atomic update loses many values and is off by far more.
///
//===----------------------------------------------------------------------===//

#include "corpus.cuh"

__global__ void gatherScatterAddKernel(const int *Idx, const float *Val,
                                       float *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    atomicAdd(&Out[Idx[I]], Val[I]);
}

int main() {
  constexpr int N = 1 << 25;
  constexpr int NumOut = 1 << 12;
  constexpr int BlockSize = 256;
  constexpr double Tol = 1e-4;

  corpus::Rng R(corpus::seed());
  std::vector<int> HIdx(N);
  std::vector<float> HVal(N);
  for (int I = 0; I < N; ++I) {
    HIdx[I] = (int)R.below(NumOut);
    HVal[I] = R.uniform(0.0f, 1.0f);
  }

  corpus::DeviceBuffer<int> Idx(N);
  corpus::DeviceBuffer<float> Val(N), Out(NumOut);
  Idx.upload(HIdx);
  Val.upload(HVal);

  corpus::Harness H("gather_scatter_add");
  int Grid = (N + BlockSize - 1) / BlockSize;
  H.time(
      "gatherScatterAddKernel",
      [&] {
        gatherScatterAddKernel<<<Grid, BlockSize>>>(Idx.get(), Val.get(),
                                                    Out.get(), N);
      },
      [&] { Out.zero(); });

  std::vector<float> HOut;
  Out.download(HOut);
  std::vector<double> Want(NumOut, 0.0);
  for (int I = 0; I < N; ++I)
    Want[HIdx[I]] += HVal[I];
  for (int J = 0; J < NumOut; ++J)
    H.compare(HOut[J], Want[J]);
  return H.finish(Tol);
}
