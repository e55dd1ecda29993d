// Launches a kernel, then fails the way its argument says: "abort" aborts,
// "hang" sleeps for ever, anything else exits with status 0.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void touch(float *y) { y[blockIdx.x * blockDim.x + threadIdx.x] += 1; }

int main(int argc, char **argv) {
  float *y;
  cudaMalloc(&y, 1024 * sizeof(float));
  touch<<<4, 256>>>(y);
  cudaDeviceSynchronize();
  std::printf("launched\n");
  std::fflush(stdout);
  const char *Mode = argc > 1 ? argv[1] : "";
  if (!std::strcmp(Mode, "abort"))
    std::abort();
  if (!std::strcmp(Mode, "hang"))
    for (;;)
      sleep(1);
  return 0;
}
