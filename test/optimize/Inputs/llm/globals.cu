// A kernel that reads a __device__ scale; a helper in the same file writes
// another global.
__device__ float gScale = 2.0f;
__device__ unsigned gTouched;
__device__ void touch() { gTouched = 1; }

__global__ void scaleBy(const float *in, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = gScale * in[t];
}

void run(const float *in, float *out, int n) {
  scaleBy<<<(n + 255) / 256, 256>>>(in, out, n);
}
