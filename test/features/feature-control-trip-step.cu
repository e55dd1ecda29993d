// const_trip_loops: only ++, --, += and -= by a constant are constant steps;
// *=, <<= and /= are not.

// RUN: clang-autoprof features %s --kernel='^geometric_steps$' -- -std=c++17 | FileCheck %s --match-full-lines

__global__ void geometric_steps(float *a) {
  for (int t = 1; t < 64; t *= 2)
    a[t] = 1.0f;
  for (int t = 1; t < 64; t <<= 1)
    a[t] += 1.0f;
  for (int t = 64; t > 0; t /= 2)
    a[t] -= 1.0f;
  for (int t = 0; t < 64; t += 4)
    a[t] = 0.0f;
}
// CHECK-LABEL: kernel geometric_steps at {{.*}}
// CHECK:      loops: 4
// CHECK-NEXT: max_loop_depth: 1
// CHECK-NEXT: const_trip_loops: 1
