// 3-D 7-point stencil on a 256^3 grid, kernel templated on element type.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(x)                                                         \
  do {                                                                        \
    cudaError_t err__ = (x);                                                  \
    if (err__ != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error: %s (%s:%d)\n", cudaGetErrorString(err__),  \
              __FILE__, __LINE__);                                            \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

struct Grid3 {
  int nx, ny, nz;
};

__host__ __device__ __forceinline__ size_t idx3(int x, int y, int z, const Grid3& g) {
  return (static_cast<size_t>(z) * g.ny + y) * g.nx + x;
}

template <typename T>
__global__ void stencil7(const T* __restrict__ in, T* __restrict__ out, Grid3 g,
                         T c0, T c1) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x >= g.nx || y >= g.ny || z >= g.nz) return;

  const size_t c = idx3(x, y, z, g);
  if (x == 0 || y == 0 || z == 0 || x == g.nx - 1 || y == g.ny - 1 || z == g.nz - 1) {
    out[c] = in[c];
    return;
  }
  out[c] = c0 * in[c] +
           c1 * (in[idx3(x - 1, y, z, g)] + in[idx3(x + 1, y, z, g)] +
                 in[idx3(x, y - 1, z, g)] + in[idx3(x, y + 1, z, g)] +
                 in[idx3(x, y, z - 1, g)] + in[idx3(x, y, z + 1, g)]);
}

int main(int argc, char** argv) {
  const Grid3 g{256, 256, 256};
  const int reps = 10;
  const float c0 = 0.4f, c1 = 0.1f;
  const size_t n = static_cast<size_t>(g.nx) * g.ny * g.nz;

  unsigned int state = argc > 1 ? static_cast<unsigned int>(atoi(argv[1])) : 77u;
  std::vector<float> h_in(n), h_out(n);
  for (size_t i = 0; i < n; ++i) {
    state = state * 214013u + 2531011u;
    h_in[i] = static_cast<float>((state >> 16) & 0x7FFF) / 32768.0f;
  }

  float *d_in = nullptr, *d_out = nullptr;
  CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));

  const dim3 block(32, 4, 2);
  const dim3 grid((g.nx + block.x - 1) / block.x, (g.ny + block.y - 1) / block.y,
                  (g.nz + block.z - 1) / block.z);

  stencil7<float><<<grid, block>>>(d_in, d_out, g, c0, c1);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());

  cudaEvent_t e0, e1;
  CUDA_CHECK(cudaEventCreate(&e0));
  CUDA_CHECK(cudaEventCreate(&e1));
  CUDA_CHECK(cudaEventRecord(e0));
  for (int r = 0; r < reps; ++r) stencil7<float><<<grid, block>>>(d_in, d_out, g, c0, c1);
  CUDA_CHECK(cudaEventRecord(e1));
  CUDA_CHECK(cudaEventSynchronize(e1));
  CUDA_CHECK(cudaGetLastError());
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  CUDA_CHECK(cudaMemcpy(h_out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));

  size_t bad = 0;
  double worst = 0.0;
  for (int z = 0; z < g.nz; ++z)
    for (int y = 0; y < g.ny; ++y)
      for (int x = 0; x < g.nx; ++x) {
        const size_t c = idx3(x, y, z, g);
        double ref;
        if (x == 0 || y == 0 || z == 0 || x == g.nx - 1 || y == g.ny - 1 || z == g.nz - 1) {
          ref = h_in[c];
        } else {
          ref = (double)c0 * h_in[c] +
                (double)c1 * ((double)h_in[idx3(x - 1, y, z, g)] + h_in[idx3(x + 1, y, z, g)] +
                              h_in[idx3(x, y - 1, z, g)] + h_in[idx3(x, y + 1, z, g)] +
                              h_in[idx3(x, y, z - 1, g)] + h_in[idx3(x, y, z + 1, g)]);
        }
        const double err = std::fabs(h_out[c] - ref) / std::fmax(std::fabs(ref), 1e-3);
        if (err > worst) worst = err;
        if (err > 1e-4) ++bad;
      }

  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  if (bad != 0) {
    printf("stencil3d_7pt: FAIL bad=%zu worst_rel=%.3e\n", bad, worst);
    return 1;
  }
  printf("stencil3d_7pt: ok time_ms=%.4f\n", ms / reps);
  return 0;
}
