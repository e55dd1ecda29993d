#!/usr/bin/env python3
"""Runs `clang-autoprof optimize` over the corpus and tabulates the results.

  optimize_corpus.py run [--tree T] [--only a,b] [--tool PATH] -o results.json
      On a GPU machine: for each corpus program, copies it to a scratch
      folder, runs `clang-autoprof optimize <copy> --tree=T --build <nvcc
      command> --run <program> --in-place --report <report.json>` (the
      copy is changed, headers that hold kernels included), then
      re-checks a kept rewrite independently: builds it and runs its own
      check with seeds 11 and 12, which verification never used. A kept
      rewrite that fails that check counts as wrong. A kept rewrite that
      passes it is profiled (`clang-autoprof profile --metrics=` DRAM bytes,
      duration and FLOPs) for its share of the bound. Results are appended
      to the output file as they come, so an interrupted run keeps them.
  optimize_corpus.py run --try-all ... -o capture.json
      The same with --tree=fixed-full --try-all: every proposal of every
      kernel is verified, triggered or not, and the full profile is kept:
      what each rewrite gains on each kernel, and every metric's value.
  optimize_corpus.py merge capture.json update.json [...] -o merged.json
      One capture from several: a program's entry in a later file replaces
      its entry in an earlier one (a program captured again, or captured
      later); each entry says which file it came from.
  optimize_corpus.py replay capture.json --tree T -o T.json
      Without a GPU: routes each kernel of the capture through tree T with
      the captured values (`optimize --dry-run --samples`), takes the first
      --attempts proposals that T's leaf metrics trigger, and keeps the
      fastest of those the capture verified. Writes a results file like
      `run` does.
  optimize_corpus.py table results.json [more.json ...]
      Prints per kernel the route's leaf, the number of metrics collected,
      the rewrite kept, its speedup and the share of the bound the
      rewritten kernel reaches (see bound_share), then fast_1, the
      geometric-mean speedup and the count of wrong accepted rewrites, side
      by side for each results file (one per tree).
"""
import argparse
import concurrent.futures
import fcntl
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time

# Programs whose kernels compute in double (manifest "precision").
DOUBLE_PROGRAMS = set()

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "bench", "corpus")


# The H200's peaks (NVIDIA's H200 SXM datasheet): HBM3e bandwidth, and
# FP32 and FP64 arithmetic without tensor cores, in FLOP/s.
PEAK_DRAM_BYTES_PER_S = 4.8e12
PEAK_FP32_FLOPS = 67e12
PEAK_FP64_FLOPS = 34e12
BOUND_METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum",
                 "gpu__time_duration.sum", "derived__flops"]

# optimize's --rtol and --atol defaults (docs/rewrites.md).
DEFAULT_RTOL = 1e-4
DEFAULT_ATOL = 1e-5


def fail(msg):
    print("optimize_corpus: error: " + msg, file=sys.stderr)
    sys.exit(1)


def manifest():
    with open(os.path.join(CORPUS, "manifest.json")) as f:
        return json.load(f)["programs"]


def nvcc():
    root = os.environ.get("CUDAToolkit_ROOT", "/usr/local/cuda")
    return os.path.join(root, "bin", "nvcc")


def quote(a):
    return "'" + a.replace("'", "'\\''") + "'"


def gpu_identity():
    """The first GPU's name and driver version from nvidia-smi, or None."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=60).stdout.strip().splitlines()[0]
        return [s.strip() for s in out.split(",")]
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def optimize_program(p, tool, tree, scratch, lock_path, try_all=False,
                     recheck=True):
    """Optimizes the corpus program p (a manifest entry) in a copy under
    scratch and returns its results entry: program, status, seconds, the
    last lines of stderr, and when optimize wrote them its report, the
    profile it kept (with try_all) and the independent re-check of a kept
    rewrite (with recheck)."""
    work = os.path.join(scratch, p["name"])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    src = os.path.join(work, p["source"])
    shutil.copy(os.path.join(CORPUS, p["source"]), src)
    # The headers programs include (corpus.cuh, kernels in headers).
    for f in os.listdir(CORPUS):
        if f.endswith((".cuh", ".h")):
            shutil.copy(os.path.join(CORPUS, f), work)
    exe = os.path.join(work, p["name"])
    build = " ".join([quote(nvcc())] + [quote(f) for f in p["nvcc_flags"]] +
                     ["-o", quote(exe), quote(src)])
    runcmd = " ".join([quote(exe)] + [quote(a) for a in p["args"]])
    report = os.path.join(work, "report.json")
    # The copy is changed in place: a kept rewrite of a kernel in a header
    # changes the header, which -o (a copy of the source only) cannot hold.
    kept = src
    cmd = [tool, "optimize", src, "--tree=" + tree,
           "--build=" + build, "--run=" + runcmd, "--in-place",
           "--report=" + report, "--timeout=120",
           "--device-lock=" + lock_path]
    # Outputs are compared within the program's documented tolerance (its
    # own check's |got - want| / max(1, |want|)), never tighter than
    # optimize's defaults.
    tol = float(p.get("tolerance", 0))
    if tol > DEFAULT_RTOL:
        cmd += ["--rtol=%g" % tol]
    if tol > DEFAULT_ATOL:
        cmd += ["--atol=%g" % tol]
    profile = os.path.join(work, "profile.json")
    if try_all:
        cmd += ["--try-all", "--compose=false", "--attempts=50",
                "--keep-profile=" + profile]
    cmd += ["--", "-std=c++17"]
    start = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    entry = {"program": p["name"], "status": r.returncode,
             "seconds": round(time.time() - start, 1),
             "stderr": r.stderr.strip().splitlines()[-3:]}
    if os.path.exists(report):
        with open(report) as f:
            entry["report"] = json.load(f)
        if os.path.exists(profile):
            with open(profile) as f:
                entry["profile"] = json.load(f)
        if recheck and entry["report"]["outcome"] != "no rewrite":
            # An independent check with seeds verification never used.
            rexe = exe + "-kept"
            b = subprocess.run(
                [nvcc()] + p["nvcc_flags"] + ["-I" + work, "-o", rexe,
                                              kept], capture_output=True,
                text=True)
            ok = b.returncode == 0
            for seed in ("11", "12"):
                if not ok:
                    break
                with open(lock_path, "a") as lk:
                    fcntl.flock(lk, fcntl.LOCK_EX)
                    c = subprocess.run(
                        [rexe] + p["args"], capture_output=True, text=True,
                        timeout=300,
                        env=dict(os.environ, AUTOPROF_SEED=seed))
                ok = c.returncode == 0
            entry["recheck"] = "pass" if ok else "fail"
            if ok:
                entry["bound"] = profile_bound(
                    tool, entry["report"], rexe, p["args"], work, lock_path)
    return entry


def profile_bound(tool, report, exe, args, work, lock_path):
    """The DRAM bytes, duration and FLOPs of the first launch of each kernel
    with a kept rewrite, from `clang-autoprof profile --metrics=` on the
    rewritten program; {kernel: {metric: value}}, or {kernel: {"error":
    line}}. Without FLOPs (the SASS metrics unavailable) it profiles again
    for the bytes and the duration alone."""
    out = {}
    for k in report["kernels"]:
        if not k.get("kept"):
            continue
        name = k["kernel"].split("<")[0]
        # A template's instantiations are named with their arguments.
        regex = "^" + re.escape(name) + "($|<)"
        got = {}
        for metrics in (BOUND_METRICS, BOUND_METRICS[:3]):
            prof = os.path.join(work, "bound.json")
            if os.path.exists(prof):
                os.remove(prof)
            with open(lock_path, "a") as lk:
                fcntl.flock(lk, fcntl.LOCK_EX)
                r = subprocess.run(
                    [tool, "profile", "--metrics=" + ",".join(metrics),
                     "--kernel=" + regex, "--launch-count=1", "-o", prof,
                     "--timeout=300", "--", exe] + args,
                    capture_output=True, text=True,
                    env=dict(os.environ, AUTOPROF_SEED="1"))
            got = {"error": (r.stderr.strip().splitlines() or ["exit %d" %
                                                            r.returncode])[-1]}
            if os.path.exists(prof):
                with open(prof) as f:
                    recs = json.load(f).get("records", [])
                if recs:
                    got = {m: v.get("value") for m, v in
                           recs[0].get("metrics", {}).items()
                           if v.get("value") is not None}
            # FLOPs missing (the SASS metrics unavailable): the bytes and
            # the duration are enough; nothing at all: try without FLOPs.
            if all(m in got for m in BOUND_METRICS[:3]):
                break
        out[k["kernel"]] = got
    return out


def bound_share(m, double):
    """The share of the bound a profiled kernel reaches: its DRAM bytes over
    what the peak bandwidth moves in its duration, or its FLOPs over what
    the FP32 (FP64 when `double`) peak does, whichever is larger; with
    which one binds. None without the bytes and the duration."""
    t = (m or {}).get("gpu__time_duration.sum")
    rd, wr = (m or {}).get("dram__bytes_read.sum"), (m or {}).get(
        "dram__bytes_write.sum")
    if not t or rd is None or wr is None:
        return None
    secs = t * 1e-9
    mem = (rd + wr) / (secs * PEAK_DRAM_BYTES_PER_S)
    flops = m.get("derived__flops")
    if flops is None:
        return mem, "DRAM"
    comp = flops / (secs * (PEAK_FP64_FLOPS if double else PEAK_FP32_FLOPS))
    return (mem, "DRAM") if mem >= comp else (comp,
                                              "FP64" if double else "FP32")


def run(args):
    programs = manifest()
    if args.only:
        wanted = set(args.only.split(","))
        programs = [p for p in programs if p["name"] in wanted]
        missing = wanted - {p["name"] for p in programs}
        if missing:
            fail("not in the manifest: " + ", ".join(sorted(missing)))
    results = []
    if os.path.exists(args.output):
        with open(args.output) as f:
            results = json.load(f)["programs"]
    done = {r["program"] for r in results}
    scratch = args.scratch
    os.makedirs(scratch, exist_ok=True)
    header = gpu_identity()
    if not header:
        fail("no GPU answers nvidia-smi")
    lock_path = os.path.join(scratch, "device.lock")
    mutex = threading.Lock()

    def one(p):
        entry = optimize_program(p, args.tool, args.tree, scratch, lock_path,
                                 args.try_all)
        with mutex:
            results.append(entry)
            print("%-28s exit %d, %.0f s, %s" % (
                p["name"], entry["status"], entry["seconds"],
                entry.get("report", {}).get("outcome", "no report: " +
                                            " ".join(entry["stderr"]))),
                flush=True)
            with open(args.output + ".tmp", "w") as f:
                json.dump({"gpu": header[0], "driver": header[1],
                           "date": time.strftime("%Y-%m-%d"),
                           "tree": args.tree, "try_all": args.try_all,
                           "programs": results}, f,
                          indent=1)
            os.replace(args.output + ".tmp", args.output)

    todo = [p for p in programs if p["name"] not in done]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        list(ex.map(one, todo))


def merge(args):
    out, order, by_name = None, [], {}
    for path in args.files:
        try:
            with open(path) as f:
                cap = json.load(f)
            cap["gpu"], cap["driver"], cap["date"], cap["programs"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            fail("%s is not a capture of optimize_corpus.py run: %s" %
                 (path, e))
        if out is None:
            out = {k: v for k, v in cap.items() if k != "programs"}
            out["merged_from"] = []
        elif (cap["gpu"], cap["driver"], cap.get("tree"),
              cap.get("try_all")) != (out["gpu"], out["driver"],
                                      out.get("tree"), out.get("try_all")):
            fail("%s was captured otherwise (GPU, driver, tree or --try-all) "
                 "than %s" % (path, args.files[0]))
        out["merged_from"].append({"file": os.path.basename(path),
                                   "date": cap["date"]})
        for e in cap["programs"]:
            e = dict(e, captured_in=os.path.basename(path))
            if e["program"] not in by_name:
                order.append(e["program"])
            by_name[e["program"]] = e
    out["programs"] = [by_name[n] for n in order]
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)


def replay(args):
    with open(args.capture) as f:
        cap = json.load(f)
    sources = {p["name"]: p["source"] for p in manifest()}
    results = []
    tmp = os.path.join(args.scratch, "replay")
    os.makedirs(tmp, exist_ok=True)
    for e in cap["programs"]:
        entry = {"program": e["program"], "status": e["status"]}
        rep = e.get("report")
        if not rep or "profile" not in e:
            entry["stderr"] = e.get("stderr", [])
            results.append(entry)
            continue
        prof = os.path.join(tmp, e["program"] + ".profile.json")
        with open(prof, "w") as f:
            json.dump(e["profile"], f)
        src = os.path.join(CORPUS, sources[e["program"]])
        r = subprocess.run([args.tool, "optimize", "--dry-run",
                            "--tree=" + args.tree, "--samples=" + prof, src,
                            "--", "-std=c++17"], capture_output=True,
                           text=True)
        if r.returncode != 0:
            fail("dry run of %s failed: %s" % (e["program"], r.stderr.strip()))
        # kernel -> (leaf, n metrics, triggered transformations in order)
        seen, kernel, name = {}, None, None
        for line in r.stdout.splitlines():
            if line.startswith("kernel "):
                kernel = line.split()[1]
                seen[kernel] = ["-", 0, []]
            elif line.startswith("  leaf: "):
                leaf, n = line[len("  leaf: "):].split(", ")
                seen[kernel][0] = leaf
                seen[kernel][1] = int(n.split()[0])
            elif line.startswith("  ") and not line.startswith("    ") and ": " in line:
                name = line.strip().split(":")[0]
            elif line.startswith("    triggered: "):
                seen[kernel][2].append(name)
        kernels = []
        for k in rep["kernels"]:
            leaf, n, trig = seen.get(k["kernel"], ["-", 0, []])
            tried = trig[:args.attempts]
            best, best_sp = None, None
            attempts = []
            for a in k["attempts"]:
                if a["transformation"] in tried:
                    attempts.append(a)
                    if a["accepted"] and (best_sp is None or a["speedup"] > best_sp):
                        best, best_sp = a["transformation"], a["speedup"]
            kernels.append({"kernel": k["kernel"], "leaf": leaf,
                            "metric_count": n,
                            "attempts": attempts, "kept": best,
                            "speedup": best_sp})
        entry["report"] = {"kernels": kernels,
                           "outcome": "verified" if any(k["kept"] for k in kernels) else "no rewrite"}
        # The capture re-checked the rewrite it kept; a replay keeps one of
        # the verified rewrites, each passed the program's check and the
        # output comparison, and inherits the capture's re-check when the
        # same rewrite is kept.
        entry["recheck"] = e.get("recheck")
        results.append(entry)
    out = {"gpu": cap["gpu"], "driver": cap["driver"], "date": cap["date"],
           "tree": args.tree, "replayed_from": os.path.basename(args.capture),
           "programs": results}
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)


def rows(data):
    """(program, kernel, leaf, n metrics, kept, speedup or None, wrong,
    share of the bound as text)."""
    out = []
    for e in data["programs"]:
        rep = e.get("report")
        if not rep:
            out.append((e["program"], "-", "-", 0, "error: " +
                        " ".join(e.get("stderr", []))[:60], None, False, "-"))
            continue
        wrong = e.get("recheck") == "fail"
        double = e["program"] in DOUBLE_PROGRAMS
        for k in rep["kernels"]:
            sp = k.get("speedup") if k.get("kept") else None
            b = (e.get("bound") or {}).get(k["kernel"])
            share = bound_share(b, double) if k.get("kept") else None
            share_text = ("%.0f%% %s" % (100 * share[0], share[1])
                          if share else "-")
            out.append((e["program"], k["kernel"], k.get("leaf") or "-",
                        k.get("metric_count", len(k.get("metrics", {}))),
                        k.get("kept") or "no rewrite",
                        sp, wrong and bool(k.get("kept")), share_text))
    return out


def summary(rs):
    n = len(rs)
    fast = [r for r in rs if r[5] and not r[6]]
    logs = [math.log(r[5]) if (r[5] and not r[6]) else 0.0 for r in rs]
    geo = math.exp(sum(logs) / n) if n else 1.0
    wrong = sum(1 for r in rs if r[6])
    return n, len(fast), geo, wrong


def table(args):
    global DOUBLE_PROGRAMS
    DOUBLE_PROGRAMS = {p["name"] for p in manifest()
                       if p.get("precision") == "double"}
    datas = []
    for path in args.files:
        with open(path) as f:
            datas.append(json.load(f))
    for d in datas:
        how = (" (replayed from %s)" % d["replayed_from"]
               if "replayed_from" in d else
               " with --try-all (every proposal verified)"
               if d.get("try_all") else "")
        print("### tree `%s`%s: %s, driver %s, %s\n" % (
            d["tree"], how, d["gpu"], d["driver"], d["date"]))
        print("| program | kernel | leaf | metrics | kept | speedup | "
              "share of the bound |")
        print("| --- | --- | --- | ---: | --- | ---: | ---: |")
        rs = rows(d)
        for r in rs:
            sp = ("%.2fx" % r[5]) if r[5] else "-"
            if r[6]:
                sp += " (wrong)"
            print("| %s | %s | %s | %d | %s | %s | %s |" % (
                r[0], r[1], r[2], r[3], r[4], sp, r[7]))
        near = {p["name"] for p in manifest() if p["bottleneck"] == "near-limit"}
        for label, sel in (("naive", [r for r in rs if r[0] not in near]),
                           ("near-limit", [r for r in rs if r[0] in near])):
            n, fast, geo, wrong = summary(sel)
            print("\n%s: %d kernels, fast_1 %.0f%% (%d), geometric-mean "
                  "speedup %.3fx, wrong accepted rewrites %d" % (
                      label, n, 100.0 * fast / n if n else 0, fast, geo,
                      wrong))
        print()
    if len(datas) > 1:
        near = {p["name"] for p in manifest() if p["bottleneck"] == "near-limit"}
        print("| tree | naive kernels | fast_1 | geomean | near-limit kernels "
              "rewritten | wrong |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for d in datas:
            rs = rows(d)
            n, fast, geo, wrong = summary([r for r in rs if r[0] not in near])
            nl = sum(1 for r in rs if r[0] in near and r[5])
            print("| %s | %d | %.0f%% | %.3fx | %d | %d |" % (
                d["tree"] + (" --try-all" if d.get("try_all") else ""), n, 100.0 * fast / n if n else 0, geo, nl,
                sum(1 for r in rs if r[6])))


def times(args):
    """Where the time of each file's runs went, by phase (the reports'
    `timings`), summed over its programs."""
    print("| file | programs | seconds | phase | commands | seconds | "
          "waiting for the device lock |")
    print("| --- | ---: | ---: | --- | ---: | ---: | ---: |")
    for path in args.files:
        with open(path) as f:
            d = json.load(f)
        total, n, phases = 0.0, 0, {}
        for e in d["programs"]:
            total += e.get("seconds", 0.0)
            n += 1
            for ph, t in ((e.get("report") or {}).get("timings") or {}).items():
                c = phases.setdefault(ph, [0, 0.0, 0.0])
                c[0] += t["count"]
                c[1] += t["seconds"]
                c[2] += t["lock_wait_seconds"]
        name = os.path.basename(path)
        if not phases:
            print("| %s | %d | %.1f | (no timings) | | | |" % (name, n, total))
        for ph, c in sorted(phases.items()):
            print("| %s | %d | %.1f | %s | %d | %.1f | %.1f |" % (
                name, n, total, ph, c[0], c[1], c[2]))


def main():
    global CORPUS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--tree", default="default")
    r.add_argument("--only", default="")
    r.add_argument("--tool", default=os.path.join(ROOT, "build", "bin",
                                                  "clang-autoprof"))
    r.add_argument("--scratch", default="/tmp/autoprof-optimize")
    r.add_argument("--try-all", action="store_true")
    r.add_argument("-j", dest="jobs", type=int, default=3,
                   help="programs optimized at once; their timed runs take "
                        "turns on the GPU (--device-lock), their builds "
                        "overlap")
    r.add_argument("-o", dest="output", required=True)
    p = sub.add_parser("replay")
    p.add_argument("capture")
    p.add_argument("--tree", required=True)
    p.add_argument("--attempts", type=int, default=3)
    p.add_argument("--tool", default=os.path.join(ROOT, "build", "bin",
                                                  "clang-autoprof"))
    p.add_argument("--scratch", default="/tmp/autoprof-optimize")
    p.add_argument("-o", dest="output", required=True)
    m = sub.add_parser("merge")
    m.add_argument("files", nargs="+")
    m.add_argument("-o", dest="output", required=True)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    w = sub.add_parser("times")
    w.add_argument("files", nargs="+")
    for sp in (r, p, t):
        sp.add_argument("--corpus", default=CORPUS,
                        help="the corpus directory, with its manifest.json "
                             "(default: bench/corpus)")
    args = ap.parse_args()
    if getattr(args, "corpus", None):
        CORPUS = os.path.abspath(args.corpus)
        if not os.path.isfile(os.path.join(CORPUS, "manifest.json")):
            fail("no manifest.json in %s (--corpus)" % CORPUS)
    if args.cmd in ("run", "replay"):
        if not os.access(args.tool, os.X_OK):
            fail("no tool at %s (--tool)" % args.tool)
        run(args) if args.cmd == "run" else replay(args)
    elif args.cmd == "merge":
        merge(args)
    elif args.cmd == "times":
        times(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
