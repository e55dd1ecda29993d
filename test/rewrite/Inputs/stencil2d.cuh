// A 2-D stencil defined in a header, with its sizes as macros and an
// enclosing guard.
#define NX 1000
#define NY 700

__global__ void heat_step(const float *u, float *v, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && j > 0 && i < NX - 1 && j < NY - 1) {
    v[j * NX + i] = u[j * NX + i] +
                    k * (u[j * NX + i - 1] + u[j * NX + i + 1] +
                         u[(j - 1) * NX + i] + u[(j + 1) * NX + i] -
                         4.0f * u[j * NX + i]);
  }
}
