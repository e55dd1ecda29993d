// A size_t index and a grid from a ceiling-division helper function.
#include "histogram_common.cuh"

#include <cstddef>

const char *const KernelName = "byteHistogram";

__global__ void byteHistogram(const unsigned char *bytes, unsigned *bins,
                              size_t count) {
  size_t at = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (at < count)
    atomicAdd(bins + bytes[at], 1u);
}

static unsigned blocksFor(size_t items, unsigned perBlock) {
  return (unsigned)((items + perBlock - 1) / perBlock);
}

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  byteHistogram<<<blocksFor((size_t)N, 256), 256>>>(Data, Bins, (size_t)N);
}
