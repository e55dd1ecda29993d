// Atomic counters the model shows cannot be given to a per-block copy.

__global__ void readsBins(const unsigned char *d, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&bins[d[i]], 1u);
    if (bins[0] > 100)
      atomicAdd(&bins[255], 1u);
  }
}

__global__ void usesOld(const unsigned char *d, unsigned *bins, unsigned *old,
                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicAdd(&bins[d[i]], 1u);
}

__global__ void twoArrays(const unsigned char *d, unsigned *a, unsigned *b,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&a[d[i]], 1u);
    atomicAdd(&b[d[i]], 1u);
  }
}

__global__ void perLane(const unsigned char *d, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i]], threadIdx.x % 2);
}

__global__ void shares(const unsigned char *d, unsigned *bins, int n) {
  __shared__ unsigned seen;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[d[i]], 1u);
  seen = 1;
}

__global__ void earlyIndexUse(const unsigned char *d, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i / 2;
  if (i < n)
    atomicAdd(&bins[d[j]], 1u);
}

void run(const unsigned char *d, unsigned *bins, unsigned *old, int n) {
  readsBins<<<(n + 255) / 256, 256>>>(d, bins, n);
  usesOld<<<(n + 255) / 256, 256>>>(d, bins, old, n);
  twoArrays<<<(n + 255) / 256, 256>>>(d, bins, old, n);
  perLane<<<(n + 255) / 256, 256>>>(d, bins, n);
  shares<<<(n + 255) / 256, 256>>>(d, bins, n);
  earlyIndexUse<<<(n + 255) / 256, 256>>>(d, bins, n);
}
