// autoprof-uncoalesced-access: global accesses in loops whose address
// varies across a warp with a stride other than one element.

// RUN: clang-autoprof check --checks='-*,autoprof-uncoalesced-access' %s -- -std=c++17 \
// RUN:   | FileCheck %s --implicit-check-not='warning:'

__global__ void threadPerRow(const float *__restrict__ in, float *__restrict__ out,
                             int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c)
    // CHECK: uncoalesced-access.cu:[[@LINE+1]]:12: warning: uncoalesced global load in a loop: consecutive threads access elements `cols` elements apart [autoprof-uncoalesced-access]
    sum += in[row * cols + c];
  out[row] = sum;
}

__global__ void stride32(const float *__restrict__ in, float *__restrict__ out) {
  for (int k = 0; k < 8; ++k)
    // CHECK: uncoalesced-access.cu:[[@LINE+1]]:5: warning: uncoalesced global store in a loop: consecutive threads access elements 32 elements apart [autoprof-uncoalesced-access]
    out[threadIdx.x * 32 + k] = 1.0f;
}

// Must not warn: coalesced loops, a grid-stride loop, uniform loads, and a
// strided access outside any loop.
__global__ void clean(const float *__restrict__ in, float *__restrict__ out,
                      int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i];
  for (int k = 0; k < 4; ++k)
    out[k * blockDim.x + threadIdx.x] = in[k];
  out[threadIdx.x * 2] = 0.0f;
}
