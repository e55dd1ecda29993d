#!/usr/bin/env python3
"""The kernel corpus: checks its manifest, builds its programs, runs them.

  utils/corpus.py check [--build DIR] [--jobs N]
      Checks bench/corpus/manifest.json against the files (every program
      listed exists, every .cu is listed, every kernel named is a __global__
      function of its file, fields are well formed) and, unless --no-compile,
      compiles every program with nvcc for sm_90. Needs no GPU.

  utils/corpus.py table RESULTS
      Prints the Markdown table of docs/corpus.md from a results file.

  utils/corpus.py run [--build DIR] [--jobs N] [-o results.json]
      Builds every program, runs each on the GPU, parses its summary line and
      writes per-kernel median launch times with the GPU name, driver and
      date (docs/corpus.md describes the file).
"""
import argparse
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "bench", "corpus")
MANIFEST = os.path.join(CORPUS, "manifest.json")
FIELDS = {"name": str, "source": str, "category": str, "bottleneck": str,
          "nvcc_flags": list, "args": list, "kernels": list,
          "tolerance": (int, float), "description": str}
# Optional fields and their values.
OPTIONAL = {"precision": ("double",)}
SUMMARY = re.compile(r"^corpus: (\S+) (PASS|FAIL) max_err=(\S+) tol=(\S+)(.*)$")


def fail(msg):
    sys.exit("corpus: error: " + msg)


def set_manifest(path):
    global CORPUS, MANIFEST
    MANIFEST = os.path.abspath(path)
    CORPUS = os.path.dirname(MANIFEST)


def load_manifest():
    try:
        with open(MANIFEST) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read %s: %s" % (MANIFEST, e))
    if not isinstance(data, dict) or data.get("version") != 1 or \
            not isinstance(data.get("programs"), list):
        fail("%s: expected {\"version\": 1, \"programs\": [...]}" % MANIFEST)
    return data["programs"]


def check_manifest(programs):
    errors = []
    names = set()
    for i, p in enumerate(programs):
        where = "programs[%d]" % i
        if not isinstance(p, dict):
            errors.append("%s: not an object" % where)
            continue
        for key, ty in FIELDS.items():
            if key not in p:
                errors.append("%s: missing '%s'" % (where, key))
            elif not isinstance(p[key], ty):
                errors.append("%s.%s: wrong type" % (where, key))
        for key, values in OPTIONAL.items():
            if key in p and p[key] not in values:
                errors.append("%s.%s: expected one of %s" %
                              (where, key, ", ".join(values)))
        extra = set(p) - set(FIELDS) - set(OPTIONAL)
        if extra:
            errors.append("%s: unknown keys %s" % (where, sorted(extra)))
        name = p.get("name")
        if name in names:
            errors.append("%s: duplicate name '%s'" % (where, name))
        names.add(name)
        src = os.path.join(CORPUS, str(p.get("source")))
        if not os.path.isfile(src):
            errors.append("%s: source '%s' not found" % (where, p.get("source")))
            continue
        text = open(src).read()
        # Kernels may live in the headers the source includes from the corpus.
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
            hdr = os.path.join(CORPUS, inc)
            if os.path.isfile(hdr):
                text += "\n" + open(hdr).read()
        for k in p.get("kernels", []):
            if not re.search(r"__global__\b[^;{]*\b%s\s*\(" % re.escape(str(k)), text):
                errors.append("%s: kernel '%s' is not a __global__ function of %s"
                              % (where, k, p["source"]))
        if not p.get("kernels"):
            errors.append("%s: no kernels" % where)
    listed = {p.get("source") for p in programs if isinstance(p, dict)}
    for f in sorted(os.listdir(CORPUS)):
        if f.endswith(".cu") and f not in listed:
            errors.append("%s is not in the manifest" % f)
    return errors


def nvcc_path():
    root = os.environ.get("CUDAToolkit_ROOT", os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    return os.path.join(root, "bin", "nvcc")


def build_one(p, outdir):
    exe = os.path.join(outdir, p["name"])
    cmd = [nvcc_path()] + p["nvcc_flags"] + ["-I" + CORPUS, "-o", exe,
                                             os.path.join(CORPUS, p["source"])]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return p["name"], exe, r.returncode, (r.stdout + r.stderr).strip()


def build_all(programs, outdir, jobs):
    os.makedirs(outdir, exist_ok=True)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for name, _, rc, log in ex.map(lambda p: build_one(p, outdir), programs):
            status = "ok" if rc == 0 and not log else ("warnings" if rc == 0 else "FAILED")
            print("build %-28s %s" % (name, status), flush=True)
            if rc != 0 or log:
                failed.append(name)
                print(log)
    return failed


def gpu_info():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True,
                             text=True, timeout=60).stdout.strip().splitlines()[0]
        name, driver = [s.strip() for s in out.split(",")]
        return name, driver
    except (OSError, IndexError, ValueError, subprocess.TimeoutExpired):
        fail("no GPU answers nvidia-smi: 'run' needs a GPU")


def run_all(programs, outdir, output):
    gpu, driver = gpu_info()
    results = []
    bad = 0
    for p in programs:
        exe = os.path.join(outdir, p["name"])
        try:
            r = subprocess.run([exe] + p["args"], capture_output=True, text=True, timeout=120)
            rc, out, err = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired:
            rc, out, err = 124, "", "timed out after 120 s"
        m = None
        for line in out.splitlines():
            m = SUMMARY.match(line) or m
        rec = {"name": p["name"], "exit_status": rc, "status": "ERROR", "kernels": {}}
        if m:
            rec["status"] = m.group(2)
            rec["max_err"] = float(m.group(3))
            rec["tolerance"] = float(m.group(4))
            for tok in m.group(5).split():
                k, _, v = tok.partition("=")
                if k.endswith("_us"):
                    rec["kernels"][k[:-3]] = {"median_us": float(v)}
        missing = [k for k in p["kernels"] if k not in rec["kernels"]]
        if rc != 0 or rec["status"] != "PASS" or missing:
            bad += 1
            rec["error"] = (err.strip().splitlines() or ["no summary line"])[-1] if rc else \
                ("kernels not timed: %s" % missing if missing else "")
        short = [k for k, v in rec["kernels"].items() if v["median_us"] < 100]
        if short:
            rec["under_100us"] = short
        results.append(rec)
        print("run %-28s %-5s %s" % (p["name"], rec["status"],
              " ".join("%s=%.1fus" % (k, v["median_us"]) for k, v in rec["kernels"].items())),
              flush=True)
    doc = {"version": 1, "gpu": gpu, "driver": driver,
           "date": datetime.date.today().isoformat(),
           "seed": os.environ.get("AUTOPROF_SEED", "default"),
           "timing": "CUDA events around each launch; median of the timed launches after one warm-up",
           "programs": results}
    text = json.dumps(doc, indent=2) + "\n"
    if output == "-":
        sys.stdout.write(text)
    else:
        tmp = output + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, output)
    return bad


def print_table(programs, path):
    if not path:
        fail("table needs a results file")
    try:
        with open(path) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        fail("cannot read %s: %s" % (path, e))
    by_name = {r["name"]: r for r in res.get("programs", [])}
    print("Measured on %s, driver %s, %s (%s)." % (res.get("gpu"), res.get("driver"),
                                                  res.get("date"), res.get("timing")))
    print()
    print("| program | category | bottleneck | kernel | median us | status |")
    print("| --- | --- | --- | --- | ---: | --- |")
    for p in programs:
        r = by_name.get(p["name"], {})
        for k in p["kernels"]:
            t = r.get("kernels", {}).get(k, {}).get("median_us")
            print("| %s | %s | %s | `%s` | %s | %s |" % (
                p["name"], p["category"], p["bottleneck"], k,
                "%.1f" % t if t is not None else "-", r.get("status", "not run")))
    return 0


def main():
    ap = argparse.ArgumentParser(description="The kernel corpus")
    ap.add_argument("command", choices=["check", "run", "table"])
    ap.add_argument("results", nargs="?")
    ap.add_argument("--manifest", default=MANIFEST)
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "corpus"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--only", default="", help="comma-separated program names")
    args = ap.parse_args()

    set_manifest(args.manifest)
    programs = load_manifest()
    errors = check_manifest(programs)
    for e in errors:
        print("corpus: error: " + e, file=sys.stderr)
    if errors:
        return 1
    if args.command == "table":
        return print_table(programs, args.results)
    if args.only:
        keep = set(args.only.split(","))
        programs = [p for p in programs if p["name"] in keep]
    print("manifest: %d programs, %d kernels" % (len(programs), sum(len(p["kernels"]) for p in programs)))
    if args.command == "check" and args.no_compile:
        return 0
    if not os.access(nvcc_path(), os.X_OK):
        fail("nvcc not found at %s (set CUDAToolkit_ROOT)" % nvcc_path())
    failed = build_all(programs, args.build, args.jobs)
    if failed:
        print("corpus: error: %d programs did not compile cleanly: %s" % (len(failed), ", ".join(failed)),
              file=sys.stderr)
        return 1
    if args.command == "run":
        bad = run_all(programs, args.build, args.output)
        if bad:
            print("corpus: error: %d programs failed" % bad, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
