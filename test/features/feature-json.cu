// The JSON report: its structure for one kernel (a template instantiation)
// and its launch sites. Pretty-printed with an indent of 2, one key a line.

// RUN: clang-autoprof features %s --format=json --kernel='^axpy<float, 256>$' -- -std=c++17 | FileCheck %s --match-full-lines

template <typename T, int B>
__global__ void __launch_bounds__(B, 2)
axpy(T a, const T *__restrict__ x, T *y, int n) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void unrelated(int *p) { p[0] = 1; }

void launch(const float *x, float *y, int n, cudaStream_t s, int bs) {
  dim3 block(16, 16);
  axpy<float, 256><<<(n + 255) / 256, block, 0, s>>>(2.0f, x, y, n);
  axpy<float, 256><<<n, dim3(bs)>>>(1.0f, x, y, n);
  unrelated<<<1, 32>>>(nullptr);
}

// CHECK:      {{^}}{
// CHECK-NEXT: {{^}}  "version": 1,
// CHECK-NEXT: {{^}}  "kernels": [
// CHECK-NEXT: {{^}}    {
// CHECK-NEXT: {{^}}      "name": "axpy",
// CHECK-NEXT: {{^}}      "qualified_name": "axpy<float, 256>",
// CHECK-NEXT: {{^}}      "mangled_name": "_Z4axpyIfLi256EEvT_PKS0_PS0_i",
// CHECK-NEXT: {{^}}      "file": "{{.*}}feature-json.cu",
// CHECK-NEXT: {{^}}      "line": 8,
// CHECK-NEXT: {{^}}      "column": 1,
// CHECK-NEXT: {{^}}      "template": "instantiation",
// CHECK-NEXT: {{^}}      "template_args": [
// CHECK-NEXT: {{^}}        "float",
// CHECK-NEXT: {{^}}        "256"
// CHECK-NEXT: {{^}}      ],
// CHECK-NEXT: {{^}}      "params": [
// CHECK-NEXT: {{^}}        {
// CHECK-NEXT: {{^}}          "name": "a",
// CHECK-NEXT: {{^}}          "type": "float",
// CHECK-NEXT: {{^}}          "pointer": false,
// CHECK-NEXT: {{^}}          "const": false,
// CHECK-NEXT: {{^}}          "restrict": false
// CHECK-NEXT: {{^}}        },
// CHECK-NEXT: {{^}}        {
// CHECK-NEXT: {{^}}          "name": "x",
// CHECK-NEXT: {{^}}          "type": "const float *__restrict",
// CHECK-NEXT: {{^}}          "pointer": true,
// CHECK-NEXT: {{^}}          "const": true,
// CHECK-NEXT: {{^}}          "restrict": true
// CHECK-NEXT: {{^}}        },
// CHECK-NEXT: {{^}}        {
// CHECK-NEXT: {{^}}          "name": "y",
// CHECK-NEXT: {{^}}          "type": "float *",
// CHECK-NEXT: {{^}}          "pointer": true,
// CHECK-NEXT: {{^}}          "const": false,
// CHECK-NEXT: {{^}}          "restrict": false
// CHECK-NEXT: {{^}}        },
// CHECK-NEXT: {{^}}        {
// CHECK-NEXT: {{^}}          "name": "n",
// CHECK-NEXT: {{^}}          "type": "int",
// CHECK-NEXT: {{^}}          "pointer": false,
// CHECK-NEXT: {{^}}          "const": false,
// CHECK-NEXT: {{^}}          "restrict": false
// CHECK-NEXT: {{^}}        }
// CHECK-NEXT: {{^}}      ],
// CHECK-NEXT: {{^}}      "features": {
// CHECK-NEXT: {{^}}        "global_loads": 2,
// CHECK-NEXT: {{^}}        "global_stores": 1,
// CHECK-NEXT: {{^}}        "global_loads_in_loops": 0,
// CHECK-NEXT: {{^}}        "global_stores_in_loops": 0,
// CHECK-NEXT: {{^}}        "shared_arrays": 0,
// CHECK-NEXT: {{^}}        "shared_bytes_static": 0,
// CHECK-NEXT: {{^}}        "uses_dynamic_shared": 0,
// CHECK-NEXT: {{^}}        "local_arrays": 0,
// CHECK-NEXT: {{^}}        "uses_ldg": 0,
// CHECK-NEXT: {{^}}        "vector_accesses": 0,
// CHECK-NEXT: {{^}}        "restrict_params": 1,
// CHECK-NEXT: {{^}}        "const_params": 1,
// CHECK-NEXT: {{^}}        "access_coalesced": 3,
// CHECK-NEXT: {{^}}        "access_strided": 0,
// CHECK-NEXT: {{^}}        "access_uniform": 0,
// CHECK-NEXT: {{^}}        "access_indirect": 0,
// CHECK-NEXT: {{^}}        "shared_bank_conflict_risk": 0,
// CHECK-NEXT: {{^}}        "loops": 0,
// CHECK-NEXT: {{^}}        "max_loop_depth": 0,
// CHECK-NEXT: {{^}}        "const_trip_loops": 0,
// CHECK-NEXT: {{^}}        "unrolled_loops": 0,
// CHECK-NEXT: {{^}}        "thread_dependent_branches": 1,
// CHECK-NEXT: {{^}}        "early_exits": 0,
// CHECK-NEXT: {{^}}        "syncthreads": 0,
// CHECK-NEXT: {{^}}        "syncthreads_in_loops": 0,
// CHECK-NEXT: {{^}}        "warp_shuffles": 0,
// CHECK-NEXT: {{^}}        "warp_votes": 0,
// CHECK-NEXT: {{^}}        "atomics_global": 0,
// CHECK-NEXT: {{^}}        "atomics_shared": 0,
// CHECK-NEXT: {{^}}        "uses_cooperative_groups": 0,
// CHECK-NEXT: {{^}}        "flops_fp32": 2,
// CHECK-NEXT: {{^}}        "flops_fp64": 0,
// CHECK-NEXT: {{^}}        "flops_fp16": 0,
// CHECK-NEXT: {{^}}        "int_ops": 2,
// CHECK-NEXT: {{^}}        "divisions": 0,
// CHECK-NEXT: {{^}}        "transcendentals": 0,
// CHECK-NEXT: {{^}}        "fast_intrinsics": 0,
// CHECK-NEXT: {{^}}        "uses_tensor_cores": 0,
// CHECK-NEXT: {{^}}        "arithmetic_intensity_estimate": 0.6667,
// CHECK-NEXT: {{^}}        "launch_bounds": {
// CHECK-NEXT: {{^}}          "max_threads_per_block": 256,
// CHECK-NEXT: {{^}}          "min_blocks_per_sm": 2,
// CHECK-NEXT: {{^}}          "max_blocks_per_cluster": null
// CHECK-NEXT: {{^}}        }
// CHECK-NEXT: {{^}}      }
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}  ],
// CHECK-NEXT: {{^}}  "launch_sites": [
// CHECK-NEXT: {{^}}    {
// CHECK-NEXT: {{^}}      "kernel": "axpy",
// CHECK-NEXT: {{^}}      "qualified_kernel": "axpy<float, 256>",
// CHECK-NEXT: {{^}}      "caller": "launch",
// CHECK-NEXT: {{^}}      "file": "{{.*}}feature-json.cu",
// CHECK-NEXT: {{^}}      "line": 18,
// CHECK-NEXT: {{^}}      "column": 3,
// CHECK-NEXT: {{^}}      "grid": "(n + 255) / 256",
// CHECK-NEXT: {{^}}      "block": "block",
// CHECK-NEXT: {{^}}      "shared_mem": "0",
// CHECK-NEXT: {{^}}      "stream": "s",
// CHECK-NEXT: {{^}}      "block_size": 256
// CHECK-NEXT: {{^}}    },
// CHECK-NEXT: {{^}}    {
// CHECK-NEXT: {{^}}      "kernel": "axpy",
// CHECK-NEXT: {{^}}      "qualified_kernel": "axpy<float, 256>",
// CHECK-NEXT: {{^}}      "caller": "launch",
// CHECK-NEXT: {{^}}      "file": "{{.*}}feature-json.cu",
// CHECK-NEXT: {{^}}      "line": 19,
// CHECK-NEXT: {{^}}      "column": 3,
// CHECK-NEXT: {{^}}      "grid": "n",
// CHECK-NEXT: {{^}}      "block": "dim3(bs)",
// CHECK-NEXT: {{^}}      "shared_mem": null,
// CHECK-NEXT: {{^}}      "stream": null,
// CHECK-NEXT: {{^}}      "block_size": null
// CHECK-NEXT: {{^}}    }
// CHECK-NEXT: {{^}}  ]
// CHECK-NEXT: {{^}}}
// CHECK-NOT:  {{.+}}
