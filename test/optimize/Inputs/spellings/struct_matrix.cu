// Matrices as structs passed by value, in the style of the CUDA
// programming guide: `Matrix` carries its sizes and a pointer to its
// elements, read directly or through `GetElement`. A product C = A B with
// one thread per element and no guard (the sizes are multiples of the
// block), and the squared norm of each row of C with one thread per row.
// The host checks against sums in double.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define BLOCK_SIZE 16

typedef struct {
  int width;
  int height;
  int stride;
  float *elements;
} Matrix;

__device__ float GetElement(const Matrix A, int row, int col) {
  return A.elements[row * A.stride + col];
}

__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  float Cvalue = 0;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  for (int e = 0; e < A.width; ++e)
    Cvalue += A.elements[row * A.stride + e] * B.elements[e * B.stride + col];
  C.elements[row * C.stride + col] = Cvalue;
}

__global__ void RowNorms(Matrix A, float *norms) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < A.height) {
    float sum = 0;
    for (int col = 0; col < A.width; ++col) {
      float v = GetElement(A, row, col);
      sum += v * v;
    }
    norms[row] = sum;
  }
}

static Matrix onDevice(const Matrix &H, bool Copy) {
  Matrix D = H;
  D.stride = H.width;
  size_t Bytes = size_t(H.width) * H.height * sizeof(float);
  cudaMalloc(&D.elements, Bytes);
  if (Copy)
    cudaMemcpy(D.elements, H.elements, Bytes, cudaMemcpyHostToDevice);
  return D;
}

int main() {
  const int M = 1024, K = 768, N = 512;
  unsigned long long state = 977;
  if (const char *s = std::getenv("AUTOPROF_SEED"))
    state += std::strtoull(s, nullptr, 10) * 104729;
  auto uniform = [&state]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return float((state >> 40) % 20001) / 10000.0f - 1.0f;
  };
  std::vector<float> a(size_t(M) * K), b(size_t(K) * N), c(size_t(M) * N);
  for (float &v : a)
    v = uniform();
  for (float &v : b)
    v = uniform();
  Matrix hA{K, M, K, a.data()}, hB{N, K, N, b.data()}, hC{N, M, N, c.data()};
  Matrix dA = onDevice(hA, true), dB = onDevice(hB, true),
         dC = onDevice(hC, false);
  float *dNorms;
  cudaMalloc(&dNorms, M * sizeof(float));

  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid(hB.width / dimBlock.x, hA.height / dimBlock.y);
  for (int rep = 0; rep < 3; ++rep) {
    MatMulKernel<<<dimGrid, dimBlock>>>(dA, dB, dC);
    RowNorms<<<(M + 127) / 128, 128>>>(dC, dNorms);
  }
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("struct_matrix: launch failed\n");
    return 1;
  }
  std::vector<float> norms(M);
  cudaMemcpy(c.data(), dC.elements, c.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(norms.data(), dNorms, M * sizeof(float), cudaMemcpyDeviceToHost);

  double worst = 0;
  for (int i = 0; i < M; i += 37)
    for (int j = 0; j < N; j += 13) {
      double s = 0;
      for (int e = 0; e < K; ++e)
        s += double(a[size_t(i) * K + e]) * b[size_t(e) * N + j];
      worst = std::fmax(worst, std::fabs(s - c[size_t(i) * N + j]) /
                                   (1.0 + std::fabs(s)));
    }
  for (int i = 0; i < M; ++i) {
    double s = 0;
    for (int j = 0; j < N; ++j)
      s += double(c[size_t(i) * N + j]) * c[size_t(i) * N + j];
    worst = std::fmax(worst, std::fabs(s - norms[i]) / (1.0 + std::fabs(s)));
  }
  bool ok = worst < 1e-3;
  std::printf("struct_matrix: worst relative error %.3g: %s\n", worst,
              ok ? "ok" : "FAIL");
  cudaFree(dA.elements);
  cudaFree(dB.elements);
  cudaFree(dC.elements);
  cudaFree(dNorms);
  return ok ? 0 : 1;
}
