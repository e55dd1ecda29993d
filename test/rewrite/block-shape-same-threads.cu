// block-shape on launches whose grid is not known to cover the kernel's
// bounds (a grid rounded down, a grid from a function): the new launch is
// made only when the launch's threads along x and y divide by the new
// block's, with exactly the same index pairs; otherwise the original launch
// runs. The choice is made at run time in a lambda that evaluates the grid
// once, so a grid with side effects is still computed once. A block that
// is not a constant is still refused.
//
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape --explain %s -- -std=c++17 | FileCheck %s --check-prefix=LIST --match-full-lines
// RUN: clang-autoprof optimize --dry-run --transformations=block-shape -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --check-prefix=NEW --match-full-lines
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

__global__ void scaleRoundedDown(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = 2.0f * in[y * w + x];
}

unsigned blocksCalled = 0;
unsigned nextBlocks(unsigned n) {
  ++blocksCalled;
  return (n + 15) / 16;
}

__global__ void scaleCounted(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = 3.0f * in[y * w + x];
}

__global__ void scaleAnyBlock(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = 4.0f * in[y * w + x];
}

// The same threads but not the same grid: a kernel that reads gridDim
// alone is refused.
__global__ void stampGrid(float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = (float)gridDim.y;
}

void run(const float *in, float *out, int w, int h, int bx) {
  scaleRoundedDown<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(in, out, w, h);
  scaleCounted<<<dim3(nextBlocks(w), nextBlocks(h)), dim3(16, 16)>>>(in, out, w, h);
  scaleAnyBlock<<<dim3((w + bx - 1) / bx, h), dim3(bx, 1)>>>(in, out, w, h);
  stampGrid<<<dim3(w / 16, h / 16), dim3(16, 16)>>>(out, w, h);
}

// LIST:      kernel scaleRoundedDown at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST:      kernel scaleCounted at {{.*}}
// LIST-NEXT:   block-shape(32x8): {{.*}}
// LIST:      kernel scaleAnyBlock at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   block-shape: not applied: the launch at line 54 has a block whose size is not a compile-time constant
// LIST-NEXT: kernel stampGrid at {{.*}}
// LIST-NEXT:   no proposal
// LIST-NEXT:   block-shape: not applied: `gridDim.y` at line 48 is read other than in the global indices x and y

// NEW:      [&]() {
// NEW-NEXT:     const dim3 autoprof_grid_(dim3(w / 16, h / 16));
// NEW-NEXT:     const unsigned long long autoprof_x_ = (unsigned long long)autoprof_grid_.x * 16, autoprof_y_ = (unsigned long long)autoprof_grid_.y * 16;
// NEW-NEXT:     if (autoprof_x_ % 32 == 0 && autoprof_y_ % 8 == 0 && autoprof_y_ / 8 <= 65535)
// NEW-NEXT:       scaleRoundedDown<<<dim3((unsigned)(autoprof_x_ / 32), (unsigned)(autoprof_y_ / 8), autoprof_grid_.z), dim3(32, 8)>>>(in, out, w, h);
// NEW-NEXT:     else
// NEW-NEXT:       scaleRoundedDown<<<autoprof_grid_, dim3(16, 16)>>>(in, out, w, h);
// NEW-NEXT:   }();
// NEW:          const dim3 autoprof_grid_(dim3(nextBlocks(w), nextBlocks(h)));
// NEW-NOT:  nextBlocks(w)
// NEW:          scaleCounted<<<autoprof_grid_, dim3(16, 16)>>>(in, out, w, h);
// NEW:      scaleAnyBlock<<<dim3((w + bx - 1) / bx, h), dim3(bx, 1)>>>(in, out, w, h);
