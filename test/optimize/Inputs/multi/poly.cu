// The kernel of a program built from two files: it is launched from
// main.cu, which declares it.
__global__ void poly(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i], acc = 0.0f;
  for (int k = 0; k < 8; ++k)
    acc = acc * v + 0.5f;
  x[i] = acc;
}
