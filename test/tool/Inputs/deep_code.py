#!/usr/bin/env python3
"""Writes CUDA files nested deeper than Clang's parser can take on a small
stack, and one ordinary file, into the folder given:

  deep_sum.cu     a kernel returning a sum of 40,000 terms
  deep_index.cu   an index nested 5,000 deep: q[q[q[...]]]
  deep_parens.cu  an expression in 2,000 nested parentheses
  ok.cu           an ordinary kernel
"""

import os
import sys

out = sys.argv[1]


def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


write("deep_sum.cu",
      "__global__ void sum(float *o, const float *q) {\n  o[0] = " +
      " + ".join("q[%d]" % (i % 7) for i in range(40000)) + ";\n}\n")
write("deep_index.cu",
      "__global__ void index(int *o, const int *q) {\n  o[0] = " +
      "q[" * 5000 + "0" + "]" * 5000 + ";\n}\n")
write("deep_parens.cu",
      "__global__ void parens(int *o) {\n  o[0] = " + "(" * 2000 + "1" +
      ")" * 2000 + ";\n}\n")
write("ok.cu",
      "__global__ void fine(const float *in, float *out, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n)\n    out[i] = 2.0f * in[i];\n}\n")
