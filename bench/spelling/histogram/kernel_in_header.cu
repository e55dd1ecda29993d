// The kernel comes from a header; the source only launches it.
#include "histogram_common.cuh"
#include "hist_kernels.cuh"

const char *const KernelName = "hist256";

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  hist256<<<blocksPerGrid, threadsPerBlock>>>(Data, Bins, N);
}
