// Sizes in a struct built with braces at the launch site (`Dims d{rows,
// cols}`) and read in the kernel directly or through helpers that take the
// struct by const reference: the grid covers the field when it covers the
// value the field was given. A struct changed after its braces, or a grid
// over the other field's value, is not read as covering: those launches
// only keep their threads in the new blocks.
//
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --kernel=addOne -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=NEW
// RUN: %if nvcc %{ %nvcc -arch=sm_90 -c -o /dev/null %t.cu %}

struct Dims {
  int rows;
  int cols;
};

__host__ __device__ inline int flat(const Dims &d, int r, int c) {
  return r * d.cols + c;
}

__global__ void addOne(const float *in, float *out, Dims d) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < d.rows && c < d.cols)
    out[flat(d, r, c)] = in[flat(d, r, c)] + 1.0f;
}

__global__ void addTwo(const float *in, float *out, Dims d) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < d.rows && c < d.cols)
    out[flat(d, r, c)] = in[flat(d, r, c)] + 2.0f;
}

__global__ void addThree(const float *in, float *out, Dims d) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < d.rows && c < d.cols)
    out[flat(d, r, c)] = in[flat(d, r, c)] + 3.0f;
}

void run(const float *in, float *out, int height, int width) {
  Dims d{height, width};
  dim3 block(16, 16);
  dim3 grid((width + 15) / 16, (height + 15) / 16);
  addOne<<<grid, block>>>(in, out, d);
}

void runChanged(const float *in, float *out, int height, int width) {
  Dims d{height, width};
  d.cols = width * 2;
  addTwo<<<dim3((width + 15) / 16, (height + 15) / 16), dim3(16, 16)>>>(in, out, d);
}

void runSwapped(const float *in, float *out, int height, int width) {
  const Dims d{width, height};
  addThree<<<dim3((width + 15) / 16, (height + 15) / 16), dim3(16, 16)>>>(in, out, d);
}

// LIST:      kernel addOne at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST:      kernel addTwo at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST:      kernel addThree at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape -o %t.all.cu %s -- -std=c++17
// RUN: %no-checks %t.all.cu | FileCheck %s --check-prefix=ALL
// ALL:     addOne<<<dim3(((d).cols + 32 - 1) / 32, ((d).rows + 8 - 1) / 8), dim3(32, 8)>>>(in, out, d);
// ALL:     const dim3 autoprof_grid_(dim3((width + 15) / 16, (height + 15) / 16));
// ALL:     addTwo<<<autoprof_grid_, dim3(16, 16)>>>(in, out, d);
// ALL:     const dim3 autoprof_grid_(dim3((width + 15) / 16, (height + 15) / 16));
// ALL:     addThree<<<autoprof_grid_, dim3(16, 16)>>>(in, out, d);

// NEW: addOne<<<dim3(((d).cols + 32 - 1) / 32, ((d).rows + 8 - 1) / 8), dim3(32, 8)>>>(in, out, d);
