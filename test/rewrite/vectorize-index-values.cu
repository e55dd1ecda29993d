// vectorize-float4 where the index is read as a value or reaches the
// elements through locals. Each lane of a group declares the index with its
// own element when the work reads it other than in a vectorised element
// (`out[i] = in[i] + 0.5f * i`). A local of the work that holds a flat
// index (`const int at = row * w + c;`) is not declared by the lanes, which
// replace every element it reaches; the group's address substitutes its
// value. A local computed from the index before the guard moves into the
// tail, which declares it for each of its elements, and into each lane that
// reads it. The rewritten file compiles with every warning an error: no
// lane declares what it does not read.

// RUN: clang-autoprof optimize --dry-run --transformations=vectorize-float4 -o %t.cu %s -- -std=c++17
// RUN: %no-checks %t.cu | FileCheck %s --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=vectorize-float4 %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -Werror all-warnings -c -o /dev/null %t.cu %}

typedef long long i64;
#define THREADS 128

// A ramp added to the input: the index is a value.
__global__ void
addRamp(float *__restrict__ dst, const float *__restrict__ src, int count)
{
    const int gid = threadIdx.x + blockDim.x * blockIdx.x;
    if (gid >= count)
        return;
    dst[gid] = src[gid] + 0.5f * (float)gid;
}
// CHECK:      addRamp(float *__restrict__ dst, const float *__restrict__ src, int count)
// CHECK-NEXT: {
// CHECK-NEXT:     const int gid4 = threadIdx.x + blockDim.x * blockIdx.x;
// CHECK:            const float4 src4 = reinterpret_cast<const float4 *>(src)[gid4];
// CHECK-NEXT:       float4 dst4;
// CHECK-NEXT:       {
// CHECK-NEXT:         int gid = 4 * gid4;
// CHECK-NEXT:         dst4.x = src4.x + 0.5f * (float)gid;
// CHECK-NEXT:       }
// CHECK-NEXT:       {
// CHECK-NEXT:         int gid = 4 * gid4 + 1;
// CHECK-NEXT:         dst4.y = src4.y + 0.5f * (float)gid;
// CHECK-NEXT:       }
// CHECK:              int gid = 4 * gid4 + 3;
// CHECK-NEXT:         dst4.w = src4.w + 0.5f * (float)gid;
// CHECK:          } else if (gid4 < (count + 3) / 4) {
// CHECK-NEXT:       for (int gid = 4 * gid4; gid < count && gid < 4 * gid4 + 4; ++gid) {
// CHECK-NEXT:         dst[gid] = src[gid] + 0.5f * (float)gid;

// The index written inline and read as a value: the lanes declare the
// index under a name of their own.
__global__ void stamp(float *p, unsigned n)
{
    if (blockIdx.x * blockDim.x + threadIdx.x < n)
        p[blockIdx.x * blockDim.x + threadIdx.x] =
            (float)((blockIdx.x * blockDim.x + threadIdx.x) & 15u);
}
// CHECK:      __global__ void stamp(float *p, unsigned n)
// CHECK:          unsigned int i4 = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK:              unsigned int i = 4 * i4 + 2;
// CHECK-NEXT:         p4.z =
// CHECK-NEXT:             (float)(i & 15u);
// CHECK-NEXT:       }

// A grid-stride loop that reads its counter as a value.
__global__ void parity(const float *__restrict__ x, float *__restrict__ y,
                       i64 n)
{
    for (i64 k = blockIdx.x * (i64)blockDim.x + threadIdx.x; k < n;
         k += (i64)gridDim.x * blockDim.x)
    {
        y[k] = (k & 1) ? -x[k] : x[k];
    }
}
// CHECK:      __global__ void parity(const float *__restrict__ x, float *__restrict__ y,
// CHECK:            for (i64 k4 = (i64)blockIdx.x * blockDim.x + threadIdx.x; k4 < n / 4;
// CHECK:                i64 k = 4 * k4 + 1;
// CHECK-NEXT:           y4.y = (k & 1) ? -x4.y : x4.y;
// CHECK-NEXT:         }

// Rows of a batch through chained locals of the work, none read but in
// the elements: the lanes declare none of them, and the group's address
// is their value.
__global__ void squareRows(const float *__restrict__ in,
                           float *__restrict__ out, int w)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < w)
    {
        int row = blockIdx.y;
        int base = row * w;
        const int at = base + c;
        out[at] = in[at] * in[at];
    }
}
// CHECK:      __global__ void squareRows(const float *__restrict__ in,
// CHECK:          if (c4 < w / 4 &&
// CHECK-NEXT:       ((reinterpret_cast<unsigned long long>(&in[blockIdx.y * w + 4 * c4]) |
// CHECK-NEXT:            reinterpret_cast<unsigned long long>(&out[blockIdx.y * w + 4 * c4])) % 16) == 0) {
// CHECK-NEXT:     const float4 in4 = *reinterpret_cast<const float4 *>(&in[blockIdx.y * w + 4 * c4]);
// CHECK-NEXT:     float4 out4;
// CHECK-NEXT:     {
// CHECK-NEXT:       out4.x = in4.x * in4.x;
// CHECK-NEXT:     }
// CHECK:          } else if (c4 < (w + 3) / 4) {
// CHECK-NEXT:       for (int c = 4 * c4; c < w && c < 4 * c4 + 4; ++c) {
// CHECK-NEXT:         int row = blockIdx.y;
// CHECK-NEXT:         int base = row * w;
// CHECK-NEXT:         const int at = base + c;
// CHECK-NEXT:         out[at] = in[at] * in[at];

// A local of the work read both in the elements and as a value: the lanes
// declare it, each from its own index.
__global__ void tagged(const float *__restrict__ in, float *__restrict__ out,
                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int j = blockIdx.y * n + i;
        out[j] = in[j] * (float)(j % 7);
    }
}
// CHECK:      __global__ void tagged(const float *__restrict__ in, float *__restrict__ out,
// CHECK:            int i = 4 * i4 + 3;
// CHECK-NEXT:       const int j = blockIdx.y * n + i;
// CHECK-NEXT:       out4.w = in4.w * (float)(j % 7);
// CHECK-NEXT:     }

// A flat index and a pointer computed before the guard: both move into the
// tail, and the code before the guard no longer declares them.
__global__ void shiftBatch(const float *__restrict__ in,
                           float *__restrict__ out, int n, float by)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int flat = blockIdx.y * n + t;
    float *o = out + flat;
    if (t < n)
        *o = in[flat] + by;
}
// CHECK:      __global__ void shiftBatch(const float *__restrict__ in,
// CHECK-NEXT:                            float *__restrict__ out, int n, float by)
// CHECK-NEXT: {
// CHECK-NEXT:     int t = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:     int t4 = t;
// CHECK:            ((reinterpret_cast<unsigned long long>(&in[blockIdx.y * n + 4 * t4]) |
// CHECK-NEXT:            reinterpret_cast<unsigned long long>(&*(out + (blockIdx.y * n + 4 * t4)))) % 16) == 0) {
// CHECK:          } else if (t4 < (n + 3) / 4) {
// CHECK-NEXT:       for (int t = 4 * t4; t < n && t < 4 * t4 + 4; ++t) {
// CHECK-NEXT:         int flat = blockIdx.y * n + t;
// CHECK-NEXT:         float *o = out + flat;
// CHECK-NEXT:         *o = in[flat] + by;

// A value of the index computed before the guard and read as a value:
// each lane declares it again from its own index.
__global__ void shared(const float *__restrict__ in, float *__restrict__ out,
                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float w = 0.25f * i;
    if (i < n)
        out[i] = in[i] * w;
}
// CHECK:      __global__ void shared(const float *__restrict__ in, float *__restrict__ out,
// CHECK-NEXT:                        int n)
// CHECK-NEXT: {
// CHECK-NEXT:     int i = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:     int i4 = i;
// CHECK:              int i = 4 * i4 + 1;
// CHECK-NEXT:         float w = 0.25f * i;
// CHECK-NEXT:         out4.y = in4.y * w;
// CHECK:            for (int i = 4 * i4; i < n && i < 4 * i4 + 4; ++i) {
// CHECK-NEXT:         float w = 0.25f * i;
// CHECK-NEXT:         out[i] = in[i] * w;

// Refused: an element loaded before the guard, which the lanes would load
// one by one.
__global__ void preloaded(const float *__restrict__ in,
                          float *__restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float v = in[i];
    if (i < n)
        out[i] = v * v;
}
// WHY:      kernel preloaded at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   vectorize-float4: not applied: `v` at line [[@LINE-6]] holds an element loaded before the guard

// Refused: the work sets the index it reads, which four lanes would share.
__global__ void rebased(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int k;
    if (i < n) {
        k = i;
        out[i] = (float)k;
    }
}
// WHY:      kernel rebased at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   vectorize-float4: not applied: `k` at line [[@LINE-6]] is declared before the work and changed by it; the elements of a group of four would see each other's values

void run(const float *a, float *b, int n, int rows)
{
    addRamp<<<(n + THREADS - 1) / THREADS, THREADS>>>(b, a, n);
    stamp<<<(n + 255) / 256, 256>>>(b, (unsigned)n);
    parity<<<1024, 256>>>(a, b, (i64)n);
    dim3 grid((n + THREADS - 1) / THREADS, rows);
    squareRows<<<grid, THREADS>>>(a, b, n);
    tagged<<<dim3((n + 255) / 256, rows), 256>>>(a, b, n);
    shiftBatch<<<dim3((n + 255) / 256, rows), 256>>>(a, b, n, 1.0f);
    shared<<<(n + 255) / 256, 256>>>(a, b, n);
    preloaded<<<(n + 255) / 256, 256>>>(a, b, n);
    rebased<<<(n + 255) / 256, 256>>>(b, n);
}
// CHECK:      void run(const float *a, float *b, int n, int rows)
// CHECK-NEXT: {
// CHECK-NEXT:     addRamp<<<((n + 3) / 4 + THREADS - 1) / THREADS, THREADS>>>(b, a, n);
// CHECK-NEXT:     stamp<<<((((unsigned)n) + 3) / 4 + 256 - 1) / 256, 256>>>(b, (unsigned)n);
// CHECK-NEXT:     parity<<<1024, 256>>>(a, b, (i64)n);
// CHECK-NEXT:     dim3 grid((n + THREADS - 1) / THREADS, rows);
// CHECK-NEXT:     squareRows<<<dim3(((n + 3) / 4 + THREADS - 1) / THREADS, grid.y, grid.z), THREADS>>>(a, b, n);
// CHECK-NEXT:     tagged<<<dim3(((n + 3) / 4 + 256 - 1) / 256, rows), 256>>>(a, b, n);
// CHECK-NEXT:     shiftBatch<<<dim3(((n + 3) / 4 + 256 - 1) / 256, rows), 256>>>(a, b, n, 1.0f);
// CHECK-NEXT:     shared<<<((n + 3) / 4 + 256 - 1) / 256, 256>>>(a, b, n);
// CHECK-NEXT:     preloaded<<<(n + 255) / 256, 256>>>(a, b, n);
// CHECK-NEXT:     rebased<<<(n + 255) / 256, 256>>>(b, n);
// CHECK-NEXT: }
