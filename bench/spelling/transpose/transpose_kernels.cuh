// A naive transpose kept in a header, written as SDK samples write it:
// unsigned indices, input and output offsets in locals, an enclosing guard.
#ifndef TRANSPOSE_KERNELS_CUH
#define TRANSPOSE_KERNELS_CUH

__global__ void transpose_naive(float *odata, const float *idata, int width,
                                int height) {
  unsigned int xIndex = blockDim.x * blockIdx.x + threadIdx.x;
  unsigned int yIndex = blockDim.y * blockIdx.y + threadIdx.y;
  if (xIndex < width && yIndex < height) {
    unsigned int index_in = xIndex + width * yIndex;
    unsigned int index_out = yIndex + height * xIndex;
    odata[index_out] = idata[index_in];
  }
}

#endif
