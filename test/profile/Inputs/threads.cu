// Kernels from two host threads on their own streams, and from a second
// context created with the driver API.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <thread>

__global__ void left(float *y) { y[threadIdx.x] += 1; }
__global__ void right(float *y) { y[threadIdx.x] *= 2; }
__global__ void other(float *y) { y[threadIdx.x] = 3; }

static void worker(bool Left) {
  cudaStream_t S;
  cudaStreamCreate(&S);
  float *y;
  cudaMalloc(&y, 256 * sizeof(float));
  for (int I = 0; I < 4; ++I) {
    if (Left)
      left<<<1, 256, 0, S>>>(y);
    else
      right<<<1, 256, 0, S>>>(y);
  }
  cudaStreamSynchronize(S);
  cudaFree(y);
  cudaStreamDestroy(S);
}

int main() {
  cudaFree(nullptr);
  std::thread A(worker, true), B(worker, false);
  A.join();
  B.join();
  CUdevice Dev;
  CUcontext Ctx, Primary;
  cuCtxGetCurrent(&Primary);
  cuDeviceGet(&Dev, 0);
  CUctxCreateParams Params = {};
  if (cuCtxCreate(&Ctx, &Params, 0, Dev) != CUDA_SUCCESS) {
    std::printf("cannot create a context\n");
    return 1;
  }
  float *y;
  cudaMalloc(&y, 256 * sizeof(float));
  other<<<1, 256>>>(y);
  cudaError_t E = cudaDeviceSynchronize();
  cuCtxSetCurrent(Primary);
  cuCtxDestroy(Ctx);
  std::printf("done %s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
