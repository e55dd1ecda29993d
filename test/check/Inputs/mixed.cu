// Three warnings: missing-restrict and double-precision (with fixes) and
// nonconst-divmod (without).
__global__ void mixed(float *in, float *__restrict__ out, int w, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i] * 0.5 + i % w;
}
