#!/usr/bin/env python3
"""clang-autoprof profile side by side with Nsight Compute, on a GPU machine.

  utils/profile_vs_ncu.py agreement [--programs a,b,...] [-o results.json]
      For each corpus program, collects the same metric list for the first
      launch of its first kernel with `clang-autoprof profile --metrics` and
      with `ncu --metrics`, and compares the values: counters (names ending
      in .sum, launch attributes) must agree within 2%, throughputs,
      percentages and ratios within 10%.

Both tools run with the same --cache-control (all, the default of both, or
none) and with clocks left as they are (--clock-control none for ncu; locking
them needs root and changes a setting of the device that other processes
see). --programs=all takes every program of bench/corpus.

  utils/profile_vs_ncu.py table RESULTS.json
      Prints the Markdown table of a results file again.

  utils/profile_vs_ncu.py cost [--programs a,b,...] [--repeat N] [-o results.json]
      Wall time of the program alone, of `clang-autoprof profile` with the
      metric list, of `ncu` with the same list and of `ncu --set full`, each
      selecting the same kernel launch, N times each in one run (median).

Both print a Markdown table (docs/benchmarks.md holds the results) and write
the measurements as JSON. Programs are built with nvcc from bench/corpus.
"""
import argparse
import csv
import datetime
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import corpus  # noqa: E402

# Twelve programs of different kinds: memory-bound, compute-bound,
# reductions, atomics, shared-memory tiling, irregular access.
PROGRAMS = ["saxpy_float4", "copy_float4", "relu", "gelu_tanh",
            "matmul_naive", "matmul_smem_tiled", "transpose_naive",
            "transpose_smem_conflicts", "reduce_sum_interleaved",
            "histogram_global_atomics", "spmv_csr_scalar", "stencil2d_5pt"]

COUNTERS = [
    "dram__bytes_read.sum", "dram__bytes_write.sum", "smsp__inst_executed.sum",
    "sm__inst_executed.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "lts__t_bytes.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
]
RATES = [
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "lts__t_sector_hit_rate.pct",
    "smsp__issue_active.avg.pct_of_peak_sustained_active",
    "sm__maximum_warps_per_active_cycle_pct",
]
LAUNCH = [
    "launch__grid_size", "launch__block_size", "launch__registers_per_thread",
    "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
    "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks",
    "launch__waves_per_multiprocessor",
]
METRICS = COUNTERS + RATES + LAUNCH
TIME = "gpu__time_duration.sum"
# Reported but not judged: the duration varies from run to run, and the
# shared-memory block limit depends on the carveout the driver configures
# for a launch, which the driver API does not expose (the tool divides the
# SM's full shared memory).
INFORMATIONAL = {TIME, "launch__occupancy_limit_shared_mem"}


def fail(msg):
    sys.exit("profile_vs_ncu: error: " + msg)


def find_ncu():
    for c in [shutil.which("ncu"), "/usr/local/cuda/bin/ncu"] + sorted(
            __import__("glob").glob("/opt/nvidia/nsight-compute/*/ncu")):
        if c and os.access(c, os.X_OK):
            return c
    fail("ncu not found")


def tolerance(metric):
    if metric in COUNTERS or metric.startswith("launch__") and \
            metric != "launch__waves_per_multiprocessor":
        return 0.02
    return 0.10


def run(cmd, timeout=600):
    t = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return r, time.monotonic() - t


def autoprof_cmd(tool, kernel, metrics, out, exe, args, caches):
    return [tool, "profile", "--metrics=" + ",".join(metrics),
            "--cache-control=" + caches, "--kernel=^%s$" % kernel,
            "--launch-count=1", "-o", out, "--", exe] + args


def ncu_cmd(ncu, kernel, exe, args, caches, metrics=None, full=False):
    cmd = [ncu, "--clock-control", "none", "--cache-control", caches,
           "-k", "regex:^%s$" % kernel, "-c", "1", "--csv", "--page", "raw",
           "--print-units", "base"]
    cmd += ["--set", "full"] if full else ["--metrics", ",".join(metrics)]
    return cmd + [exe] + args


def parse_ncu(text):
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    start = next((i for i, r in enumerate(rows) if r and r[0] == "ID"), None)
    if start is None or len(rows) < start + 3:
        return None
    head, values = rows[start], rows[start + 2]
    out = {}
    for h, v in zip(head, values):
        try:
            out[h] = float(v.replace(",", ""))
        except ValueError:
            pass
    return out


def parse_autoprof(path):
    with open(path) as f:
        doc = json.load(f)
    if not doc["records"]:
        return None
    rec = doc["records"][0]
    return {k: v["value"] for k, v in rec["metrics"].items()
            if v["value"] is not None}


def build(programs, outdir):
    failed = corpus.build_all(programs, outdir, os.cpu_count() or 2)
    if failed:
        fail("cannot build: %s" % ", ".join(failed))


def gpu_doc(kind, rows):
    gpu, driver = corpus.gpu_info()
    return {"version": 1, "kind": kind, "gpu": gpu, "driver": driver,
            "date": datetime.date.today().isoformat(), "rows": rows}


def agreement(args, programs, outdir, tool, ncu):
    rows, bad = [], 0
    for p in programs:
        exe = os.path.join(outdir, p["name"])
        kernel = p["kernels"][0]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "p.json")
            r, _ = run(autoprof_cmd(tool, kernel, METRICS + [TIME], out, exe,
                                    p["args"], args.cache_control))
            ours = parse_autoprof(out) if r.returncode == 0 else None
            if ours is None:
                print("| %s | %s | clang-autoprof failed: %s |" % (
                    p["name"], kernel, r.stderr.strip()[-300:]), flush=True)
                rows.append({"program": p["name"], "kernel": kernel, "error": r.stderr[-2000:]})
                bad += 1
                continue
        r, _ = run(ncu_cmd(ncu, kernel, exe, p["args"], args.cache_control,
                           METRICS + [TIME]))
        theirs = parse_ncu(r.stdout) if r.returncode == 0 else None
        if theirs is None:
            print("| %s | %s | ncu failed: %s |" % (
                p["name"], kernel, (r.stdout + r.stderr)[-300:]), flush=True)
            rows.append({"program": p["name"], "kernel": kernel, "error": (r.stdout + r.stderr)[-2000:]})
            bad += 1
            continue
        metrics = []
        for m in METRICS + [TIME]:
            a, b = ours.get(m), theirs.get(m)
            if a is None or b is None:
                metrics.append({"metric": m, "ours": a, "ncu": b, "ok": False})
                continue
            diff = abs(a - b) / max(abs(b), 1e-9) if (a or b) else 0.0
            ok = diff <= tolerance(m) if m not in INFORMATIONAL else None
            metrics.append({"metric": m, "ours": a, "ncu": b,
                            "rel_diff": round(diff, 5), "ok": ok})
        judged = [x for x in metrics if x["ok"] is not None]
        agree = sum(1 for x in judged if x["ok"])
        worst = max(judged, key=lambda x: x.get("rel_diff", 9e9))
        rows.append({"program": p["name"], "kernel": kernel, "metrics": metrics,
                     "agree": agree, "of": len(judged)})
        if agree != len(judged):
            bad += 1
        t = next(x for x in metrics if x["metric"] == TIME)
        print("| %s | %s | %d / %d | %s %.2f%% | %.1f / %.1f |" % (
            p["name"], kernel, agree, len(judged), worst["metric"],
            100 * worst.get("rel_diff", float("nan")),
            (t["ours"] or 0) / 1e3, (t["ncu"] or 0) / 1e3), flush=True)
        for x in judged:
            if not x["ok"]:
                print("    disagrees: %s ours=%s ncu=%s" % (x["metric"], x["ours"], x["ncu"]),
                      flush=True)
    doc = gpu_doc("agreement", rows)
    doc["cache_control"] = args.cache_control
    return doc, bad


def cost(args, programs, outdir, tool, ncu):
    rows = []
    for p in programs:
        exe = os.path.join(outdir, p["name"])
        kernel = p["kernels"][0]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "p.json")
            cc = args.cache_control
            steps = [("program", [exe] + p["args"]),
                     ("autoprof", autoprof_cmd(tool, kernel, METRICS, out, exe,
                                               p["args"], cc)),
                     ("ncu_metrics", ncu_cmd(ncu, kernel, exe, p["args"], cc,
                                             METRICS))]
            if not args.no_full:
                steps.append(("ncu_full", ncu_cmd(ncu, kernel, exe, p["args"],
                                                  cc, full=True)))
            times = {k: [] for k, _ in steps}
            for _ in range(args.repeat):
                for key, cmd in steps:
                    r, t = run(cmd)
                    if r.returncode != 0:
                        fail("%s: %s failed: %s" % (p["name"], key, (r.stdout + r.stderr)[-400:]))
                    times[key].append(round(t, 3))
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"program": p["name"], "kernel": kernel, "seconds": times,
                     "median": med})
        print("| %s | %.2f | %.2f | %.2f | %s | %.2f |" % (
            p["name"], med["program"], med["autoprof"], med["ncu_metrics"],
            "%.2f" % med["ncu_full"] if "ncu_full" in med else "-",
            med["autoprof"] / med["ncu_metrics"]), flush=True)
    tot = {k: sum(r["median"][k] for r in rows) for k in rows[0]["median"]}
    print("| total | %.2f | %.2f | %.2f | %s | %.2f |" % (
        tot["program"], tot["autoprof"], tot["ncu_metrics"],
        "%.2f" % tot["ncu_full"] if "ncu_full" in tot else "-",
        tot["autoprof"] / tot["ncu_metrics"]), flush=True)
    doc = gpu_doc("cost", rows)
    doc["repeat"] = args.repeat
    doc["cache_control"] = args.cache_control
    doc["metrics"] = METRICS
    return doc, 0


def table(path):
    with open(path) as f:
        doc = json.load(f)
    print("%s, driver %s, %s, --cache-control %s" % (
        doc["gpu"], doc["driver"], doc["date"],
        doc.get("cache_control", "none")))
    if doc["kind"] == "agreement":
        print("| program | kernel | within tolerance | outside tolerance (ours / ncu) |")
        print("| --- | --- | ---: | --- |")
        for r in doc["rows"]:
            if "error" in r:
                print("| %s | %s | error | |" % (r["program"], r["kernel"]))
                continue
            bad = ["`%s` %.4g / %.4g" % (x["metric"], x["ours"] or 0, x["ncu"] or 0)
                   for x in r["metrics"] if x["ok"] is False]
            print("| %s | %s | %d / %d | %s |" % (r["program"], r["kernel"], r["agree"],
                                                  r["of"], "; ".join(bad)))
    else:
        print("| program | program alone s | clang-autoprof s | ncu --metrics s | ncu --set full s | clang-autoprof / ncu --metrics |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for r in doc["rows"]:
            m = r["median"]
            print("| %s | %.2f | %.2f | %.2f | %s | %.2f |" % (
                r["program"], m["program"], m["autoprof"], m["ncu_metrics"],
                "%.2f" % m["ncu_full"] if "ncu_full" in m else "-",
                m["autoprof"] / m["ncu_metrics"]))
        tot = {k: sum(r["median"][k] for r in doc["rows"]) for k in doc["rows"][0]["median"]}
        print("| total | %.2f | %.2f | %.2f | %s | %.2f |" % (
            tot["program"], tot["autoprof"], tot["ncu_metrics"],
            "%.2f" % tot["ncu_full"] if "ncu_full" in tot else "-",
            tot["autoprof"] / tot["ncu_metrics"]))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("command", choices=["agreement", "cost"])
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "bin", "clang-autoprof"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "corpus"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cache-control", choices=["all", "none"], default="all",
                    help="both tools' cache control (default: all)")
    ap.add_argument("--no-full", action="store_true",
                    help="cost: leave out ncu --set full")
    ap.add_argument("--metrics", default="",
                    help="agreement: compare these metrics (comma-separated) "
                         "instead of the default list")
    ap.add_argument("-o", "--output", default="")
    args = ap.parse_args()
    manifest = corpus.load_manifest()
    wanted = [p["name"] for p in manifest] if args.programs == "all" \
        else args.programs.split(",")
    programs = [p for p in manifest if p["name"] in wanted]
    missing = set(wanted) - {p["name"] for p in programs}
    if missing:
        fail("not in the corpus: %s" % ", ".join(sorted(missing)))
    if not os.access(args.tool, os.X_OK):
        fail("no tool at %s (build it, or give --tool)" % args.tool)
    if args.metrics:
        global METRICS
        METRICS = [m for m in args.metrics.split(",") if m]
        if not METRICS or any(not re.fullmatch(r"[a-z0-9_.]+", m)
                              for m in METRICS):
            fail("--metrics: give metric names separated by commas")
    ncu = find_ncu()
    build(programs, args.build)
    if args.command == "agreement":
        print("| program | kernel | metrics within tolerance | largest difference | duration us (ours / ncu) |")
        print("| --- | --- | ---: | --- | ---: |")
        doc, bad = agreement(args, programs, args.build, args.tool, ncu)
    else:
        print("| program | program alone s | clang-autoprof s | ncu --metrics s | ncu --set full s | ratio to ncu |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        doc, bad = cost(args, programs, args.build, args.tool, ncu)
    if args.output:
        with open(args.output, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
