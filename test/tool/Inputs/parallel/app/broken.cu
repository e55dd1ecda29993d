#include "../common.cuh"
__global__ void broken(float *p) { p[threadIdx.x] = not_declared; }
__global__ void fine(double *p) { p[threadIdx.x] = 1.0; }
