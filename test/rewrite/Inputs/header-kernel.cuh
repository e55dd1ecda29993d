// A kernel of a header: other translation units may launch it with other
// block sizes.
__global__ void in_header(float *p) { p[threadIdx.x] = 0; }
