// A kernel in a header: the L1 norm of a vector of doubles, its length a
// macro, the addition under an enclosing guard.
#pragma once
#define N_ELEMS (1 << 20)
__global__ void l1_norm(const double *v, double *acc) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N_ELEMS) {
    atomicAdd(acc, fabs(v[i]));
  }
}
