// Pointers in structs passed by value, the programming guide's `Matrix`
// (`A.elements[row * A.stride + e]`): each pointer field is an array of
// its own, its integer fields are parameters, and the rewrites read and
// write them as the kernel does. The product has a guard whose bounds are
// C's sizes while B's rows have their own length: the tiles load B with
// B's stride and bound its columns with the guard's.

// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.tile.cu %s -- -std=c++17
// RUN: %no-checks %t.tile.cu | FileCheck %s --check-prefix=TILE
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.warp.cu %s -- -std=c++17
// RUN: %no-checks %t.warp.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --transformations=register-accumulate -o %t.reg.cu %s -- -std=c++17
// RUN: %no-checks %t.reg.cu | FileCheck %s --check-prefix=REG
// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.vec.cu %s -- -std=c++17
// RUN: %no-checks %t.vec.cu | FileCheck %s --check-prefix=VEC
// RUN: clang-autoprof optimize --dry-run --explain --transformations=warp-per-row,register-accumulate %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.tile.cu %}

// The guide's product without a guard (its sizes are multiples of the
// block): every thread stores, so the tiles bound only k.
// RUN: clang-autoprof optimize --dry-run --transformations=tile-matmul-smem -o %t.guide.cu %S/../optimize/Inputs/spellings/struct_matrix.cu -- -std=c++17
// RUN: FileCheck %s --check-prefix=GUIDE --input-file=%t.guide.cu
// GUIDE-LABEL: __global__ void MatMulKernel(
// GUIDE:         float Cvalue = 0;
// GUIDE-NEXT:    for (int K0 = 0; K0 < A.width; K0 += 16) {
// GUIDE-NEXT:      int ARow = blockIdx.y * 16 + threadIdx.y;
// GUIDE:           As[threadIdx.y][threadIdx.x] =
// GUIDE-NEXT:        AK < A.width ? A.elements[ARow * A.stride + AK] : 0.0f;
// GUIDE-NEXT:      Bs[threadIdx.y][threadIdx.x] =
// GUIDE-NEXT:        BK < A.width ? B.elements[BK * B.stride + BCol] : 0.0f;
// GUIDE:           for (int e = 0; e < 16 && K0 + e < A.width; ++e)
// GUIDE-NEXT:        Cvalue += As[threadIdx.y][e] * Bs[e][threadIdx.x];
// GUIDE-NEXT:      __syncthreads();
// GUIDE-NEXT:    }
// GUIDE-NEXT:    C.elements[row * C.stride + col] = Cvalue;
// GUIDE-NEXT:  }
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.guide.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.warp.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.reg.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.vec.cu %}

#include <cuda_runtime.h>

struct Matrix {
  int width;
  int height;
  int stride;
  float *elements;
};

struct Rows {
  const float *data;
  int count, length;
};

struct Vectors {
  float *x;
  const float *y;
  int n;
};

// The programming guide's product, guarded.
__global__ void MatMulKernel(Matrix A, Matrix B, Matrix C) {
  float Cvalue = 0;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < C.height && col < C.width) {
    for (int e = 0; e < A.width; ++e)
      Cvalue += A.elements[row * A.stride + e] * B.elements[e * B.stride + col];
    C.elements[row * C.stride + col] = Cvalue;
  }
}

// TILE-LABEL: __global__ void MatMulKernel(
// TILE:         for (int K0 = 0; K0 < A.width; K0 += 16) {
// TILE:           As[threadIdx.y][threadIdx.x] =
// TILE-NEXT:        ARow < C.height && AK < A.width ? A.elements[ARow * A.stride + AK] : 0.0f;
// TILE-NEXT:      Bs[threadIdx.y][threadIdx.x] =
// TILE-NEXT:        BK < A.width && BCol < C.width ? B.elements[BK * B.stride + BCol] : 0.0f;
// TILE:         if (row < C.height && col < C.width)
// TILE-NEXT:      C.elements[row * C.stride + col] = Cvalue;

__global__ void rowSums(Rows r, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < r.count) {
    float s = 0;
    for (int j = 0; j < r.length; j++)
      s += r.data[i * r.length + j];
    out[i] = s;
  }
}

// WARP-LABEL: __global__ void rowSums(
// WARP:         for (int j = Lane; j < r.length; j += 32)
// WARP-NEXT:      s += r.data[i * r.length + j];
// WARP:         if (Lane == 0)
// WARP-NEXT:      out[i] = s;

__global__ void accumulate(Matrix A, Matrix C, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < C.width)
    for (int t = 0; t < k; ++t)
      C.elements[i] += A.elements[t * A.stride + i];
}

// A sum accumulated into C's element while A's elements are read: two
// fields of two structs, which may overlap, so the register loop runs when
// the span of A's reads misses the element.
// WHY-LABEL: kernel accumulate at {{.*}}
// WHY:         register-accumulate: keep a global element
// REG-LABEL: __global__ void accumulate(
// REG:         auto *const accAt = &C.elements[i];
// REG:         bool accOverlap = spanReaches_accumulate(A.elements[((int)(0)) * A.stride + i], A.elements[(((int)(k) - 1)) * A.stride + i], accAt, sizeof(*accAt));
// REG:             acc += A.elements[t * A.stride + i];

__global__ void axpy(Vectors v, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < v.n)
    v.x[i] = a * v.x[i] + v.y[i];
}

// VEC-LABEL: __global__ void axpy(
// VEC:         ((reinterpret_cast<unsigned long long>(v.y) |
// VEC-NEXT:         reinterpret_cast<unsigned long long>(v.x)) % 16) == 0) {
// VEC-NEXT:    const float4 y4 = reinterpret_cast<const float4 *>(v.y)[i4];
// VEC-NEXT:    float4 x4 = reinterpret_cast<const float4 *>(v.x)[i4];
// VEC:         reinterpret_cast<float4 *>(v.x)[i4] = x4;
// VEC:         axpy<<<(((v).n + 3) / 4 + 256 - 1) / 256, 256>>>(v, 2.0f);

int main() {
  Matrix A{512, 512, 512, nullptr}, B = A, C = A;
  cudaMalloc(&A.elements, 512 * 512 * sizeof(float));
  cudaMalloc(&B.elements, 512 * 512 * sizeof(float));
  cudaMalloc(&C.elements, 512 * 512 * sizeof(float));
  dim3 block(16, 16), grid(32, 32);
  MatMulKernel<<<grid, block>>>(A, B, C);
  Rows r{A.elements, 512, 512};
  rowSums<<<4, 128>>>(r, C.elements);
  accumulate<<<2, 256>>>(A, C, 64);
  Vectors v{C.elements, B.elements, 512 * 512};
  axpy<<<(v.n + 255) / 256, 256>>>(v, 2.0f);
  cudaDeviceSynchronize();
  return 0;
}
