__global__ void broken(float *out) {
  out[threadIdx.x] = undeclared;
}
