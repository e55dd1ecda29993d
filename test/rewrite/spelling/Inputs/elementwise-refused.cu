// Element-wise kernels the model shows are not one thread per index, or
// whose vectors or blocks would change what they compute.

__global__ void ramp(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; float h = 0.5f * out[i];
  if (i < n)
    out[i] = h;
}

__global__ void neighbours(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n + 1 && i < n - 1)
    out[i] = in[i + 1] - in[i];
}

__global__ void forward(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n - 1)
    return;
  out[i] = in[i + 1] - in[i];
}

__global__ void strided(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += 2 * blockDim.x * gridDim.x)
    out[i] = 2.0f * in[i] + i;
}

__global__ void rows(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + threadIdx.y;
}

__global__ void loadedBound(const float *in, float *out, const int *n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < *n)
    out[i] = in[i];
}

__global__ void copyThenRead(const float *in, float *out, float *other,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i];
    other[i] = in[i] * 2.0f;
  }
}

__global__ void storeThenLoad(const float *in, float *out, const float *more,
                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i];
    out[i] += more[i];
  }
}

__global__ void __launch_bounds__(256) bounded(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

__global__ void shortGrid(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 1.0f;
}

void run(const float *in, float *out, float *other, const int *dn, int n) {
  ramp<<<(n + 255) / 256, 256>>>(out, n);
  neighbours<<<(n + 255) / 256, 256>>>(in, out, n);
  forward<<<(n + 255) / 256, 256>>>(in, out, n);
  strided<<<1024, 256>>>(in, out, n);
  rows<<<(n + 255) / 256, dim3(256, 2)>>>(in, out, n);
  loadedBound<<<(n + 255) / 256, 256>>>(in, out, dn);
  copyThenRead<<<(n + 255) / 256, 256>>>(in, out, other, n);
  storeThenLoad<<<(n + 255) / 256, 256>>>(in, out, other, n);
  bounded<<<(n + 255) / 256, 256>>>(out, n);
  shortGrid<<<n / 256, 256>>>(out, n);
}

// A local declared before the guard and changed by the work: the lanes of
// a group of four would see each other's sums.
__global__ void carried(const float *in, float *out, int n) {
  float acc = 0.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    acc += in[i];
    out[i] = acc;
  }
}

void runCarried(const float *in, float *out, int n) {
  carried<<<(n + 255) / 256, 256>>>(in, out, n);
}
