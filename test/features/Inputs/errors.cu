__global__ void good(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void bad(float *p) { p[threadIdx.x] = undeclared_name; }
