// Control features: loops, nesting depth, constant trip counts, unrolling,
// thread-dependent branches and early exits.

// RUN: clang-autoprof features %s --kernel='^loop_kinds$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=LOOPS
// RUN: clang-autoprof features %s --kernel='^straight_line$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=STRAIGHT
// RUN: clang-autoprof features %s --kernel='^unrolled$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=UNROLL
// RUN: clang-autoprof features %s --kernel='^not_unrolled$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=NOUNROLL
// RUN: clang-autoprof features %s --kernel='^branches$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=BR
// RUN: clang-autoprof features %s --kernel='^uniform_branches$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=UBR
// RUN: clang-autoprof features %s --kernel='^exits$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=EXITS
// RUN: clang-autoprof features %s --kernel='^final_return$' -- -std=c++17 | FileCheck %s --match-full-lines --check-prefix=FINAL

constexpr int kSteps = 6;

// Eleven loops: for, while, do, range-for; nesting 3 deep. Constant trip
// counts: i (0..4), l (0..2), t (8, -= 2) and c (an assignment up to a
// constexpr). Not constant: j (bound n), t = t + 2 (step), n > t (bound n),
// t = n (start), and the while, do and range-for loops.
__global__ void loop_kinds(float *a, int n) {
  float arr[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < n; ++j)
      for (int l = 0; l < 2; l++)
        a[j] += arr[l];
  int k = 0;
  while (k < n)
    ++k;
  do {
    --k;
  } while (k > 0);
  for (int t = 8; t > 0; t -= 2)
    a[t] = 0.0f;
  for (int t = 1; t < 64; t = t + 2)
    a[t] = 1.0f;
  for (int t = 0; n > t; t += 1)
    a[t] = 2.0f;
  for (int t = n; t < 10; ++t)
    a[t] = 3.0f;
  for (float v : arr)
    a[0] += v;
  int c;
  for (c = 0; c < kSteps; c++)
    a[c] *= 2.0f;
}
// LOOPS-LABEL: kernel loop_kinds at {{.*}}
// LOOPS:      local_arrays: 1
// LOOPS:      loops: 11
// LOOPS-NEXT: max_loop_depth: 3
// LOOPS-NEXT: const_trip_loops: 4
// LOOPS-NEXT: unrolled_loops: 0
// LOOPS-NEXT: thread_dependent_branches: 0
// LOOPS-NEXT: early_exits: 0

// No loops at all.
__global__ void straight_line(float *a) {
  a[threadIdx.x] = 1.0f;
}
// STRAIGHT-LABEL: kernel straight_line at {{.*}}
// STRAIGHT:      loops: 0
// STRAIGHT-NEXT: max_loop_depth: 0
// STRAIGHT-NEXT: const_trip_loops: 0
// STRAIGHT-NEXT: unrolled_loops: 0

// #pragma unroll without a count and with a count above 1 (also on a loop
// with a run-time bound); #pragma unroll 1 and no pragma do not count.
__global__ void unrolled(float *a, int n) {
#pragma unroll
  for (int i = 0; i < 4; ++i)
    a[i] = 0.0f;
#pragma unroll 4
  for (int i = 0; i < n; ++i)
    a[i] += 1.0f;
#pragma unroll 1
  for (int i = 0; i < 16; ++i)
    a[i] *= 2.0f;
  for (int i = 0; i < 8; ++i)
    a[i] -= 1.0f;
}
// UNROLL-LABEL: kernel unrolled at {{.*}}
// UNROLL:      loops: 4
// UNROLL-NEXT: max_loop_depth: 1
// UNROLL-NEXT: const_trip_loops: 3
// UNROLL-NEXT: unrolled_loops: 2

// #pragma unroll 1 and #pragma nounroll disable unrolling.
__global__ void not_unrolled(float *a) {
#pragma unroll 1
  for (int i = 0; i < 16; ++i)
    a[i] *= 2.0f;
#pragma nounroll
  for (int i = 0; i < 16; ++i)
    a[i] += 2.0f;
}
// NOUNROLL-LABEL: kernel not_unrolled at {{.*}}
// NOUNROLL:      loops: 2
// NOUNROLL-NEXT: max_loop_depth: 1
// NOUNROLL-NEXT: const_trip_loops: 2
// NOUNROLL-NEXT: unrolled_loops: 0

// Thread-dependent: a local from threadIdx.x, threadIdx.y, a value loaded at
// a thread-dependent address, a switch on tid, a ?: on tid. Not: blockIdx,
// a parameter, a value loaded at a constant address, loop conditions.
__global__ void branches(const int *in, float *out, int n) {
  int tid = threadIdx.x;
  if (tid < n)
    out[tid] = 1.0f;
  if (threadIdx.y == 0)
    out[0] = 2.0f;
  int v = in[tid];
  if (v > 0)
    out[1] = 3.0f;
  switch (tid & 3) {
  case 0:
    out[2] = 4.0f;
    break;
  default:
    break;
  }
  float x = (tid % 2) ? 1.0f : 2.0f;
  if (blockIdx.x == 0)
    out[3] = x;
  if (n > 16)
    out[4] = 5.0f;
  if (in[0] > 0)
    out[5] = 6.0f;
  for (int i = tid; i < n; i += 32)
    out[i] = 0.0f;
  while (tid < n)
    tid += 64;
}
// BR-LABEL: kernel branches at {{.*}}
// BR:      loops: 2
// BR:      thread_dependent_branches: 5
// BR-NEXT: early_exits: 0

// Branches on blockIdx, blockDim, gridDim and parameters only.
__global__ void uniform_branches(float *out, int n) {
  if (blockIdx.x == 0)
    out[0] = 1.0f;
  int b = blockIdx.y * blockDim.x;
  if (b > n)
    out[1] = 2.0f;
  out[2] = gridDim.x > 4 ? 1.0f : 0.0f;
  switch (n) {
  case 1:
    out[3] = 1.0f;
    break;
  }
}
// UBR-LABEL: kernel uniform_branches at {{.*}}
// UBR:      thread_dependent_branches: 0
// UBR-NEXT: early_exits: 0

// Two early returns; the final return is not an early exit.
__global__ void exits(float *out, int n) {
  int i = threadIdx.x;
  if (i >= n)
    return;
  if (blockIdx.x > 4) {
    out[i] = 0.0f;
    return;
  }
  out[i] = 1.0f;
  return;
}
// EXITS-LABEL: kernel exits at {{.*}}
// EXITS:      thread_dependent_branches: 1
// EXITS-NEXT: early_exits: 2

// Only a final return.
__global__ void final_return(float *out) {
  out[threadIdx.x] = 1.0f;
  return;
}
// FINAL-LABEL: kernel final_return at {{.*}}
// FINAL:      thread_dependent_branches: 0
// FINAL-NEXT: early_exits: 0
