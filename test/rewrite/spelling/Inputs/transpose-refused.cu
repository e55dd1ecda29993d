// Transposes the model shows cannot be staged through a tile as written.

// The block's offset added to the value: the output's threads would add
// another block's.
__global__ void helperStore(const float *in, float *out, int rows, int cols) {
  int bx = blockIdx.x * blockDim.x;
  int x = bx + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x] + bx;
}

__global__ void notTransposed(const float *in, float *out, int rows,
                              int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[y * cols + x] = in[y * cols + x];
}

__global__ void inPlace(float *m, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    m[x * n + y] = m[y * n + x];
}

__global__ void doubles(const double *in, double *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}

// Blocks 48 wide: a tile row of 48 is no power of two.
__global__ void wideBlocks(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows)
    out[x * rows + y] = in[y * cols + x];
}

// The row written inline but split across the sum (`X * rows + by * bdy +
// ty` adds its parts one by one): no subexpression is the row, so it
// cannot be named again for the output's threads.
__global__ void inlineIndex(const float *in, float *out, int rows, int cols) {
  if (blockIdx.x * blockDim.x + threadIdx.x < cols &&
      blockIdx.y * blockDim.y + threadIdx.y < rows)
    out[(blockIdx.x * blockDim.x + threadIdx.x) * rows + blockIdx.y *
        blockDim.y + threadIdx.y] =
        in[(blockIdx.y * blockDim.y + threadIdx.y) * cols + blockIdx.x *
           blockDim.x + threadIdx.x];
}

__global__ void offsetBuilt(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) {
    int at = x * rows;
    at += y;
    out[at] = in[y * cols + x];
  }
}

void run(const float *in, float *out, const double *din, double *dout,
         int rows, int cols) {
  dim3 b(32, 8), g(cols / 32, rows / 8);
  helperStore<<<g, b>>>(in, out, rows, cols);
  notTransposed<<<g, b>>>(in, out, rows, cols);
  inPlace<<<g, b>>>(out, rows);
  doubles<<<g, b>>>(din, dout, rows, cols);
  wideBlocks<<<g, dim3(48, 4)>>>(in, out, rows, cols);
  inlineIndex<<<g, b>>>(in, out, rows, cols);
  offsetBuilt<<<g, b>>>(in, out, rows, cols);
}
