// Launch shapes held in dim3 locals, as SDK samples write them; one
// dimension each.
#include "histogram_common.cuh"

const char *const KernelName = "histogramDim3";

__global__ void histogramDim3(const unsigned char *d_data,
                              unsigned int *d_hist, int n) {
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  if (gid < n) {
    unsigned char v = d_data[gid];
    atomicAdd(&d_hist[v], 1);
  }
}

void launch(const unsigned char *Data, unsigned int *Bins, int N) {
  dim3 block(256);
  dim3 grid((N + block.x - 1) / block.x);
  histogramDim3<<<grid, block>>>(Data, Bins, N);
}
