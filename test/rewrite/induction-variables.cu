// Loops that walk a pointer or an offset by a fixed step each iteration
// (`acc += *p; p += ld;`) read, at each iteration, the first value plus the
// iteration's multiple of the step. index-induction-variables writes that
// value where the loop reads it and drops the step, so that the rewrites
// that reorder iterations see indices of the loop variable; it is only a
// preparation, proposed chained with them.

// RUN: clang-autoprof optimize --dry-run --transformations=split-serial-loop -o %t.split.cu %s -- -std=c++17
// RUN: %no-checks %t.split.cu | FileCheck %s --check-prefix=SPLIT
// RUN: clang-autoprof optimize --dry-run --transformations=warp-per-row -o %t.warp.cu %s -- -std=c++17
// RUN: %no-checks %t.warp.cu | FileCheck %s --check-prefix=WARP
// RUN: clang-autoprof optimize --dry-run --explain --transformations=split-serial-loop,index-induction-variables %s -- -std=c++17 | FileCheck %s --check-prefix=WHY
// RUN: clang-autoprof optimize --dry-run --diff --transformations=index-induction-variables %s -- -std=c++17 | %no-checks | FileCheck %s --check-prefix=DIFF
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.split.cu %}
// RUN: %if nvcc %{ %nvcc -std=c++17 -arch=sm_90 -c -o /dev/null %t.warp.cu %}

#include <cstddef>

// A column sum walking down the column, counting rows down.
__global__ void col_sum_walk(const float *__restrict__ A, float *__restrict__ out,
                             unsigned rows, unsigned cols, unsigned ld) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    const float *p = A + col;
    float acc = 0.0f;
    for (unsigned r = rows; r > 0; --r) {
      acc += *p;
      p += ld;
    }
    out[col] = acc;
  }
}
// SPLIT-LABEL: __global__ void col_sum_walk(
// SPLIT:         for (unsigned r = 1 + Slice; r <= rows; r += 32) {
// SPLIT-NEXT:      acc += *(p + (long long)(rows - r) * ld);
// SPLIT-NEXT:    }
// WHY-LABEL: kernel col_sum_walk at {{.*}}
// WHY-NEXT:    index-induction-variables: write each pointer or offset
// WHY:         index-induction-variables+split-serial-loop: give each output
// WHY:         split-serial-loop: not applied: the loop at line 26 does more than reduce: line 28
// DIFF-LABEL: # index-induction-variables on kernel col_sum_walk
// DIFF:          for (unsigned r = rows; r > 0; --r) {
// DIFF-NEXT: -      acc += *p;
// DIFF-NEXT: -      p += ld;
// DIFF-NEXT: +      acc += *(p + (long long)(rows - r) * ld);
// DIFF-NEXT:      }

// A matrix-vector product by rows, two pointers stepped together.
__global__ void gemv_two_walks(const double *M, const double *v, double *y,
                               int n) {
  int row = threadIdx.x + blockIdx.x * blockDim.x;
  if (row >= n)
    return;
  const double *a = M + (std::size_t)row * n;
  const double *b = v;
  double s = 0;
  for (int k = 0; k < n; k++) {
    s += a[0] * *b;
    ++a;
    b = b + 1;
  }
  y[row] = s;
}
// WARP-LABEL: __global__ void gemv_two_walks(
// WARP:         for (int k = Lane; k < n; k += 32) {
// WARP-NEXT:      s += (a + (long long)k)[0] * *(b + (long long)k);
// WARP-NEXT:    }

// An integer offset instead of a pointer.
__global__ void col_max_offset(const float *m, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    int off = c;
    float best = -3.0e38f;
    for (int r = 0; r < rows; ++r) {
      best = fmaxf(best, m[off]);
      off += cols;
    }
    out[c] = best;
  }
}
// SPLIT-LABEL: __global__ void col_max_offset(
// SPLIT:           for (int r = Slice; r < rows; r += 32) {
// SPLIT-NEXT:        best = fmaxf(best, m[(off + (int)((int)r * cols))]);

// Not indexed: the pointer is read after the loop.
__global__ void read_after(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    const float *p = A + c;
    float acc = 0.0f;
    for (int r = 0; r < rows - 1; ++r) {
      acc += *p;
      p += cols;
    }
    out[c] = acc + *p;
  }
}
// WHY-LABEL: kernel read_after at {{.*}}
// WHY:         index-induction-variables: not applied: `p` is read at line 96, after the loop at line 92

// Not indexed: the walk goes on from one iteration of the outer loop to
// the next.
__global__ void carried(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    const float *p = A + (std::size_t)c * rows * 4;
    float acc = 0.0f;
    for (int t = 0; t < 4; ++t)
      for (int r = 0; r < rows; ++r) {
        acc += *p;
        p++;
      }
    out[c] = acc;
  }
}
// WHY-LABEL: kernel carried at {{.*}}
// WHY:         index-induction-variables: not applied: `p` keeps its value from one iteration of the loop at line 109 to the next

// Not indexed: a `continue` skips the step.
__global__ void skips(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    const float *p = A + c;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
      if (r == 3)
        continue;
      acc += *p;
      p += cols;
    }
    out[c] = acc;
  }
}
// WHY-LABEL: kernel skips at {{.*}}
// WHY:         index-induction-variables: not applied: the loop at line 126 has a `continue`, which skips the step of `p`

// Not indexed: the step grows.
__global__ void growing(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    const float *p = A + c;
    int step = cols;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
      acc += *p;
      p += step;
      step = step + 1;
    }
    out[c] = acc;
  }
}
// WHY-LABEL: kernel growing at {{.*}}
// WHY:         index-induction-variables: not applied: the loop at line 145 steps `p` by `step`, which is not fixed for the loop

// Not indexed: a block of the body declares another `r`, which the
// index would name.
__global__ void shadowed(const float *A, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < cols) {
    const float *p = A + c;
    float acc = 0.0f;
    for (int r = 0; r < rows; ++r) {
      {
        int r = 2;
        acc += *p * r;
      }
      p += cols;
    }
    out[c] = acc;
  }
}
// WHY-LABEL: kernel shadowed at {{.*}}
// WHY:         index-induction-variables: not applied: the loop at line {{[0-9]+}} declares another `r` in its body

// Two passes over a column, each walking its own pointer: indexed one
// loop at a time, then split.
__global__ void col_mean_var(const float *A, float *mean, float *var, int rows,
                             int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  const float *p = A + c;
  float s = 0.0f;
  for (int r = 0; r < rows; ++r) {
    s += *p;
    p += cols;
  }
  float mu = s / rows;
  const float *q = A + c;
  float v = 0.0f;
  for (int r = 0; r < rows; ++r) {
    float d = *q - mu;
    v += d * d;
    q += cols;
  }
  mean[c] = mu;
  var[c] = v / rows;
}
// SPLIT-LABEL: __global__ void col_mean_var(
// SPLIT:         for (int r = Slice; r < rows; r += 32) {
// SPLIT-NEXT:      s += *(p + (long long)r * cols);
// SPLIT:         for (int r = Slice; r < rows; r += 32) {
// SPLIT-NEXT:      float d = *(q + (long long)r * cols) - mu;

// Steps inside the statement that reads: a dot product of two rows,
// `*a++ * *b++`, with an unbraced body.
__global__ void dot_rows(const float *X, const float *Y, float *out, int n,
                         int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *a = X + (std::size_t)i * d, *b = Y + (std::size_t)i * d;
    float s = 0;
    for (int k = 0; k < d; ++k)
      s += *a++ * *b++;
    out[i] = s;
  }
}
// WARP-LABEL: __global__ void dot_rows(
// WARP:         for (int k = Lane; k < d; k += 32)
// WARP-NEXT:      s += *(a + (long long)k) * *(b + (long long)k);

// Not indexed: a step that only some iterations make.
__global__ void some_steps(const float *X, float *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *a = X + (std::size_t)i * d;
    float s = 0;
    for (int k = 0; k < d; ++k)
      s += k % 2 ? *a++ : 0.0f;
    out[i] = s;
  }
}
// WHY-LABEL: kernel some_steps at {{.*}}
// WHY:         index-induction-variables: not applied: the loop at line {{[0-9]+}} steps `a` at line {{[0-9]+}} only on some iterations

// A `while` loop counted by a variable declared before it: the walks'
// steps come before the counter's, which ends the body.
__global__ void dot_rows_while(const float *a, const float *x, float *y,
                               int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *p = a + (long)r * cols, *q = x;
    float s = 0;
    int k = 0;
    while (k < cols) {
      s += *p++ * *q++;
      ++k;
    }
    y[r] = s;
  }
}
// WARP-LABEL: __global__ void dot_rows_while(
// WARP:         int k = Lane;
// WARP-NEXT:    while (k < cols) {
// WARP-NEXT:      s += *(p + (long long)k) * *(q + (long long)k);
// WARP-NEXT:      k += 32;
// WARP-NEXT:    }

// A column walked by an integer offset in a `while` loop from 1, the
// offset stepped after the read.
__global__ void col_sum_while(const float *__restrict__ m,
                              float *__restrict__ out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cols)
    return;
  float s = 0;
  int off = c + cols;
  int r = 1;
  while (r < rows) {
    s += m[off];
    off += cols;
    r++;
  }
  out[c] = m[c] + s;
}
// SPLIT-LABEL: __global__ void col_sum_while(
// SPLIT:           s += m[(off + (int)((int)(r - 1) * cols))];
// SPLIT-NEXT:      r += 32;

void launch(const float *A, float *o, const double *M, const double *v,
            double *y) {
  col_sum_walk<<<16, 256>>>(A, o, 4096, 4096, 4096);
  gemv_two_walks<<<(2048 + 127) / 128, 128>>>(M, v, y, 2048);
  col_max_offset<<<(4096 + 255) / 256, 256>>>(A, o, 4096, 4096);
  read_after<<<16, 256>>>(A, o, 4096, 4096);
  carried<<<16, 256>>>(A, o, 4096, 4096);
  skips<<<16, 256>>>(A, o, 4096, 4096);
  growing<<<16, 256>>>(A, o, 4096, 4096);
  shadowed<<<16, 256>>>(A, o, 4096, 4096);
  col_mean_var<<<16, 256>>>(A, o, o + 4096, 4096, 4096);
  dot_rows<<<16, 256>>>(A, A, o, 4096, 512);
  some_steps<<<16, 256>>>(A, o, 4096, 512);
  dot_rows_while<<<16, 256>>>(A, A, o, 4096, 512);
  col_sum_while<<<16, 256>>>(A, o, 4096, 4096);
}
