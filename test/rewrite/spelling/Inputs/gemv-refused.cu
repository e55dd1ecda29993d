// Thread-per-row GEMVs that warp-per-row must leave alone, each for its
// own reason.

// x may be y: the loop reads the array it accumulates into.
__global__ void inPlace(const float *A, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; ++j)
      y[i] += A[i * n + j] * y[j];
}

// Blocks of 100 threads: a warp would hold parts of two blocks' rows.
__global__ void oddBlocks(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += A[i * n + j] * x[j];
  y[i] = s;
}

// Two-dimensional blocks: threadIdx.y picks the column block.
__global__ void twoDim(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0;
  for (int j = threadIdx.y; j < n; j += blockDim.y)
    s += A[i * n + j] * x[j];
  y[i] = s;
}

// The sum starts at the bias: 32 lanes would add it 32 times.
__global__ void biased(const float *A, const float *x, const float *b,
                       float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = b[i];
  for (int j = 0; j < n; ++j)
    s += A[i * n + j] * x[j];
  y[i] = s;
}

// The loop skips ahead by a value loaded from memory.
__global__ void skipping(const float *A, const float *x, const int *step,
                         float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0;
  for (int j = 0; j < n; j += step[i])
    s += A[i * n + j] * x[j];
  y[i] = s;
}

// The tid helper is also used on its own.
__global__ void tidTwice(const float *A, const float *x, float *y, int n) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (i >= n)
    return;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += A[i * n + j] * x[j];
  y[i] = s + tid;
}

void run(const float *A, float *x, const float *b, const int *step, float *y,
         int n) {
  inPlace<<<n / 256, 256>>>(A, y, n);
  oddBlocks<<<n / 100, 100>>>(A, x, y, n);
  twoDim<<<n / 32, dim3(32, 4)>>>(A, x, y, n);
  biased<<<n / 256, 256>>>(A, x, b, y, n);
  skipping<<<n / 256, 256>>>(A, x, step, y, n);
  tidTwice<<<n / 256, 256>>>(A, x, y, n);
}
