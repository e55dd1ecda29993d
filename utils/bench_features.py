#!/usr/bin/env python3
"""Compares `clang-autoprof features` with `clang++ -fsyntax-only` on the same
translation units, in one run, and prints the time and memory ratios.

Both parse the same device-side compilation (the flags the tool adds are
given to clang++ too), so the ratio is the cost of the analysis on top of
parsing. Each file is timed alternately with both tools; the minimum over
the repetitions is kept.

  utils/bench_features.py [--repeat N] [--tool PATH] [--clang PATH] [files...]
"""
import argparse
import glob
import os
import platform
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    """Runs cmd; returns (seconds, peak RSS in MiB). Fails on a non-zero exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench_features: command failed: %s\n%s" % (" ".join(cmd), err))
    return elapsed, usage.ru_maxrss / 1024.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "clang-autoprof"))
    ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "bench", "corpus", "*.cu")))
    if not files:
        sys.exit("bench_features: no input files")
    flags = ["-std=c++17", "-I" + os.path.join(ROOT, "bench", "corpus")]
    cuda = ["-x", "cuda", "--cuda-path=" + args.cuda_path, "--cuda-gpu-arch=sm_90",
            "--cuda-device-only", "-Wno-unknown-cuda-version"]

    rows = []
    for f in files:
        best_c = best_t = float("inf")
        mem_c = mem_t = 0.0
        for _ in range(args.repeat):
            t, m = run([args.clang, "-fsyntax-only"] + cuda + flags + [f])
            best_c, mem_c = min(best_c, t), max(mem_c, m)
            t, m = run([args.tool, "features", f, "--format=json", "-o", os.devnull, "--"] + flags)
            best_t, mem_t = min(best_t, t), max(mem_t, m)
        rows.append((os.path.basename(f), best_c, best_t, mem_c, mem_t))

    print("%-32s %10s %10s %7s %9s %9s" % ("file", "clang s", "tool s", "ratio", "clang MiB", "tool MiB"))
    for name, c, t, mc, mt in rows:
        print("%-32s %10.3f %10.3f %7.3f %9.1f %9.1f" % (name, c, t, t / c, mc, mt))
    tc = sum(r[1] for r in rows)
    tt = sum(r[2] for r in rows)
    mc = max(r[3] for r in rows)
    mt = max(r[4] for r in rows)
    print("%-32s %10.3f %10.3f %7.3f %9.1f %9.1f" % ("total (%d files)" % len(rows), tc, tt, tt / tc, mc, mt))
    print("machine: %s, %d CPUs; repeat %d, minimum kept" % (platform.platform(), os.cpu_count(), args.repeat))


if __name__ == "__main__":
    main()
