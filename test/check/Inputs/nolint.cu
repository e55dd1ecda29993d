// Findings silenced by NOLINT comments, and one that is not.
__global__ void same_line(const float *in, float *out, int n) { // NOLINT(autoprof-missing-restrict)
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

// NOLINTNEXTLINE(autoprof-*)
__global__ void next_line(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}

// NOLINTBEGIN(autoprof-missing-restrict)
__global__ void in_region(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}
// NOLINTEND(autoprof-missing-restrict)

// NOLINTNEXTLINE(autoprof-nonconst-divmod)
__global__ void other_check(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 2.0f;
}
