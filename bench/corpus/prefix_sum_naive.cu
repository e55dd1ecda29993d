// prefix_sum_naive: inclusive scan of N = 2^26 fp32 values in three kernels:
//  1. scanBlocks: each block scans ScanBlockSize elements with a Hillis-Steele
//     scan in double-buffered shared memory (one __syncthreads per step) and
//     writes its total to BlockSums;
//  2. scanBlockSums: a single block scans the 2^18 block totals one blockful
//     at a time, the same way, carrying the running total between chunks;
//  3. addBlockOffsets: adds the scanned total of all preceding segments to
//     every element (out of place, so every kernel can be re-run alone).
//
// Bottleneck: barrier-stalls. Every step of the Hillis-Steele loop ends in a
// block-wide barrier, and the single-block second pass is a long sequence of
// such steps with almost nothing else to overlap them.
//
// Tolerance 0: the inputs are small integers (-2..2) stored as floats; every
// partial sum is an integer of magnitude far below 2^24 (the prefix sums are
// a random walk of ~1e4), so the fp32 scan is exact in any order.

#include "corpus.cuh"

template <int BlockSize>
__global__ void scanBlocks(const float *In, float *Partial, float *BlockSums,
                           int N) {
  __shared__ float Buf[2][BlockSize];
  int Tid = threadIdx.x;
  int I = blockIdx.x * BlockSize + Tid;
  Buf[0][Tid] = I < N ? In[I] : 0.0f;
  __syncthreads();
  int Cur = 0;
  for (int Offset = 1; Offset < BlockSize; Offset *= 2) {
    float V = Buf[Cur][Tid];
    if (Tid >= Offset)
      V += Buf[Cur][Tid - Offset];
    Buf[1 - Cur][Tid] = V;
    Cur = 1 - Cur;
    __syncthreads();
  }
  if (I < N)
    Partial[I] = Buf[Cur][Tid];
  if (Tid == BlockSize - 1)
    BlockSums[blockIdx.x] = Buf[Cur][Tid];
}

// A single block; dynamic shared memory holds 2 * blockDim.x floats.
__global__ void scanBlockSums(const float *Sums, float *Scanned, int Count) {
  extern __shared__ float Buf[]; // Two halves of Len floats each.
  __shared__ float Carry;
  int Tid = threadIdx.x;
  int Len = blockDim.x;
  if (Tid == 0)
    Carry = 0.0f;
  for (int Base = 0; Base < Count; Base += Len) {
    int I = Base + Tid;
    Buf[Tid] = I < Count ? Sums[I] : 0.0f;
    __syncthreads();
    int Cur = 0;
    for (int Offset = 1; Offset < Len; Offset *= 2) {
      float V = Buf[Cur * Len + Tid];
      if (Tid >= Offset)
        V += Buf[Cur * Len + Tid - Offset];
      Buf[(1 - Cur) * Len + Tid] = V;
      Cur = 1 - Cur;
      __syncthreads();
    }
    float Total = Buf[Cur * Len + Tid] + Carry;
    if (I < Count)
      Scanned[I] = Total;
    __syncthreads(); // Everyone has read Carry and Buf.
    if (Tid == Len - 1)
      Carry = Total;
  }
}

__global__ void addBlockOffsets(const float *Partial, const float *Scanned,
                                float *Out, int N, int SegmentSize) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  int Segment = I / SegmentSize;
  float Offset = Segment > 0 ? Scanned[Segment - 1] : 0.0f;
  Out[I] = Partial[I] + Offset;
}

int main() {
  constexpr int N = 1 << 26;
  constexpr int ScanBlockSize = 256;
  constexpr int SumsBlockSize = 1024;
  constexpr int AddBlockSize = 256;
  constexpr double Tol = 0.0;

  corpus::Harness H("prefix_sum_naive");
  corpus::Rng R(corpus::seed());
  std::vector<float> HostIn(N);
  for (float &V : HostIn)
    V = (float)((int)R.below(5) - 2);

  int NumSegments = (N + ScanBlockSize - 1) / ScanBlockSize;
  corpus::DeviceBuffer<float> DevIn(N);
  corpus::DeviceBuffer<float> DevPartial(N);
  corpus::DeviceBuffer<float> DevSums(NumSegments);
  corpus::DeviceBuffer<float> DevScanned(NumSegments);
  corpus::DeviceBuffer<float> DevOut(N);
  DevIn.upload(HostIn);

  H.time("scanBlocks", [&] {
    scanBlocks<ScanBlockSize><<<NumSegments, ScanBlockSize>>>(
        DevIn.get(), DevPartial.get(), DevSums.get(), N);
  });
  H.time("scanBlockSums", [&] {
    scanBlockSums<<<1, SumsBlockSize, 2 * SumsBlockSize * sizeof(float)>>>(
        DevSums.get(), DevScanned.get(), NumSegments);
  });
  int AddGrid = (N + AddBlockSize - 1) / AddBlockSize;
  H.time("addBlockOffsets", [&] {
    addBlockOffsets<<<AddGrid, AddBlockSize>>>(
        DevPartial.get(), DevScanned.get(), DevOut.get(), N, ScanBlockSize);
  });

  std::vector<float> HostOut;
  DevOut.download(HostOut);
  int64_t Want = 0;
  for (int I = 0; I < N; ++I) {
    Want += (int64_t)HostIn[I];
    H.compare(HostOut[I], (double)Want);
  }
  return H.finish(Tol);
}
