// A kernel every translation unit includes: reported once, by the first.
template <int Stride>
__global__ void gather(const float *src, float *dst, int count) {
  for (int slot = threadIdx.x; slot < count; slot += blockDim.x)
    dst[slot] = src[slot * Stride];
}
