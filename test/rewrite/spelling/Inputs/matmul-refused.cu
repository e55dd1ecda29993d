// Naive matrix products that tile-matmul-smem leaves alone, each for
// its own reason, but for `unguarded` and `rowsAlongX`, which it tiles.

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

// No guard: every thread reads its row and column, so the tiles may too.
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

// Rows along x: a tile's rows of A are loaded by threadIdx.y, not by the
// thread whose own row the pointer holds; the tiles read A itself.
__global__ void rowsAlongX(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    const float *a = A + row * n;
    float s = 0;
    for (int k = 0; k < n; ++k)
      s += a[k] * B[k * n + col];
    C[row * n + col] = s;
  }
}

// The sum set to one, read, then zeroed: the read cannot move before the
// tiles.
__global__ void readsSum(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s;
  if (row < n && col < n) {
    s = 1;
    float bias = s;
    s = 0;
    for (int k = 0; k < n; ++k)
      s += A[row * n + k] * B[k * n + col];
    C[row * n + col] = s + bias;
  }
}

void runMore(const float *A, const float *B, float *C, int n) {
  rowsAlongX<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  readsSum<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
}

// Values named in the loop that are not one element each: a scaled
// element, a value of the sum itself, and a name used inside a larger
// factor.
__global__ void scaledValue(const float *A, const float *B, float *C, int n,
                            float alpha) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) {
      float a = alpha * A[row * n + k];
      float b = B[k * n + col];
      s += a * b;
    }
    C[row * n + col] = s;
  }
}

__global__ void valueOfSum(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) {
      float t = s;
      s += t * A[row * n + k] * B[k * n + col];
    }
    C[row * n + col] = s;
  }
}

__global__ void shiftedValue(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) {
      float a = A[row * n + k];
      s += (a + 1.0f) * B[k * n + col];
    }
    C[row * n + col] = s;
  }
}

__global__ void widenedValue(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float s = 0;
    for (int k = 0; k < n; ++k) {
      double a = A[row * n + k];
      s += a * B[k * n + col];
    }
    C[row * n + col] = s;
  }
}

void runValues(const float *A, const float *B, float *C, int n) {
  scaledValue<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n, 2.0f);
  valueOfSum<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  shiftedValue<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
  widenedValue<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(A, B, C, n);
}
