// Block reductions that warp-shuffle-reduce must leave alone, each for a
// reason of what it computes.

// Blocks of 192 threads: not a power of two, so halving never pairs every
// element.
__global__ void oddBlock(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// After the tree, every thread reads its neighbour's partial result, which
// the shuffles no longer leave in shared memory.
__global__ void readsNeighbour(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  Out[blockIdx.x * blockDim.x + T] = Buf[T ^ 1];
}

// No barrier between the stores and the tree.
__global__ void noBarrier(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// The stride also changes inside the body.
__global__ void stridePatched(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    if (S == 64)
      S = 32;
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// Starts at a quarter of the block: half the values are never read.
__global__ void quarterStart(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 4; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// The tree subtracts: not an associative combination.
__global__ void differences(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] -= Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

// Square blocks: threadIdx.x is not the thread's place in the block.
__global__ void squareBlock(const float *In, float *Out) {
  __shared__ float Buf[256];
  unsigned T = threadIdx.x;
  Buf[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned S = blockDim.x / 2; S > 0; S >>= 1) {
    if (T < S)
      Buf[T] += Buf[T + S];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Buf[0];
}

void run(const float *In, float *Out, int Blocks) {
  oddBlock<<<Blocks, 192>>>(In, Out);
  readsNeighbour<<<Blocks, 256>>>(In, Out);
  noBarrier<<<Blocks, 256>>>(In, Out);
  stridePatched<<<Blocks, 256>>>(In, Out);
  quarterStart<<<Blocks, 256>>>(In, Out);
  differences<<<Blocks, 256>>>(In, Out);
  squareBlock<<<Blocks, dim3(16, 16)>>>(In, Out);
}
