// register-accumulate: a loop that accumulates into one global element keeps
// it in a register and stores it once after the loop. With a __restrict__
// output (or only __shared__ reads beside it) nothing else can reach the
// element. Otherwise a read whose address moves by a fixed step with the
// loop's counter is tested once before the loop, over the span of its
// first and last addresses, and the register loop runs only when no span
// reaches the element; any other global read is watched as it is read and,
// when one reaches the element, the untouched original loop runs again.
// Unsigned 32-bit index arithmetic may wrap, so its reads are watched. A
// loop that may run zero times runs the new code under its condition at its
// first value. Loops that write other memory, leave early, call functions
// that may touch memory, or whose element moves are left alone, each with
// its reason.

// RUN: cp %s %t.orig
// RUN: clang-autoprof optimize --dry-run --transformations=register-accumulate -o %t.cu %s -- -std=c++17
// RUN: diff %s %t.orig
// RUN: clang-autoprof features %t.cu -- -std=c++17 > /dev/null
// RUN: FileCheck %s --input-file=%t.cu --match-full-lines
// RUN: clang-autoprof optimize --dry-run --explain --transformations=register-accumulate %s -- -std=c++17 | FileCheck %s --check-prefix=WHY --match-full-lines
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.cu %}

#define DIM 64
typedef unsigned int uint;

// A product accumulated in the output through pointer arithmetic, sizes as
// macros, the guard as an enclosing if; the pointers may overlap, so reads
// are watched.
__global__ void product(const float *a, const float *b, float *c) {
  const uint x = threadIdx.x + blockIdx.x * blockDim.x;
  const uint y = threadIdx.y + blockIdx.y * blockDim.y;
  if (x < DIM && y < DIM) {
    for (uint t = 0; t < DIM; t++)
      *(c + y * DIM + x) += a[y * DIM + t] * *(b + t * DIM + x);
  }
}
// CHECK:      // Whether a read reaches the element kept in a register.
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __device__ __forceinline__ T &watchRead_product(T &Read, const void *Element, unsigned long Size, bool &Hit) {
// CHECK-NEXT:   // Any byte in common, for reads narrower or wider than it.
// CHECK-NEXT:   unsigned long long R = reinterpret_cast<unsigned long long>(&Read);
// CHECK-NEXT:   unsigned long long E = reinterpret_cast<unsigned long long>(Element);
// CHECK-NEXT:   Hit |= R < E + Size && E < R + sizeof(T);
// CHECK-NEXT:   return Read;
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: __global__ void product(const float *a, const float *b, float *c) {
// CHECK:        if (x < DIM && y < DIM) {
// CHECK-NEXT:     {
// CHECK-NEXT:       auto *const accAt = &(*(c + y * DIM + x));
// CHECK-NEXT:       auto acc = *accAt;
// CHECK-NEXT:       bool accOverlap = false;
// CHECK-NEXT:       for (uint t = 0; t < DIM; t++)
// CHECK-NEXT:         acc += watchRead_product(a[y * DIM + t], accAt, sizeof(*accAt), accOverlap) * watchRead_product(*(b + t * DIM + x), accAt, sizeof(*accAt), accOverlap);
// CHECK-NEXT:       if (!accOverlap)
// CHECK-NEXT:         *accAt = acc;
// CHECK-NEXT:       else
// CHECK-NEXT:         for (uint t = 0; t < DIM; t++)
// CHECK-NEXT:           *(c + y * DIM + x) += a[y * DIM + t] * *(b + t * DIM + x);
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Column sums of a tall matrix with __restrict__ pointers, `s = s + e`
// written the other way round, in a loop that may run zero times; `acc` is
// taken.
__global__ void colsum(const double *__restrict__ m, double *__restrict__ sums,
                       long rows, long cols) {
  long j = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (j >= cols)
    return;
  double acc = 0;
  for (long r = 0; r != rows; ++r) {
    sums[j] = m[r * cols + j] + sums[j];
  }
  (void)acc;
}
// CHECK:      __global__ void colsum(const double *__restrict__ m, double *__restrict__ sums,
// CHECK:        double acc = 0;
// CHECK-NEXT:   if (((long)(0)) != rows) {
// CHECK-NEXT:     auto *const accAt = &sums[j];
// CHECK-NEXT:     auto acc_ = *accAt;
// CHECK-NEXT:     for (long r = 0; r != rows; ++r) {
// CHECK-NEXT:       acc_ = m[r * cols + j] + acc_;
// CHECK-NEXT:     }
// CHECK-NEXT:     *accAt = acc_;
// CHECK-NEXT:   }
// CHECK-NEXT:   (void)acc;

// A running maximum inside the else branch of an if, over a counted while
// loop of constant trip count whose reads are only __shared__: no test, no
// condition, braces so that nothing binds to the branch.
__global__ void peak(float *out, int mode) {
  __shared__ float tile[32];
  tile[threadIdx.x % 32] = threadIdx.x;
  __syncthreads();
  if (mode == 0)
    out[blockIdx.x] = 0;
  else
    for (int q = 0; q < 32; q += 4)
      out[blockIdx.x] = fmaxf(out[blockIdx.x], tile[q]);
}
// CHECK:      __global__ void peak(float *out, int mode) {
// CHECK:        else
// CHECK-NEXT:     {
// CHECK-NEXT:       auto *const accAt = &out[blockIdx.x];
// CHECK-NEXT:       auto acc = *accAt;
// CHECK-NEXT:       for (int q = 0; q < 32; q += 4)
// CHECK-NEXT:         acc = fmaxf(acc, tile[q]);
// CHECK-NEXT:       *accAt = acc;
// CHECK-NEXT:     }
// CHECK-NEXT: }

// C linkage: the watch goes before the extern "C" block.
extern "C" {
__global__ void rank1(const float *u, const float *v, float *w, int n) {
  int i = blockIdx.x;
  int j = threadIdx.x;
  for (int p = 0; p < n; ++p) {
    int from = p * n;
    w[i * n + j] += u[from + i] * v[from + j];
  }
}
}
// CHECK:      // Whether a read reaches the element kept in a register.
// CHECK-NEXT: template <typename T>
// CHECK-NEXT: __device__ __forceinline__ T &watchRead_rank1(T &Read, const void *Element, unsigned long Size, bool &Hit) {
// CHECK:      extern "C" {
// CHECK-NEXT: __global__ void rank1(const float *u, const float *v, float *w, int n) {
// CHECK:            w[i * n + j] += u[from + i] * v[from + j];

// Reads whose spans are tested before the loop may decide when it ends or
// where another read goes, and the loop may change a counter through a
// reference: the register loop runs only when no span reaches the element.
__global__ void drains(int *acc, const int *level) {
  int t = threadIdx.x;
  for (int k = 0; level[t] > k; ++k)
    acc[t] += -1;
}
// CHECK:      __global__ void drains(int *acc, const int *level) {
// CHECK-NEXT:   int t = threadIdx.x;
// CHECK-NEXT:   if (level[t] > ((int)(0))) {
// CHECK-NEXT:     auto *const accAt = &acc[t];
// CHECK-NEXT:     auto acc_ = *accAt;
// CHECK-NEXT:     bool accOverlap = spanReaches_drains(level[t], level[t], accAt, sizeof(*accAt));
// CHECK-NEXT:     if (!accOverlap) {
__global__ void gathers(float *out, const float *table, const int *index,
                        int n) {
  int t = threadIdx.x;
  for (int q = 0; q < n; ++q) {
    int pick = index[t];
    out[t] += table[2 * q + pick];
  }
}
// CHECK:      __global__ void gathers(float *out, const float *table, const int *index,
// CHECK:          bool accOverlap = spanReaches_gathers(index[t], index[t], accAt, sizeof(*accAt));
// CHECK-NEXT:     if (!accOverlap)
// CHECK-NEXT:       for (int q = 0; q < n; ++q) {
// CHECK-NEXT:         int pick = index[t];
// CHECK-NEXT:         acc += watchRead_gathers(table[2 * q + pick], accAt, sizeof(*accAt), accOverlap);
// CHECK-NEXT:       }
__global__ void by_reference(float *s, const float *in, int *count, int n) {
  int seen = 0;
  for (int i = 0; i < n; ++i) {
    int &alias = seen;
    alias += 1;
    s[threadIdx.x] += in[i];
  }
  count[threadIdx.x] = seen;
}
// CHECK:      __global__ void by_reference(float *s, const float *in, int *count, int n) {
// CHECK:          bool accOverlap = spanReaches_by_reference(in[((int)(0))], in[(((int)(n) - 1))], accAt, sizeof(*accAt));

// Refused without __restrict__: a read watched as it is read (its address
// is not a fixed step of the counter) that may be the element decides a
// branch (a stale value could change what runs), or where another read goes
// (a stale index could fault), or the loop changes a counter through a
// reference declared in it (a second run would count twice).
__global__ void skips(int *acc, const int *flag, const int *slot, int n) {
  int t = threadIdx.x;
  for (int k = 0; k < n; ++k)
    acc[t] += flag[slot[k]] ? 1 : -1;
}
__global__ void chases(float *out, const float *table, const int *next,
                       int n) {
  int t = threadIdx.x;
  for (int q = 0; q < n; ++q)
    out[t] += table[next[q * q]];
}
__global__ void by_reference_gather(float *s, const float *in, const int *at,
                                    int *count, int n) {
  int seen = 0;
  for (int i = 0; i < n; ++i) {
    int &alias = seen;
    alias += 1;
    s[threadIdx.x] += in[at[i]];
  }
  count[threadIdx.x] = seen;
}

// Refused: the loop also writes another array.
__global__ void writes_two(float *__restrict__ sum, float *__restrict__ scratch,
                           const float *in, int n) {
  for (int i = 0; i < n; ++i) {
    sum[threadIdx.x] += in[i];
    scratch[i] = in[i];
  }
}

// Refused: the loop returns from inside.
__global__ void returns(float *__restrict__ s, const float *in, int n) {
  for (int i = 0; i < n; ++i) {
    if (in[i] < 0)
      return;
    s[threadIdx.x] += in[i];
  }
}

// Refused: the loop calls a function that may write memory.
__device__ float logged(const float *p, int i, int *count) {
  ++*count;
  return p[i];
}
__global__ void calls(float *__restrict__ s, const float *in, int *count,
                      int n) {
  for (int i = 0; i < n; ++i)
    s[blockIdx.x] += logged(in, i, count);
}

// Refused: the element's index is declared inside the loop.
__global__ void inner_index(float *__restrict__ s, const float *in, int n) {
  for (int i = 0; i < n; ++i) {
    int slot = blockIdx.x;
    s[slot] += in[i];
  }
}

// The reads may overlap the element and the loop counts in a variable
// declared before it: the read's span is tested before the loop, and
// either the register loop or the original one runs, so the count needs no
// copy.
__global__ void counts_too(float *s, const float *in, int *hits, int n) {
  int seen = 0;
  for (int i = 0; i < n; ++i) {
    s[threadIdx.x] += in[i];
    seen++;
  }
  hits[threadIdx.x] = seen;
}
// CHECK:      __global__ void counts_too(float *s, const float *in, int *hits, int n) {
// CHECK-NEXT:   int seen = 0;
// CHECK-NEXT:   if (((int)(0)) < n) {
// CHECK-NEXT:     auto *const accAt = &s[threadIdx.x];
// CHECK-NEXT:     auto acc = *accAt;
// CHECK-NEXT:     bool accOverlap = spanReaches_counts_too(in[((int)(0))], in[(((int)(n) - 1))], accAt, sizeof(*accAt));
// CHECK-NEXT:     if (!accOverlap) {
// CHECK-NEXT:       for (int i = 0; i < n; ++i) {
// CHECK-NEXT:         acc += in[i];
// CHECK-NEXT:         seen++;
// CHECK-NEXT:       }
// CHECK-NEXT:       *accAt = acc;
// CHECK-NEXT:     } else {
// CHECK-NEXT:       for (int i = 0; i < n; ++i) {
// CHECK-NEXT:         s[threadIdx.x] += in[i];
// CHECK-NEXT:         seen++;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   hits[threadIdx.x] = seen;
// CHECK-NEXT: }

// Row sums into the output by a `while` loop whose column counter is
// declared before it, rows as unsigned, the pointers unqualified: the new
// code runs under the loop's condition as it stands, and the counter starts
// again from its saved value when a read reaches the element.
__global__ void rowTotals(const double *M, double *totals, unsigned rows,
                          unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  unsigned c = 0;
  while (c < cols) {
    totals[r] += M[r * cols + c];
    ++c;
  }
}
// CHECK:      __global__ void rowTotals(const double *M, double *totals, unsigned rows,
// CHECK:        unsigned c = 0;
// CHECK-NEXT:   if (c < cols) {
// CHECK-NEXT:     auto *const accAt = &totals[r];
// CHECK-NEXT:     auto acc = *accAt;
// CHECK-NEXT:     bool accOverlap = false;
// CHECK-NEXT:     auto cStart = c;
// CHECK-NEXT:     while (c < cols) {
// CHECK-NEXT:       acc += watchRead_rowTotals(M[r * cols + c], accAt, sizeof(*accAt), accOverlap);
// CHECK-NEXT:       ++c;
// CHECK-NEXT:     }
// CHECK-NEXT:     if (!accOverlap)
// CHECK-NEXT:       *accAt = acc;
// CHECK-NEXT:     else {
// CHECK-NEXT:       c = cStart;
// CHECK-NEXT:       while (c < cols) {
// CHECK-NEXT:         totals[r] += M[r * cols + c];
// CHECK-NEXT:         ++c;
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// A `for` without an init statement, its counter declared before it, in
// steps of one from a value the model does not know: like the `while` loop
// above, the new code runs under the condition as it stands.
__global__ void
col_drain(float *__restrict__ out, const float *in, long rows, long cols)
{
    long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
    long r = rows / 2;
    if (j < cols)
        for (; r < rows; r++)
            out[j] -= in[r * cols + j];
}
// CHECK:      col_drain(float *__restrict__ out, const float *in, long rows, long cols)
// CHECK-NEXT: {
// CHECK-NEXT:     long j = (long)blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:     long r = rows / 2;
// CHECK-NEXT:     if (j < cols)
// CHECK-NEXT:         {
// CHECK-NEXT:           if (r < rows) {
// CHECK-NEXT:             auto *const accAt = &out[j];
// CHECK-NEXT:             auto acc = *accAt;
// CHECK-NEXT:             for (; r < rows; r++)
// CHECK-NEXT:                 acc -= in[r * cols + j];
// CHECK-NEXT:             *accAt = acc;
// CHECK-NEXT:           }
// CHECK-NEXT:         }
// CHECK-NEXT: }

// The loop's counter declared before it and set by the loop itself: the
// loop run again starts from the same value, and nothing else reads the
// counter. Its trip count is unknown, so the new code runs under the
// condition at the first value.
__global__ void counter_outside(float *C, const float *A, const float *B,
                                int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int k;
  if (i < n && j < n)
    for (k = 0; k < n; ++k)
      C[i * n + j] += A[i * n + k] * B[k * n + j];
}
// CHECK:      __global__ void counter_outside(float *C, const float *A, const float *B,
// CHECK:          if (((int)(0)) < n) {
// CHECK-NEXT:         auto *const accAt = &C[i * n + j];
// CHECK-NEXT:         auto acc = *accAt;
// CHECK-NEXT:         bool accOverlap = spanReaches_counter_outside(A[i * n + ((int)(0))], A[i * n + (((int)(n) - 1))], accAt, sizeof(*accAt)) ||
// CHECK-NEXT:             spanReaches_counter_outside(B[((int)(0)) * n + j], B[(((int)(n) - 1)) * n + j], accAt, sizeof(*accAt));
// CHECK-NEXT:         if (!accOverlap) {
// CHECK-NEXT:           for (k = 0; k < n; ++k)
// CHECK-NEXT:             acc += A[i * n + k] * B[k * n + j];
// CHECK-NEXT:           *accAt = acc;
// CHECK-NEXT:         } else {
// CHECK-NEXT:           for (k = 0; k < n; ++k)
// CHECK-NEXT:             C[i * n + j] += A[i * n + k] * B[k * n + j];
// CHECK-NEXT:         }
// CHECK-NEXT:       }

// A strided window over a row, both ends inclusive, the step three: the
// span runs to the last index the loop reads, never past it.
__global__ void stepped(float *out, const float *w, int lo, int hi) {
  int row = blockIdx.x;
  for (int k = lo; k <= hi; k += 3)
    out[row] += w[row * 64 + k];
}
// CHECK:      __global__ void stepped(float *out, const float *w, int lo, int hi) {
// CHECK:          bool accOverlap = spanReaches_stepped(w[row * 64 + ((int)(lo))], w[row * 64 + (((int)(lo) + ((int)(hi) - (int)(lo)) / 3 * 3))], accAt, sizeof(*accAt));

// A gather beside a stream: the stream's span is tested once; the gathered
// read, whose address the loop loads, is watched as it is read, and the
// register loop runs only when the span misses the element.
__global__ void gathers_too(float *tot, const float *v, const int *pick,
                            int n) {
  const int t = threadIdx.x;
  for (int k = 0; k < n; ++k)
    tot[t] = tot[t] + v[pick[k]];
}
// CHECK:      __global__ void gathers_too(float *tot, const float *v, const int *pick,
// CHECK:          bool accOverlap = spanReaches_gathers_too(pick[((int)(0))], pick[(((int)(n) - 1))], accAt, sizeof(*accAt));
// CHECK-NEXT:     if (!accOverlap)
// CHECK-NEXT:       for (int k = 0; k < n; ++k)
// CHECK-NEXT:         acc = acc + watchRead_gathers_too(v[pick[k]], accAt, sizeof(*accAt), accOverlap);
// CHECK-NEXT:     if (!accOverlap)
// CHECK-NEXT:       *accAt = acc;
// CHECK-NEXT:     else
// CHECK-NEXT:       for (int k = 0; k < n; ++k)
// CHECK-NEXT:         tot[t] = tot[t] + v[pick[k]];

// The loop under an indented `#pragma unroll 2`: the pragma goes with each
// copy of the loop, right before it.
__global__ void hinted(float *y, const float *a, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  #pragma unroll 2
  for (int c = 0; c < n; ++c)
    y[r] += a[r * n + c];
}
// CHECK:      __global__ void hinted(float *y, const float *a, int n) {
// CHECK-NEXT:   int r = blockIdx.x * blockDim.x + threadIdx.x;
// CHECK-NEXT:   if (((int)(0)) < n) {
// CHECK-NEXT:     auto *const accAt = &y[r];
// CHECK-NEXT:     auto acc = *accAt;
// CHECK-NEXT:     bool accOverlap = spanReaches_hinted(a[r * n + ((int)(0))], a[r * n + (((int)(n) - 1))], accAt, sizeof(*accAt));
// CHECK-NEXT:     if (!accOverlap) {
// CHECK-NEXT:       #pragma unroll 2
// CHECK-NEXT:       for (int c = 0; c < n; ++c)
// CHECK-NEXT:         acc += a[r * n + c];
// CHECK-NEXT:       *accAt = acc;
// CHECK-NEXT:     } else {
// CHECK-NEXT:       #pragma unroll 2
// CHECK-NEXT:       for (int c = 0; c < n; ++c)
// CHECK-NEXT:         y[r] += a[r * n + c];
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Refused: the counter is read after the loop, which the loop sets first
// even when it does not start; skipped whole under its condition, it would
// be left unset.
__global__ void counter_read(float *C, const float *A, int *last, int n) {
  int k;
  for (k = 0; k < n; ++k)
    C[threadIdx.x] += A[k];
  last[threadIdx.x] = k;
}

// Refused: the element moves with the loop (not a reduction of one element).
__global__ void moving(float *__restrict__ s, const float *in, int n) {
  for (int i = 0; i < n; ++i)
    s[i] += in[i];
}

// WHY: kernel drains at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel gathers at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel by_reference at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel skips at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} decides its control flow from flag[slot[k]], which may read the element; declare acc __restrict__
// WHY: kernel chases at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} computes the address of table[next[q * q]] from next[q * q], which may read the element; declare out __restrict__
// WHY: kernel by_reference_gather at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} changes 'alias', declared before it, so it cannot run again when the element overlaps what it reads; declare s __restrict__
// WHY: kernel writes_two at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} also writes scratch[i]
// WHY: kernel returns at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} returns from inside
// WHY: kernel calls at {{.*}}
// WHY-NEXT:   inline-device-helpers: {{.*}}
// WHY-NEXT:     prepares the kernel for the others; not tried by itself
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} calls logged, which may touch memory
// WHY-NEXT:   inline-device-helpers+register-accumulate: not applied: the loop at line {{[0-9]+}} also writes {{.*}}
// WHY: kernel inner_index at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the element s[slot] names 'slot', declared inside the loop at line {{[0-9]+}}
// WHY: kernel counts_too at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel rowTotals at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel counter_outside at {{.*}}
// WHY-NEXT:   register-accumulate: {{.*}}
// WHY: kernel counter_read at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the loop at line {{[0-9]+}} may run zero times, and 'k', which it sets first, is read outside it: skipped whole, it would leave it unset
// WHY: kernel moving at {{.*}}
// WHY-NEXT:   no proposal
// WHY-NEXT:   register-accumulate: not applied: the kernel model shows no loop that accumulates into one global element
