__global__ void present(float *p) { p[0] = 0; }
