// Column sums that walk a pointer down each column, norms of a batch of
// vectors whose loop decrements in its condition and whose launch sits in
// a host template, and row reductions launched by a launch helper
// instantiated for two block sizes: C-style ports that a kernel engineer
// keeps unchanged. Checked against a double reference on the host; the
// seed comes from AUTOPROF_SEED.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t err_ = (x);                                                    \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "cuda: %s\n", cudaGetErrorString(err_));                 \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

#define ROWS 16384
#define COLS 1024
#define BATCH 65536
#define NR 4096
#define NC 2048

__global__ void col_sums_walk(const float *__restrict__ A,
                              float *__restrict__ out, unsigned rows,
                              unsigned cols) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    const float *p = A + col;
    float acc = 0.0f;
    for (unsigned r = rows; r > 0; --r) {
      acc += *p;
      p += cols;
    }
    out[col] = acc;
  }
}

template <int DIM>
__global__ void batch_norms(const float *__restrict__ v,
                            float *__restrict__ norms, unsigned batch) {
  unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= batch)
    return;
  const float *x = v + (size_t)b * DIM;
  float ss = 0.0f;
  for (unsigned k = DIM; k-- > 0;)
    ss += x[k] * x[k];
  norms[b] = sqrtf(ss);
}

template <int DIM> static void run_norms(const float *v, float *n, unsigned b) {
  const unsigned threads = 256;
  batch_norms<DIM><<<(b + threads - 1) / threads, threads>>>(v, n, b);
}

__global__ void row_sq_sums(const float *m, float *out, int nr, int nc) {
  int r = threadIdx.x + blockIdx.x * blockDim.x;
  if (r < nr) {
    float s = 0.0f;
    for (int c = 0; c < nc; c++)
      s += m[(size_t)r * nc + c] * m[(size_t)r * nc + c];
    out[r] = s;
  }
}

template <unsigned T> static void launch_rows(const float *m, float *o, int nr,
                                              int nc) {
  row_sq_sums<<<(nr + T - 1) / T, T>>>(m, o, nr, nc);
}

static unsigned long long state = 88172645463325252ull;
static float next_value(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (float)(state % 2001) / 1000.0f - 1.0f;
}

static float *device_copy(const float *h, size_t n) {
  float *d;
  CHECK(cudaMalloc((void **)&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

static double worst = 0.0;
static void check(double want, float got) {
  double e = fabs(want - got) / (1.0 + fabs(want));
  if (e > worst)
    worst = e;
}

int main(void) {
  const char *seed = getenv("AUTOPROF_SEED");
  if (seed)
    state += strtoull(seed, NULL, 10) * 2654435761ull;
  size_t na = (size_t)ROWS * COLS, nv = (size_t)BATCH * 64,
         nm = (size_t)NR * NC;
  float *ha = (float *)malloc(na * sizeof(float));
  float *hv = (float *)malloc(nv * sizeof(float));
  float *hm = (float *)malloc(nm * sizeof(float));
  for (size_t i = 0; i < na; ++i)
    ha[i] = next_value();
  for (size_t i = 0; i < nv; ++i)
    hv[i] = next_value();
  for (size_t i = 0; i < nm; ++i)
    hm[i] = next_value();
  float *da = device_copy(ha, na), *dv = device_copy(hv, nv),
        *dm = device_copy(hm, nm);
  float *dcs, *dn, *dr1, *dr2;
  CHECK(cudaMalloc((void **)&dcs, COLS * sizeof(float)));
  CHECK(cudaMalloc((void **)&dn, BATCH * sizeof(float)));
  CHECK(cudaMalloc((void **)&dr1, NR * sizeof(float)));
  CHECK(cudaMalloc((void **)&dr2, NR / 2 * sizeof(float)));

  for (int rep = 0; rep < 3; ++rep) {
    col_sums_walk<<<(COLS + 127) / 128, 128>>>(da, dcs, ROWS, COLS);
    run_norms<64>(dv, dn, BATCH);
    launch_rows<128>(dm, dr1, NR, NC);
    launch_rows<256>(dm, dr2, NR / 2, NC * 2);
  }
  CHECK(cudaDeviceSynchronize());
  float *cs = (float *)malloc(COLS * sizeof(float));
  float *n = (float *)malloc(BATCH * sizeof(float));
  float *r1 = (float *)malloc(NR * sizeof(float));
  float *r2 = (float *)malloc(NR / 2 * sizeof(float));
  CHECK(cudaMemcpy(cs, dcs, COLS * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(n, dn, BATCH * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r1, dr1, NR * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(r2, dr2, NR / 2 * sizeof(float), cudaMemcpyDeviceToHost));

  for (int c = 0; c < COLS; ++c) {
    double w = 0;
    for (int r = 0; r < ROWS; ++r)
      w += ha[(size_t)r * COLS + c];
    check(w, cs[c]);
  }
  for (int b = 0; b < BATCH; b += 7) {
    double w = 0;
    for (int k = 0; k < 64; ++k)
      w += (double)hv[(size_t)b * 64 + k] * hv[(size_t)b * 64 + k];
    check(sqrt(w), n[b]);
  }
  for (int r = 0; r < NR; ++r) {
    double w = 0;
    for (int c = 0; c < NC; ++c)
      w += (double)hm[(size_t)r * NC + c] * hm[(size_t)r * NC + c];
    check(w, r1[r]);
  }
  for (int r = 0; r < NR / 2; ++r) {
    double w = 0;
    for (int c = 0; c < NC * 2; ++c)
      w += (double)hm[(size_t)r * NC * 2 + c] * hm[(size_t)r * NC * 2 + c];
    check(w, r2[r]);
  }
  int ok = worst < 1e-3;
  printf("walked_launched: worst relative error %.3g: %s\n", worst,
         ok ? "ok" : "FAIL");
  return ok ? 0 : 1;
}
