// sc_histogram256_kernels.cuh: kernels of sc_histogram256.cu.
#ifndef SC_HISTOGRAM256_KERNELS_CUH
#define SC_HISTOGRAM256_KERNELS_CUH

#define HIST256_BINS 256

// One thread per input byte; each thread bumps its byte's bin in global
// memory. `bins` must be zeroed before the launch.
__global__ void hist256(const unsigned char *data, unsigned int *bins,
                        unsigned int count) {
  unsigned int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < count) {
    unsigned int b = data[idx];
    atomicAdd(&bins[b], 1u);
  }
}

#endif // SC_HISTOGRAM256_KERNELS_CUH
