// A constexpr size, a size_t index computed with a widening cast, and the
// bound on the left of the comparison.
#include "relu_common.cuh"

namespace {
constexpr std::size_t Count = std::size_t(1) << 26;
constexpr unsigned Threads = 512;
} // namespace

const char *const KernelName = "rectify";

__global__ void rectify(const float *input, float *output) {
  std::size_t gid = static_cast<std::size_t>(blockIdx.x) * blockDim.x +
                    threadIdx.x;
  if (Count > gid) {
    output[gid] = fmaxf(0.0f, input[gid]);
  }
}

void launch(const float *In, float *Out, int) {
  static_assert(Count == kElems, "sizes");
  rectify<<<(Count + Threads - 1) / Threads, Threads>>>(In, Out);
}
