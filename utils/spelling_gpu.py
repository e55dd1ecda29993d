#!/usr/bin/env python3
"""Verifies a rewrite on every spelling of a kernel, on a GPU.

  spelling_gpu.py --tool=<clang-autoprof> --transformation=<name>
                  [--only=<spelling>,...] <family-dir> [-o results.json]

For every program <family-dir>/*.cu (a kernel spelled one way, with the
host code of the family's *_common.cuh), runs `clang-autoprof optimize
--try-all --transformations=<name>`: build and time the original, build,
run with several seeds, compare and time the rewrite. Prints one row per
spelling: the verdict, the original's and the rewrite's median times, the
speedup and its ratio to base.cu's, and the rewrite's time over base.cu's
rewrite's. --only runs base.cu and the spellings named (file names without
.cu). Exits 1 when a spelling's rewrite is not verified faster, or
when the rewrite is more than 15% away from base.cu's both in speedup and
in time: a spelling whose original is slower than the base's (one that
accumulates in global memory) may gain more, but its rewrite must run as
fast as the base's.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

TOLERANCE = 0.15


def fail(msg):
    print("spelling_gpu: error: " + msg, file=sys.stderr)
    sys.exit(2)


def nvcc():
    cuda = os.environ.get("CUDAToolkit_ROOT", "/usr/local/cuda")
    path = os.path.join(cuda, "bin", "nvcc")
    if not os.access(path, os.X_OK):
        fail("nvcc not found at " + path)
    return path


def verify(tool, transformation, family, src, scratch):
    name = os.path.splitext(os.path.basename(src))[0]
    # The family's programs include ../../corpus/corpus.cuh: keep the
    # layout of bench/ in the scratch copy.
    bench = os.path.dirname(os.path.dirname(os.path.abspath(family)))
    top = os.path.join(scratch, name)
    shutil.rmtree(top, ignore_errors=True)
    work = os.path.join(top, "spelling", os.path.basename(os.path.normpath(family)))
    shutil.copytree(family, work)
    os.makedirs(os.path.join(top, "corpus"))
    shutil.copy(os.path.join(bench, "corpus", "corpus.cuh"),
                os.path.join(top, "corpus"))
    local = os.path.join(work, os.path.basename(src))
    exe = os.path.join(work, name + ".bin")
    build = " ".join(shlex.quote(a) for a in
                     [nvcc(), "-std=c++17", "-O3", "-arch=sm_90", "-o", exe,
                      local])
    report = os.path.join(work, "report.json")
    cmd = [tool, "optimize", local, "--transformations=" + transformation,
           "--try-all", "--attempts=4", "--build=" + build,
           "--run=" + shlex.quote(exe), "--report=" + report,
           "--timeout=120", "--rtol=1e-3", "--atol=1e-3", "--",
           "-std=c++17", "-I" + work]
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    row = {"spelling": name, "status": r.returncode,
           "seconds": round(time.time() - start, 1), "verdict": None,
           "speedup": None,
           "stderr": r.stderr.strip().splitlines()[-3:]}
    if os.path.exists(report):
        with open(report) as f:
            rep = json.load(f)
        # A transformation with variants (`block-shape(32x8)`) makes one
        # attempt each: the row shows the kept one, else the fastest.
        tried = [a for k in rep.get("kernels", [])
                 for a in k.get("attempts", [])
                 if a.get("transformation") == transformation or
                 str(a.get("transformation", "")).startswith(
                     transformation + "(")]
        tried.sort(key=lambda a: (bool(a.get("accepted")),
                                  a.get("speedup") or 0.0))
        for a in tried[-1:]:
            row["variant"] = a.get("transformation")
            row["verdict"] = a.get("verdict")
            row["speedup"] = a.get("speedup")
            row["accepted"] = a.get("accepted")
            for key in ("original", "candidate"):
                t = a.get(key) or {}
                row[key + "_median_us"] = (
                    t["median_ns"] / 1000.0
                    if t.get("median_ns") is not None else None)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--transformation", required=True)
    ap.add_argument("--only", default="",
                    help="comma-separated spellings to run besides base")
    ap.add_argument("family")
    ap.add_argument("-o", dest="output")
    args = ap.parse_args()
    if not os.path.isdir(args.family):
        fail("'%s' is not a directory" % args.family)
    sources = sorted(os.path.join(args.family, f)
                     for f in os.listdir(args.family) if f.endswith(".cu"))
    if not any(os.path.basename(s) == "base.cu" for s in sources):
        fail("'%s' has no base.cu" % args.family)
    if args.only:
        wanted = set(args.only.split(",")) | {"base"}
        names = {os.path.basename(s)[:-3] for s in sources}
        for w in sorted(wanted - names):
            fail("'%s' has no spelling '%s'" % (args.family, w))
        sources = [s for s in sources if os.path.basename(s)[:-3] in wanted]
    scratch = tempfile.mkdtemp(prefix="spelling-")
    rows = [verify(args.tool, args.transformation, args.family, s, scratch)
            for s in sources]
    base = next(r for r in rows if r["spelling"] == "base")
    ok = True
    print("| spelling | verdict | original | rewritten | speedup | speedup vs base | rewritten vs base |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        ratio = time_ratio = None
        if r["speedup"] and base["speedup"]:
            ratio = r["speedup"] / base["speedup"]
        if r.get("candidate_median_us") and base.get("candidate_median_us"):
            time_ratio = r["candidate_median_us"] / base["candidate_median_us"]
        r["ratio_to_base"] = ratio
        r["rewritten_time_ratio_to_base"] = time_ratio
        close = lambda x: x is not None and abs(x - 1) <= TOLERANCE
        good = r.get("accepted") and (close(ratio) or close(time_ratio))
        ok &= bool(good)
        us = lambda k: ("%.1f us" % r[k]) if r.get(k) is not None else "-"
        print("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["spelling"],
            ("%s (%s)" % (r["verdict"], r["variant"])
             if r["verdict"] and r.get("variant") != args.transformation
             else r["verdict"]) or "(none: %s)" % " ".join(r["stderr"]),
            us("original_median_us"), us("candidate_median_us"),
            "%.2fx" % r["speedup"] if r["speedup"] else "-",
            "%.2f" % ratio if ratio else "-",
            "%.2f" % time_ratio if time_ratio else "-"))
    if args.output:
        with open(args.output, "w") as f:
            json.dump({"transformation": args.transformation,
                       "family": os.path.basename(os.path.normpath(args.family)),
                       "rows": rows}, f, indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
