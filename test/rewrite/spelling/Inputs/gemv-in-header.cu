#include "gemv_kernel.cuh"

void run(const float *A, const float *x, float *y, int n) {
  gemvInHeader<<<n / 256, 256>>>(A, x, y, n);
}
