/* Searches along rows, one thread per row, as C code keeps them: the
   class of each row of logits (the first of its greatest values among
   the classes allowed, skipping the others with a `continue`; the logits
   are whole numbers from a small range, so ties are common), and
   over a grid-stride loop the nearest of a row of distances with its
   index, and the least of each of a few long integer columns, chosen by
   an `if`. Checked exactly against the host; the seed comes from
   AUTOPROF_SEED. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 16384
#define CLASSES 1000
#define POINTS 8192
#define CENTRES 640
#define DEPTH 65536
#define LANES 96

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_));          \
      exit(2);                                                               \
    }                                                                        \
  } while (0)

__global__ void classify(const float *logits, const unsigned char *allowed,
                         int *label, int rows, int classes) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float top = -1e30f;
    int which = -1;
    for (int c = 0; c < classes; c++) {
      if (!allowed[c])
        continue;
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

__global__ void column_floor(const int *v, int *floor_of, int depth,
                             int lanes) {
  int c = threadIdx.x + blockIdx.x * blockDim.x;
  if (c >= lanes)
    return;
  int lo = v[c];
  for (int i = 1; i < depth; ++i)
    if (v[i * lanes + c] < lo)
      lo = v[i * lanes + c];
  floor_of[c] = lo;
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
  size_t nl = (size_t)ROWS * CLASSES, nd = (size_t)POINTS * CENTRES,
         nv = (size_t)DEPTH * LANES;
  int *values = (int *)malloc(nv * sizeof(int));
  unsigned char allowed[CLASSES];
  for (int c = 0; c < CLASSES; ++c)
    allowed[c] = next_random() % 10 != 0;
  float *logits = (float *)malloc(nl * sizeof(float));
  double *dist = (double *)malloc(nd * sizeof(double));
  for (size_t i = 0; i < nl; ++i)
    logits[i] = (float)(next_random() % 97) - 48.0f;
  for (size_t i = 0; i < nd; ++i)
    dist[i] = (double)(next_random() % 5000) * 0.25;
  for (size_t i = 0; i < nv; ++i)
    values[i] = (int)(next_random() % 2000000) - 1000000;

  float *d_logits;
  double *d_dist, *d_best;
  int *d_label;
  unsigned *d_index;
  int *d_values, *d_floor;
  unsigned char *d_allowed;
  CHECK(cudaMalloc((void **)&d_allowed, CLASSES));
  CHECK(cudaMemcpy(d_allowed, allowed, CLASSES, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&d_values, nv * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_floor, LANES * sizeof(int)));
  CHECK(cudaMemcpy(d_values, values, nv * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc((void **)&d_logits, nl * sizeof(float)));
  CHECK(cudaMalloc((void **)&d_dist, nd * sizeof(double)));
  CHECK(cudaMalloc((void **)&d_label, ROWS * sizeof(int)));
  CHECK(cudaMalloc((void **)&d_index, POINTS * sizeof(unsigned)));
  CHECK(cudaMalloc((void **)&d_best, POINTS * sizeof(double)));
  CHECK(cudaMemcpy(d_logits, logits, nl * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_dist, dist, nd * sizeof(double), cudaMemcpyHostToDevice));

  for (int rep = 0; rep < 3; ++rep) {
    classify<<<ROWS / 128, 128>>>(d_logits, d_allowed, d_label, ROWS, CLASSES);
    nearest<<<32, 64>>>(d_dist, d_index, d_best, POINTS, CENTRES);
    column_floor<<<1, 128>>>(d_values, d_floor, DEPTH, LANES);
  }
  CHECK(cudaDeviceSynchronize());

  int *label = (int *)malloc(ROWS * sizeof(int));
  unsigned *index = (unsigned *)malloc(POINTS * sizeof(unsigned));
  double *best = (double *)malloc(POINTS * sizeof(double));
  int floor_of[LANES];
  CHECK(cudaMemcpy(floor_of, d_floor, LANES * sizeof(int),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(label, d_label, ROWS * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(index, d_index, POINTS * sizeof(unsigned),
                   cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(best, d_best, POINTS * sizeof(double),
                   cudaMemcpyDeviceToHost));

  long wrong = 0, labels = 0, indices = 0;
  double nearest_sum = 0;
  for (int r = 0; r < ROWS; ++r) {
    int want = -1;
    for (int c = 0; c < CLASSES; ++c)
      if (allowed[c] &&
          (want < 0 ||
           logits[(size_t)r * CLASSES + c] > logits[(size_t)r * CLASSES + want]))
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
  long floors = 0;
  for (int c = 0; c < LANES; ++c) {
    int want = values[c];
    for (int i = 1; i < DEPTH; ++i)
      if (values[(size_t)i * LANES + c] < want)
        want = values[(size_t)i * LANES + c];
    wrong += floor_of[c] != want;
    floors += (long)floor_of[c] * (c % 3 + 1);
  }
  printf("arg_extremes: labels %ld indices %ld nearest %.2f floors %ld\n",
         labels, indices, nearest_sum, floors);
  printf("arg_extremes: %ld wrong: %s\n", wrong, wrong ? "FAIL" : "ok");
  return wrong ? 1 : 0;
}
