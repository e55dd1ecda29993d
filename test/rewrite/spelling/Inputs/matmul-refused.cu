// Naive matrix products that tile-matmul-smem must leave alone, each for
// its own reason.

// Blocks of 32 x 8 threads: the tiles are square.
__global__ void wideBlocks(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s;
  }
}

// A bias read before the loop: every thread would read it, also outside C.
__global__ void biasFirst(const float *A, const float *B, const float *bias,
                          float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n)
    return;
  float b = bias[col];
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s + b;
}

// The sum skips the first term.
__global__ void fromOne(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n)
    return;
  float s = 0;
  for (int k = 1; k < n; ++k)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}

// No guard: the grid is taken to fit, which the tiles cannot check.
__global__ void unguarded(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += A[row * n + k] * B[k * n + col];
  C[row * n + col] = s;
}

void run(const float *A, const float *B, const float *bias, float *C, int n) {
  wideBlocks<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(A, B, C, n);
  biasFirst<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, bias, C, n);
  fromOne<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  unguarded<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
}
