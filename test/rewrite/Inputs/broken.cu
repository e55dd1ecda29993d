__global__ void broken(float *p) { p[threadIdx.x] = undeclared; }
