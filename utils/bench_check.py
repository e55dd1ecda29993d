#!/usr/bin/env python3
"""Compares `clang-autoprof check` with `clang++ -fsyntax-only` on the same
translation unit, in one run, and prints a table of times and their ratio.

Both parse the same device-side compilation (the flags the tool adds are
given to clang++ too, as utils/bench_features.py does), so the ratio is the
cost of the checks on top of parsing. The two commands alternate; the
minimum over the repetitions is kept. Goal: under 2x.

  utils/bench_check.py [--repeat N] [--tool PATH] [--clang PATH] [file]

Without a file, the input is made from nine corpus programs (bench/corpus),
each in a namespace with its `main` renamed `run`: about 540 lines of
kernels and host code, parsed, never run.
"""
import argparse
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The corpus programs the default input is made of.
PROGRAMS = ["saxpy_float4", "transpose_smem_conflicts", "matmul_smem_tiled",
            "reduce_sum_interleaved", "histogram_global_atomics",
            "softmax_thread_per_row", "gelu_erf", "spmv_csr_scalar",
            "stencil2d_5pt"]


def corpus_input(path):
    """Writes the default input, one namespace per corpus program, to path."""
    parts = ['#include "corpus.cuh"\n\n']
    for name in PROGRAMS:
        with open(os.path.join(ROOT, "bench", "corpus", name + ".cu")) as f:
            body = f.read().split('#include "corpus.cuh"\n', 1)[1]
        body = re.sub(r"\bint main\(", "int run(", body).strip("\n")
        parts.append("\n// bench/corpus/%s.cu\nnamespace %s {\n\n%s\n"
                     "} // namespace %s\n" % (name, name, body, name))
    with open(path, "w") as f:
        f.write("".join(parts))


def run(cmd, ok=(0,)):
    """Runs cmd; returns (seconds, peak RSS in MiB). Fails on another exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) not in ok:
        sys.exit("bench_check: command failed: %s\n%s" % (" ".join(cmd), err))
    return elapsed, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "clang-autoprof"))
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("file", nargs="?", default="")
    args = ap.parse_args()
    if not args.file:
        args.file = os.path.join(tempfile.mkdtemp(prefix="bench-check"),
                                 "kernels.cu")
        corpus_input(args.file)
    if not os.path.isfile(args.file):
        sys.exit("bench_check: no such file: '%s'" % args.file)
    flags = ["-std=c++17", "-I" + os.path.join(ROOT, "bench", "corpus")]
    cuda = ["-x", "cuda", "--cuda-path=" + args.cuda_path, "--cuda-gpu-arch=sm_90",
            "--cuda-device-only", "-Wno-unknown-cuda-version"]
    clang_cmd = [args.clang, "-fsyntax-only"] + cuda + flags + [args.file]
    # Exit 1 means error-severity findings: a normal result.
    tool_cmd = [args.tool, "check", args.file, "--cuda-path=" + args.cuda_path, "--"] + flags

    best_c = best_t = float("inf")
    mem_c = mem_t = 0.0
    for _ in range(args.repeat):
        t, m = run(clang_cmd)
        best_c, mem_c = min(best_c, t), max(mem_c, m)
        t, m = run(tool_cmd, ok=(0, 1))
        best_t, mem_t = min(best_t, t), max(mem_t, m)
    findings = subprocess.run(tool_cmd, capture_output=True, text=True).stdout
    count = sum(1 for l in findings.splitlines() if ": warning: " in l or ": error: " in l)
    with open(args.file) as f:
        lines = sum(1 for _ in f)

    print("input: %s (%d lines, %d findings)" % (os.path.relpath(args.file, ROOT), lines, count))
    print("%-28s %10s %10s" % ("", "wall s", "peak MiB"))
    print("%-28s %10.3f %10.1f" % ("clang++ -fsyntax-only", best_c, mem_c))
    print("%-28s %10.3f %10.1f" % ("clang-autoprof check", best_t, mem_t))
    print("%-28s %10.3f %10.3f" % ("ratio (goal < 2)", best_t / best_c, mem_t / mem_c))
    print("machine: %s, %d CPUs; repeat %d, minimum kept" % (platform.platform(), os.cpu_count(), args.repeat))


if __name__ == "__main__":
    main()
