#!/usr/bin/env python3
"""Tries `clang-autoprof check`'s performance gate on corpus programs.

  perf_gate_corpus.py [--only a,b,...] [--slow PROGRAM:KERNEL] [--runs N]
                      [--tolerance F] [--tool PATH] [-j N] -o results.json

On a GPU machine, for each program (by default six of bench/corpus, of
several kinds, with a template and programs of two and three kernels):

1. copies it to a scratch folder and builds it with the nvcc flags of
   bench/corpus/manifest.json;
2. records a baseline: `check <source> --run <program> --perf-record=...`;
3. checks the unchanged program against it (`--perf-baseline`, with
   `--perf-record` of the same runs for the table): it must pass.

Then it makes a slowed copy of one program (--slow, by default
batched_matmul_naive:batchedMatmulNaive) and checks it against that
program's baseline: the gate must report the kernel with
autoprof-perf-regression and exit with 1.

The slowdown is one source edit: at the start of the kernel's body (its
definition `__global__ ... <kernel>(...) {`) it inserts

    { long long autoprof_t0 = clock64();
      while (clock64() - autoprof_t0 < <cycles>) { } }

a busy wait of every thread, `clock64()` being a volatile read the compiler
keeps. <cycles> is twice the kernel's baseline median in nanoseconds: at a
clock of at most 2 GHz, each wave of blocks waits at least the kernel's whole
baseline time, so the kernel takes at least twice as long.

Only autoprof-perf-regression runs (`--checks=-*,autoprof-perf-regression`):
the static findings of the corpus are not what is tried here. Runs take
turns on the GPU (`--device-lock`); builds and the tool's parsing overlap
(-j). Prints a Markdown table (program, kernel, baseline us, now us, ratio,
verdict) and writes the results as JSON; exits with 1 when an unchanged
program fails the gate or the slowed kernel is not caught.

The tool is build/bin/clang-autoprof of this checkout by default; --tool
takes another, e.g. bin/clang-autoprof of the tree that utils/pack-tests.sh
packs (the injection library and Clang's headers are found beside it). nvcc
is $CUDAToolkit_ROOT/bin/nvcc, by default /usr/local/cuda/bin/nvcc.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from optimize_corpus import CORPUS, ROOT, manifest, nvcc, quote  # noqa: E402

DEFAULT_PROGRAMS = ["batched_matmul_naive", "argmax_blocks",
                    "avgpool2d_divergent", "gemv_warp_per_row", "maxpool2d",
                    "prefix_sum_naive"]
DEFAULT_SLOW = "batched_matmul_naive:batchedMatmulNaive"
GATE_CHECKS = "--checks=-*,autoprof-perf-regression"


def fail(msg, status=2):
    print("perf_gate_corpus: error: " + msg, file=sys.stderr)
    sys.exit(status)


def slow_down(text, kernel, cycles):
    """The text with a busy wait of `cycles` clock cycles at the start of
    the body of kernel `kernel`, or None when no definition of it is
    found."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(kernel), text):
        # The declaration since the last statement, block or directive.
        start = max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start()),
                    text.rfind("#", 0, m.start()))
        if "__global__" not in text[start + 1:m.start()]:
            continue
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            if depth == 0:
                break
            i += 1
        j = i + 1
        while j < len(text) and text[j].isspace():
            j += 1
        if j >= len(text) or text[j] != "{":
            continue  # a declaration without a body
        spin = ("\n  // perf_gate_corpus.py: a deliberate slowdown.\n"
                "  { long long autoprof_t0 = clock64();\n"
                "    while (clock64() - autoprof_t0 < %dLL) { } }\n" % cycles)
        return text[:j + 1] + spin + text[j + 1:]
    return None


def gpu():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=60).stdout.strip().splitlines()
        return [s.strip() for s in out[0].split(",")]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        fail("no GPU answers nvidia-smi")


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def findings(sarif_path):
    """{kernel name: (level, message)} of the autoprof-perf-regression
    results of a SARIF log."""
    log = load(sarif_path)
    out = {}
    if not log:
        return out
    for r in log["runs"][0]["results"]:
        if r["ruleId"] != "autoprof-perf-regression":
            continue
        m = re.match(r"kernel '(.*?)' ", r["message"]["text"])
        if m:
            out[m.group(1)] = (r["level"], r["message"]["text"])
    return out


class Runner:
    def __init__(self, args):
        self.args = args
        self.lock = os.path.join(args.scratch, "device.lock")

    def check(self, src, exe, p, extra):
        """Runs the gate; returns (exit status, stderr lines)."""
        run = " ".join([quote(exe)] + [quote(a) for a in p["args"]])
        cmd = [self.args.tool, "check", src, GATE_CHECKS, "--run=" + run,
               "--perf-runs=%d" % self.args.runs,
               "--perf-tolerance=%g" % self.args.tolerance,
               "--timeout=300", "--device-lock=" + self.lock] + extra + [
                   "--", "-std=c++17"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        return r.returncode, r.stderr.strip().splitlines()

    def build(self, src, exe, p):
        b = subprocess.run([nvcc()] + p["nvcc_flags"] + ["-o", exe, src],
                           capture_output=True, text=True)
        if b.returncode != 0:
            lines = b.stderr.strip().splitlines() or ["exit %d" % b.returncode]
            return "build failed: " + next(
                (l for l in lines if "error" in l), lines[-1])
        return None

    def one(self, p, slow_kernel):
        """Records, re-checks and, with slow_kernel, checks a slowed copy."""
        work = os.path.join(self.args.scratch, p["name"])
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        src = os.path.join(work, p["source"])
        shutil.copy(os.path.join(CORPUS, p["source"]), src)
        shutil.copy(os.path.join(CORPUS, "corpus.cuh"), work)
        exe = os.path.join(work, p["name"])
        base = os.path.join(work, "baseline.json")
        entries = []

        def entry(label, expect):
            e = {"program": label, "expect": expect, "kernels": [],
                 "stderr": []}
            entries.append(e)
            return e

        e = entry(p["name"], "pass")
        why = self.build(src, exe, p)
        if why:
            e["error"] = why
            return entries
        status, err = self.check(src, exe, p, ["--perf-record=" + base])
        if status != 0:
            e["error"] = "recording failed (exit %d): %s" % (
                status, err[-1] if err else "")
            e["stderr"] = err[-3:]
            return entries
        e.update(self.compare(src, exe, p, base, work, "unchanged"))

        if slow_kernel:
            s = entry(p["name"] + " (slowed " + slow_kernel + ")", "caught")
            s["slowed_kernel"] = slow_kernel
            recorded = load(base)["kernels"]
            times = [k["median_ns"] for k in recorded
                     if k["name"] == slow_kernel or
                     k["name"].startswith(slow_kernel + "<")]
            if not times:
                s["error"] = "kernel %s did not launch" % slow_kernel
                return entries
            cycles = max(20000, int(2 * max(times)))
            s["spin_cycles"] = cycles
            with open(src) as f:
                text = slow_down(f.read(), slow_kernel, cycles)
            if text is None:
                s["error"] = "no definition of kernel %s" % slow_kernel
                return entries
            slow_dir = os.path.join(work, "slowed")
            os.makedirs(slow_dir)
            slow_src = os.path.join(slow_dir, p["source"])
            with open(slow_src, "w") as f:
                f.write(text)
            shutil.copy(os.path.join(CORPUS, "corpus.cuh"), slow_dir)
            slow_exe = os.path.join(slow_dir, p["name"])
            why = self.build(slow_src, slow_exe, p)
            if why:
                s["error"] = why
                return entries
            s.update(self.compare(slow_src, slow_exe, p, base, slow_dir,
                                  "slowed"))
        return entries

    def compare(self, src, exe, p, base, work, tag):
        now = os.path.join(work, tag + ".json")
        sarif = os.path.join(work, tag + ".sarif")
        status, err = self.check(src, exe, p, [
            "--perf-baseline=" + base, "--perf-record=" + now,
            "--format=sarif", "-o", sarif])
        out = {"status": status, "stderr": err[-3:], "kernels": []}
        if status not in (0, 1):
            out["error"] = "the gate failed (exit %d): %s" % (
                status, err[-1] if err else "")
            return out
        found = findings(sarif)
        b = {k["name"]: k["median_ns"] for k in load(base)["kernels"]}
        n = {k["name"]: k["median_ns"]
             for k in (load(now) or {"kernels": []})["kernels"]}
        for name in list(b) + [k for k in n if k not in b]:
            level = found.get(name, (None, None))[0]
            if level == "error":
                verdict = "slower"
            elif level == "warning":
                verdict = "not launched"
            elif name not in b:
                verdict = "not in baseline"
            else:
                verdict = "within"
            ratio = n[name] / b[name] if name in n and name in b else None
            out["kernels"].append({"kernel": name, "baseline_ns": b.get(name),
                                   "now_ns": n.get(name), "ratio": ratio,
                                   "verdict": verdict})
        return out


def judge(e):
    """Whether entry e met its expectation."""
    if "error" in e:
        return False
    if e["expect"] == "pass":
        return e["status"] == 0 and all(k["verdict"] == "within"
                                        for k in e["kernels"])
    caught = [k for k in e["kernels"] if k["verdict"] == "slower"]
    return (e["status"] == 1 and len(caught) >= 1 and
            all(k["kernel"] == e["slowed_kernel"] or
                k["kernel"].startswith(e["slowed_kernel"] + "<")
                for k in caught))


def table(data):
    print("### check --perf-baseline on the corpus: %s, driver %s, %s, "
          "%d runs, tolerance %g\n" % (data["gpu"], data["driver"],
                                        data["date"], data["runs"],
                                        data["tolerance"]))
    print("| program | kernel | baseline us | now us | ratio | verdict |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    us = lambda ns: "%.1f" % (ns / 1e3) if ns else "-"
    for e in data["programs"]:
        if "error" in e:
            print("| %s | - | - | - | - | error: %s |" % (e["program"],
                                                          e["error"]))
            continue
        for k in e["kernels"]:
            print("| %s | %s | %s | %s | %s | %s |" % (
                e["program"], k["kernel"], us(k["baseline_ns"]),
                us(k["now_ns"]),
                "%.2fx" % k["ratio"] if k["ratio"] else "-", k["verdict"]))
    s = data["summary"]
    print("\nunchanged programs passing: %d of %d; slowed kernels caught: %d "
          "of %d; %.0f s" % (s["passed"], s["unchanged"], s["caught"],
                             s["slowed"], data["seconds"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default=",".join(DEFAULT_PROGRAMS),
                    help="corpus programs, by manifest name")
    ap.add_argument("--slow", default=DEFAULT_SLOW,
                    help="PROGRAM:KERNEL to slow down; '' for none")
    ap.add_argument("--runs", type=int, default=5,
                    help="--perf-runs of each check")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="--perf-tolerance of each check")
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin",
                                                   "clang-autoprof"))
    ap.add_argument("--scratch", default="/tmp/autoprof-perf-gate")
    ap.add_argument("-j", dest="jobs", type=int, default=3,
                    help="programs at once; their timed runs take turns")
    ap.add_argument("-o", dest="output", required=True)
    args = ap.parse_args()
    if not os.access(args.tool, os.X_OK):
        fail("no tool at %s (--tool)" % args.tool)
    if not os.access(nvcc(), os.X_OK):
        fail("no nvcc at %s (set CUDAToolkit_ROOT)" % nvcc())
    by_name = {p["name"]: p for p in manifest()}
    names = [n for n in args.only.split(",") if n]
    missing = [n for n in names if n not in by_name]
    if missing:
        fail("not in the manifest: " + ", ".join(missing))
    slow_program, slow_kernel = None, None
    if args.slow:
        if ":" not in args.slow:
            fail("--slow takes PROGRAM:KERNEL, not '%s'" % args.slow)
        slow_program, slow_kernel = args.slow.split(":", 1)
        if slow_program not in names:
            fail("--slow names %s, which --only leaves out" % slow_program)
        if slow_kernel not in by_name[slow_program]["kernels"]:
            fail("%s has no kernel %s; its kernels: %s" % (
                slow_program, slow_kernel,
                ", ".join(by_name[slow_program]["kernels"])))
    name, driver = gpu()
    os.makedirs(args.scratch, exist_ok=True)
    runner = Runner(args)
    start = time.time()
    mutex = threading.Lock()
    results = {}

    def one(n):
        began = time.time()
        entries = runner.one(by_name[n],
                             slow_kernel if n == slow_program else None)
        for e in entries:
            e["seconds"] = round(time.time() - began, 1)
        with mutex:
            results[n] = entries
            for e in entries:
                print("%-48s %s" % (e["program"], "ok" if judge(e) else
                                    "NOT OK: " + e.get("error", ", ".join(
                                        "%s %s" % (k["kernel"], k["verdict"])
                                        for k in e["kernels"]))),
                      file=sys.stderr, flush=True)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        list(ex.map(one, names))
    programs = [e for n in names for e in results[n]]
    for e in programs:
        e["ok"] = judge(e)
    unchanged = [e for e in programs if e["expect"] == "pass"]
    slowed = [e for e in programs if e["expect"] == "caught"]
    data = {"gpu": name, "driver": driver, "date": time.strftime("%Y-%m-%d"),
            "runs": args.runs, "tolerance": args.tolerance,
            "seconds": round(time.time() - start, 1),
            "programs": programs,
            "summary": {"unchanged": len(unchanged),
                        "passed": sum(e["ok"] for e in unchanged),
                        "slowed": len(slowed),
                        "caught": sum(e["ok"] for e in slowed)}}
    with open(args.output + ".tmp", "w") as f:
        json.dump(data, f, indent=1)
    os.replace(args.output + ".tmp", args.output)
    table(data)
    sys.exit(0 if all(e["ok"] for e in programs) else 1)


if __name__ == "__main__":
    main()
