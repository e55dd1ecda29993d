/* Searches along rows, one thread per row, as C code keeps them: the
   class of each row of logits (the first of its greatest values; the
   logits are whole numbers from a small range, so ties are common), and
   over a grid-stride loop the nearest of a row of distances with its
   index. Checked exactly against the host; the seed comes from
   AUTOPROF_SEED. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 16384
#define CLASSES 1000
#define POINTS 8192
#define CENTRES 640

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));          \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

__global__ void classify(const float *logits, int *label, int rows,
                         int classes) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float top = logits[row * classes];
    int which = 0;
    for (int c = 1; c < classes; c++) {
      float v = logits[row * classes + c];
      if (top < v) {
        which = c;
        top = v;
      }
    }
    label[row] = which;
  }
}

__global__ void nearest(const double *dist, unsigned *index, double *best,
                        unsigned points, unsigned centres) {
  for (unsigned p = blockIdx.x * blockDim.x + threadIdx.x; p < points;
       p += gridDim.x * blockDim.x) {
    const double *d = dist + (size_t)p * centres;
    double lo = 1e300;
    unsigned at = centres;
    for (unsigned k = 0; k < centres; ++k)
      if (d[k] < lo) {
        lo = d[k];
        at = k;
      }
    index[p] = at;
    best[p] = lo;
  }
}

static unsigned state;
static unsigned next_random(void) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

int main(void) {
  state = 11;
  const char *s = getenv("AUTOPROF_SEED");
  if (s)
    state += (unsigned)strtoul(s, NULL, 10);
  size_t nl = (size_t)ROWS * CLASSES, nd = (size_t)POINTS * CENTRES;
  float *logits = (float *)malloc(nl * sizeof(float));
  double *dist = (double *)malloc(nd * sizeof(double));
  for (size_t i = 0; i < nl; ++i)
    logits[i] = (float)(next_random() % 97) - 48.0f;
  for (size_t i = 0; i < nd; ++i)
    dist[i] = (double)(next_random() % 5000) * 0.25;

  float *d_logits;
  double *d_dist, *d_best;
  int *d_label;
  unsigned *d_index;
  CHECK(cudaMalloc((void **)&d_logits, nl * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_dist, nd * sizeof(double)));
  CHECK(cudaMalloc((void **)&d_label, ROWS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_index, POINTS * sizeof(unsigned)));
  CHECK(cudaMalloc((void **)&d_best, POINTS * sizeof(double)));
  CHECK(cudaMemcpy(d_logits, logits, nl * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_dist, dist, nd * sizeof(double), cudaMemcpyHostToDevice));

  for (int rep = 0; rep < 3; ++rep) {
    classify<<<ROWS / 128, 128>>>(d_logits, d_label, ROWS, CLASSES);
    nearest<<<32, 64>>>(d_dist, d_index, d_best, POINTS, CENTRES);
  }
  CHECK(cudaDeviceSynchronize());

  int *label = (int *)malloc(ROWS * sizeof(int));
  unsigned *index = (unsigned *)malloc(POINTS * sizeof(unsigned));
  double *best = (double *)malloc(POINTS * sizeof(double));
  CHECK(cudaMemcpy(label, d_label, ROWS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(index, d_index, POINTS * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(best, d_best, POINTS * sizeof(double),
                   cudaMemcpyDeviceToHost));

  long wrong = 0, labels = 0, indices = 0;
  double nearest_sum = 0;
  for (int r = 0; r < ROWS; ++r) {
    int want = 0;
    for (int c = 1; c < CLASSES; ++c)
      if (logits[(size_t)r * CLASSES + c] > logits[(size_t)r * CLASSES + want])
        want = c;
    wrong += label[r] != want;
    labels += (long)label[r] * (r % 7 + 1);
  }
  for (int p = 0; p < POINTS; ++p) {
    unsigned want = 0;
    for (unsigned k = 1; k < CENTRES; ++k)
      if (dist[(size_t)p * CENTRES + k] < dist[(size_t)p * CENTRES + want])
        want = k;
    wrong += index[p] != want || best[p] != dist[(size_t)p * CENTRES + want];
    indices += (long)index[p] * (p % 5 + 1);
    nearest_sum += best[p];
  }
  printf("arg_extremes: labels %ld indices %ld nearest %.2f\n", labels,
         indices, nearest_sum);
  printf("arg_extremes: %ld wrong: %s\n", wrong, wrong ? "FAIL" : "ok");
  return wrong ? 1 : 0;
}
