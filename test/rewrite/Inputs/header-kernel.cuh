// A kernel of a header the source includes and launches.
__global__ void in_header(float *p) { p[threadIdx.x] = 0; }
