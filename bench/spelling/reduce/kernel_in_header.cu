// The kernel comes from a header; the source only launches it.
#include "block_reduce.cuh"
#include "reduce_common.cuh"

const char *const KernelName = "headerReduce";
const int Chunk = RED_THREADS;
const bool TakesMax = false;

void launch(const float *In, float *Out, int N) {
  dim3 block(RED_THREADS);
  dim3 grid((N + block.x - 1) / block.x);
  headerReduce<<<grid, block>>>(In, Out, N);
}
