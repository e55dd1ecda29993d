#!/usr/bin/env python3
"""Captures the dataset that `clang-autoprof learn` learns from.

The dataset is JSON lines, one record per kernel: its static features, every
catalog metric of its first profiled launch, and the verified outcome of
every built-in transformation proposed for it (docs/dataset-format.md).

  capture_dataset.py run [--only a,b] [--tool PATH] [-j N] [--scratch DIR]
                         -o dataset.jsonl
      On a GPU machine: for each corpus program, runs `clang-autoprof
      optimize --tree=fixed-full --try-all --keep-profile` (as
      `optimize_corpus.py run --try-all` does), then `clang-autoprof
      features --format=json` on its source, and appends the program's
      records to the output as soon as it finishes. A program whose
      optimize fails gets a one-line warning and no record; the status is
      then 1.
  capture_dataset.py import CAPTURE.json [--tool PATH] -o dataset.jsonl
      Without a GPU: builds the records from a capture of
      `optimize_corpus.py run --try-all` (its reports and kept profiles),
      with features computed here. Records carry the capture's GPU, driver
      and date.
  capture_dataset.py check dataset.jsonl [more.jsonl ...]
      Validates files by the rules `learn` applies and prints their counts.

`run` and `import` append to the output and skip the programs already in
it, so an interrupted capture resumes where it stopped; a truncated last
line (a kill mid-write) is dropped with a warning, with the lines of its
program, which is captured again.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import optimize_corpus  # noqa: E402

ROOT = optimize_corpus.ROOT
CORPUS = optimize_corpus.CORPUS
CATALOG = os.path.join(ROOT, "tree-models", "metric-catalog.json")
FEATURES_DOC = os.path.join(ROOT, "docs", "features.md")
REWRITES_DOC = os.path.join(ROOT, "docs", "rewrites.md")
TOOL = os.path.join(ROOT, "build", "bin", "clang-autoprof")
VERSION = 1
TREE = "fixed-full"
# docs/verify.md: every verdict a verification can give.
VERDICTS = {
    "build-failed", "timeout", "crashed", "check-failed", "not-measured",
    "fewer-launches", "writes-nothing", "wrong-output", "impossible-time",
    "faster", "slower", "not-faster", "no-code-block", "compile-error",
    "signature-changed", "reply-rejected", "hidden-state",
    "other-kernels", "writes-outside", "reused-results"}


class Error(Exception):
    """A problem that stops the command (or a program's capture): one
    line."""


# What else makes one program's capture fail without stopping the others.
FAILURES = (OSError, ValueError, KeyError, TypeError, AttributeError,
            subprocess.SubprocessError)


def warn(msg):
    print("capture_dataset: warning: " + msg, file=sys.stderr, flush=True)


def reason(e):
    """An exception's message without its errno."""
    return getattr(e, "strerror", None) or str(e)


def is_number(v):
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and
            math.isfinite(v))


def load_catalog(path):
    """The metric names of the catalog at path."""
    try:
        with open(path) as f:
            cat = json.load(f)
        return {m["name"] for m in cat["metrics"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Error("%s: not a metric catalog: %s" % (path, e))


def doc_section(path, heading):
    """The text of path from the line `heading` to the next "## " heading."""
    try:
        with open(path) as f:
            text = f.read()
        text = text[text.index("\n%s\n" % heading) + 1:]
    except (OSError, ValueError) as e:
        raise Error("%s: no section '%s': %s" % (path, heading, reason(e)))
    end = text.find("\n## ")
    return text if end < 0 else text[:end]


class Names:
    """What a record may name: the catalog's metrics, the numeric features
    (the keys of the table under "## Features" in docs/features.md, less
    `launch_bounds`, an object), and the built-in transformations (the
    headings under "## Transformations" in docs/rewrites.md)."""

    def __init__(self, catalog):
        self.metrics = load_catalog(catalog)
        self.features = set(re.findall(
            r"^\| `([a-z0-9_]+)` \|", doc_section(FEATURES_DOC, "## Features"),
            re.M)) - {"launch_bounds"}
        self.transformations = set(re.findall(
            r"^### `([a-z0-9-]+)`$",
            doc_section(REWRITES_DOC, "## Transformations"), re.M))


# --- Validation ------------------------------------------------------------

def validate_record(r, names):
    """The problems of one record as messages (empty when it is valid);
    names is a Names."""
    if not isinstance(r, dict):
        return ["not a JSON object"]
    if type(r.get("version")) is not int or r["version"] != VERSION:
        return ["version %s, expected %d" % (json.dumps(r.get("version")),
                                             VERSION)]
    errs = []
    for key in ("program", "kernel", "mangled_name"):
        if key not in r:
            errs.append("missing '%s'" % key)
        elif not isinstance(r[key], str) or not r[key]:
            errs.append("'%s' is not a non-empty string" % key)
    for key in ("gpu", "driver", "date"):
        if key in r and not isinstance(r[key], str):
            errs.append("'%s' is not a string" % key)
    if "features" not in r:
        errs.append("missing 'features'")
    elif not isinstance(r["features"], dict):
        errs.append("'features' is not an object")
    else:
        for name, v in r["features"].items():
            if name not in names.features:
                errs.append("features: '%s' is not a feature of "
                            "docs/features.md" % name)
            elif v is not None and not is_number(v):
                errs.append("features.%s: not a number or null" % name)
    if "metrics" not in r:
        errs.append("missing 'metrics'")
    elif not isinstance(r["metrics"], dict):
        errs.append("'metrics' is not an object")
    else:
        for name, v in r["metrics"].items():
            if name not in names.metrics:
                errs.append("metrics: '%s' is not in the metric catalog" %
                            name)
            elif not is_number(v):
                errs.append("metrics.%s: not a number" % name)
    if "outcomes" not in r:
        errs.append("missing 'outcomes'")
    elif not isinstance(r["outcomes"], list):
        errs.append("'outcomes' is not a list")
    else:
        seen = set()
        for i, o in enumerate(r["outcomes"]):
            errs += ["outcomes[%d]: %s" % (i, e)
                     for e in validate_outcome(o, names)]
            t = o.get("transformation") if isinstance(o, dict) else None
            if isinstance(t, str) and t in seen:
                errs.append("outcomes[%d]: '%s' appears twice" % (i, t))
            seen.add(t)
    return errs


# The transformations that only prepare kernels for the others.
ENABLING = ("inline-device-helpers", "index-induction-variables")


def fold_variants(outcomes):
    """One outcome per transformation: the variants of one
    (`block-shape(32x8)`, `block-shape(16x16)`) fold into the fastest that
    was accepted, else the first, named by the transformation."""
    out, where = [], {}
    for o in outcomes:
        t = o.get("transformation")
        # After an enabling edit, the outcome is the transformation's own.
        while isinstance(t, str) and t.split("+", 1)[0] in ENABLING \
                and "+" in t:
            t = t.split("+", 1)[1]
        base = t.split("(", 1)[0] if isinstance(t, str) and \
            t.endswith(")") else t
        o = dict(o, transformation=base)
        if base not in where:
            where[base] = len(out)
            out.append(o)
            continue
        kept = out[where[base]]
        faster = o.get("verdict") == "faster" and (
            kept.get("verdict") != "faster" or
            o.get("speedup", 0) > kept.get("speedup", 0))
        if faster:
            out[where[base]] = o
    return out


def validate_outcome(o, names):
    if not isinstance(o, dict):
        return ["not a JSON object"]
    errs = []
    t = o.get("transformation")
    if not isinstance(t, str) or not t:
        errs.append("'transformation' is not a non-empty string")
    elif t not in names.transformations:
        errs.append("unknown transformation '%s' (not in docs/rewrites.md)" %
                    t)
    if o.get("verdict") not in VERDICTS:
        errs.append("unknown verdict %s" % json.dumps(o.get("verdict")))
    sp = o.get("speedup")
    if sp is not None and not (is_number(sp) and sp > 0):
        errs.append("'speedup' is not a positive number")
    if o.get("verdict") == "faster" and sp is None:
        errs.append("a faster outcome without 'speedup'")
    rng = o.get("speedup_range")
    if rng is not None and not (isinstance(rng, list) and len(rng) == 2 and
                                all(is_number(x) and x > 0 for x in rng)):
        errs.append("'speedup_range' is not two positive numbers")
    return errs


def malformed(e):
    """Says what is wrong with a line that json.loads refused."""
    if isinstance(e, json.JSONDecodeError):
        return "malformed JSON at column %d (%s)" % (
            e.colno, e.msg[:1].lower() + e.msg[1:])
    return "malformed JSON (%s)" % e


def check(args):
    names = Names(args.catalog)
    seen = {}  # (program, mangled_name) -> "file:line"
    errors = 0
    totals = []
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (OSError, UnicodeDecodeError) as e:
            raise Error("%s: cannot read: %s" % (path, reason(e)))
        counts = {"kernels": 0, "programs": set(), "verdicts": {},
                  "faster": 0}
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            where = "%s:%d" % (path, n)
            try:
                r = json.loads(line)
            except ValueError as e:
                print("capture_dataset: error: %s: %s" %
                      (where, malformed(e)), file=sys.stderr)
                errors += 1
                continue
            errs = validate_record(r, names)
            if not errs:
                key = (r["program"], r["mangled_name"])
                if key in seen:
                    errs.append("duplicate record of %s %s (first at %s)" %
                                (key[0], key[1], seen[key]))
                else:
                    seen[key] = where
            for e in errs:
                print("capture_dataset: error: %s: %s" % (where, e),
                      file=sys.stderr)
            errors += len(errs)
            if errs:
                continue
            counts["kernels"] += 1
            counts["programs"].add(r["program"])
            for o in r["outcomes"]:
                v = o["verdict"]
                counts["verdicts"][v] = counts["verdicts"].get(v, 0) + 1
            if any(o["verdict"] == "faster" for o in r["outcomes"]):
                counts["faster"] += 1
        if not counts["kernels"] and not errors:
            print("capture_dataset: error: %s: no kernels" % path,
                  file=sys.stderr)
            errors += 1
        totals.append((path, counts))
    if errors:
        print("capture_dataset: %d error(s)" % errors, file=sys.stderr)
        return 1
    for path, c in totals:
        print_counts(path, c)
    if len(totals) > 1:
        merged = {"kernels": sum(c["kernels"] for _, c in totals),
                  "programs": set().union(*(c["programs"] for _, c in totals)),
                  "verdicts": {},
                  "faster": sum(c["faster"] for _, c in totals)}
        for _, c in totals:
            for v, k in c["verdicts"].items():
                merged["verdicts"][v] = merged["verdicts"].get(v, 0) + k
        print_counts("all files", merged)
    return 0


def print_counts(label, c):
    n = sum(c["verdicts"].values())
    by = ", ".join("%s %d" % (v, k) for v, k in
                   sorted(c["verdicts"].items(), key=lambda x: (-x[1], x[0])))
    print("%s: %d kernels of %d programs" % (label, c["kernels"],
                                               len(c["programs"])))
    print("  outcomes: %d%s" % (n, " (%s)" % by if by else ""))
    print("  kernels with a faster outcome: %d" % c["faster"])


# --- The output file -------------------------------------------------------

PROGRAM_RE = re.compile(r'"program"\s*:\s*("(?:[^"\\]|\\.)*")')


def resume(path):
    """Reads the records already in path and returns their programs.

    A last line that does not end the file with a newline and is not JSON
    was cut by a kill mid-write: it is dropped with a warning, with every
    line of its program (its program is found in the fragment, else it is
    taken to be the program of the lines before it), and the file is
    rewritten without them, so that the program is captured again. Any
    other line that is not a record with a program is an error."""
    if not os.path.exists(path):
        append_records(path, [])  # fails now if it cannot be written
        return set()
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Error("%s: cannot read: %s" % (path, reason(e)))
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    kept = []  # (program, raw line)
    for n, raw in enumerate(lines, 1):
        if raw.strip():
            kept.append((program_of(path, n, raw), raw))
    rewrite = False
    if tail.strip():
        n = len(lines) + 1
        try:
            kept.append((program_of(path, n, tail), tail))
            rewrite = True  # a record without its newline: add it
        except Error:
            m = PROGRAM_RE.search(tail.decode("utf-8", "replace"))
            if m:
                prog = json.loads(m.group(1))
                what = " of %s" % prog
            elif kept:
                # The fragment may end a program whose first lines came
                # before it.
                prog = kept[-1][0]
                what = ""
            else:
                prog, what = None, ""
            before = sum(1 for p, _ in kept if p == prog)
            if before:
                what += ", and %d line%s of %s before it" % (
                    before, "" if before == 1 else "s", prog)
            if prog is not None:
                what += "; %s is captured again" % prog
            warn("%s:%d: dropping a truncated last line%s" % (path, n, what))
            kept = [(p, raw) for p, raw in kept if p != prog]
            rewrite = True
    if rewrite:
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(b"".join(raw + b"\n" for _, raw in kept))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    return {p for p, _ in kept}


def program_of(path, n, raw):
    try:
        r = json.loads(raw)
    except ValueError as e:
        raise Error("%s:%d: %s; fix or remove the file" %
                    (path, n, malformed(e)))
    if not isinstance(r, dict) or not isinstance(r.get("program"), str):
        raise Error("%s:%d: not a record with a 'program'; fix or remove "
                    "the file" % (path, n))
    return r["program"]


def append_records(path, records):
    """Appends records to path as JSON lines in one write, and syncs them to
    the disk."""
    data = "".join(json.dumps(r) + "\n" for r in records).encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as e:
        raise Error("cannot write %s: %s" % (path, reason(e)))


# --- Records ---------------------------------------------------------------

def features_of(tool, program):
    """The JSON output of `clang-autoprof features` on the corpus program
    (a manifest entry), compiled with its nvcc flags."""
    src = os.path.join(CORPUS, program["source"])
    try:
        r = subprocess.run([tool, "features", "--format=json", src, "--"] +
                           program["nvcc_flags"], capture_output=True,
                           text=True)
    except OSError as e:
        raise Error("cannot run %s: %s" % (tool, reason(e)))
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])
        raise Error("features failed: " + last[-1])
    try:
        return json.loads(r.stdout)
    except ValueError as e:
        raise Error("features wrote no JSON: %s" % e)


def first_launch(profile, kernel):
    """The profile record of the kernel's first profiled launch (by mangled
    name, else by name), or None."""
    recs = profile.get("records", []) if profile else []
    for key, value in (("mangled_name", kernel.get("mangled_name")),
                       ("kernel", kernel.get("kernel"))):
        hits = [r for r in recs if value and r.get(key) == value]
        if hits:
            return min(hits, key=lambda r: (r.get("run", 0),
                                            r.get("launch", 0)))
    return None


def match_features(features, kernel):
    """The features record of the report's kernel: by mangled name, else the
    one kernel (not a template's pattern) of that name."""
    ks = features.get("kernels", [])
    mangled = kernel.get("mangled_name")
    hits = [k for k in ks if mangled and k.get("mangled_name") == mangled]
    if not hits:
        name = kernel.get("kernel")
        hits = [k for k in ks if k.get("template") != "primary" and
                name in (k.get("name"), k.get("qualified_name"))]
    return hits[0] if len(hits) == 1 else None


def records_of(name, report, profile, features, origin, names):
    """The records of one program from its optimize report, kept profile and
    features (the output of `features`), with their problems: (records,
    notes). A note that starts with "error:" makes the whole program fail.
    names is a Names."""
    records, notes = [], []
    reported = set()  # names and mangled names
    for k in report.get("kernels", []):
        kname = k.get("kernel", "?")
        reported |= {kname, k.get("mangled_name")}
        launch = first_launch(profile, k)
        if launch is None:
            # optimize reports a kernel that never launched, untried.
            notes.append("kernel %s has no profiled launch; left out" % kname)
            continue
        f = match_features(features, k)
        if f is None:
            notes.append("error: kernel %s (%s) has no single match in the "
                         "features of the source" %
                         (kname, k.get("mangled_name") or "no mangled name"))
            continue
        reported.add(f.get("mangled_name"))
        rec = {"version": VERSION, "program": name, "kernel": kname,
               "mangled_name": k.get("mangled_name") or f.get("mangled_name")}
        rec.update(origin)
        # Numbers and nulls; launch_bounds (an object) is no feature.
        rec["features"] = {n: v for n, v in f.get("features", {}).items()
                           if n != "launch_bounds"}
        metrics = {m: (v.get("value") if isinstance(v, dict) else v)
                   for m, v in launch.get("metrics", {}).items()}
        rec["metrics"] = {m: v for m, v in metrics.items() if v is not None}
        outcomes = []
        for a in k.get("attempts", []):
            o = {"transformation": a.get("transformation"),
                 "verdict": a.get("verdict")}
            if a.get("speedup") is not None:
                o["speedup"] = a["speedup"]
            if a.get("speedup_range") is not None:
                o["speedup_range"] = a["speedup_range"]
            outcomes.append(o)
        rec["outcomes"] = fold_variants(outcomes)
        errs = validate_record(rec, names)
        if errs:
            notes.append("error: kernel %s: %s" % (kname, errs[0]))
            continue
        records.append(rec)
    # Kernels of the source that the report does not name (an optimize that
    # predates the verification of templates left them out).
    templates = {}
    for f in features.get("kernels", []):
        if f.get("template") == "instantiation":
            templates.setdefault(f.get("name"), []).append(f)
        elif (f.get("template") == "none" and
              not {f.get("name"), f.get("mangled_name")} & reported):
            notes.append("kernel %s is not in the optimize report; left out" %
                         f.get("qualified_name"))
    for tname, insts in templates.items():
        if (tname not in reported and
                not any(i.get("mangled_name") in reported for i in insts)):
            notes.append("kernel %s is not in the optimize report; left out" %
                         ", ".join(i.get("qualified_name") for i in insts))
    return records, notes


def program_records(entry, program, tool, origin, names):
    """The records of one optimize_corpus results entry, and notes, or Error
    when the program failed."""
    rep = entry.get("report")
    if entry.get("status") != 0 or not rep:
        why = " ".join(entry.get("stderr", [])[-1:]) or "no report"
        raise Error("optimize failed with status %s: %s" %
                    (entry.get("status"), why))
    if not entry.get("profile"):
        raise Error("optimize kept no profile (--keep-profile)")
    features = features_of(tool, program)
    records, notes = records_of(program["name"], rep, entry["profile"],
                                features, origin, names)
    errs = [n[len("error: "):] for n in notes if n.startswith("error: ")]
    if errs:
        raise Error(errs[0])
    return records, notes


def duration(s):
    s = int(round(s))
    if s >= 3600:
        return "%dh%02dm" % (s // 3600, s % 3600 // 60)
    if s >= 60:
        return "%dm%02ds" % (s // 60, s % 60)
    return "%ds" % s


class Capture:
    """Appends programs' records to the output, says how far it got, and
    remembers the programs that failed."""

    def __init__(self, output, programs, done):
        self.output = output
        self.total = len(programs)
        self.count = sum(1 for p in programs if p["name"] in done)
        self.todo = [p for p in programs if p["name"] not in done]
        self.start = time.time()
        self.finished = 0
        self.failed = []
        self.mutex = threading.Lock()
        if self.count:
            print("%s: %d of %d programs already captured" % (
                output, self.count, self.total), file=sys.stderr, flush=True)

    def add(self, name, seconds, records=None, notes=(), error=None):
        with self.mutex:
            if error is None:
                try:
                    append_records(self.output, records)
                except Error as e:
                    error = str(e)
            self.count += 1
            self.finished += 1
            for n in notes:
                warn("%s: %s" % (name, n))
            if error is not None:
                self.failed.append(name)
                warn("[%d/%d] %s: no record: %s" % (self.count, self.total,
                                                    name, error))
                return
            left = self.total - self.count
            eta = ""
            if left:
                per = (time.time() - self.start) / self.finished
                eta = " (eta %s)" % duration(per * left)
            print("[%d/%d] %s: %d kernel%s, %d outcome%s, %.1f s%s" % (
                self.count, self.total, name, len(records),
                "" if len(records) == 1 else "s",
                sum(len(r["outcomes"]) for r in records),
                "" if sum(len(r["outcomes"]) for r in records) == 1 else "s",
                seconds, eta), file=sys.stderr, flush=True)

    def status(self):
        if self.failed:
            warn("%d program(s) failed: %s" % (len(self.failed),
                                               ", ".join(self.failed)))
            return 1
        return 0


def select(only):
    programs = optimize_corpus.manifest()
    if only:
        wanted = [w for w in only.split(",") if w]
        missing = set(wanted) - {p["name"] for p in programs}
        if missing:
            raise Error("not in the manifest: " + ", ".join(sorted(missing)))
        programs = [p for p in programs if p["name"] in wanted]
    return programs


def run(args):
    names = Names(args.catalog)
    programs = select(args.only)
    gpu = optimize_corpus.gpu_identity()
    if not gpu:
        raise Error("no GPU answers nvidia-smi")
    origin = {"gpu": gpu[0], "driver": gpu[1],
              "date": time.strftime("%Y-%m-%d")}
    cap = Capture(args.output, programs, resume(args.output))
    os.makedirs(args.scratch, exist_ok=True)
    lock = os.path.join(args.scratch, "device.lock")

    def one(p):
        start = time.time()
        try:
            entry = optimize_corpus.optimize_program(
                p, args.tool, TREE, args.scratch, lock, try_all=True,
                recheck=False)
            records, notes = program_records(entry, p, args.tool, origin,
                                             names)
        except Error as e:
            cap.add(p["name"], time.time() - start, error=str(e))
            return
        except FAILURES as e:
            cap.add(p["name"], time.time() - start,
                    error="%s: %s" % (type(e).__name__, e))
            return
        cap.add(p["name"], time.time() - start, records, notes)

    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        list(ex.map(one, cap.todo))
    return cap.status()


def import_capture(args):
    names = Names(args.catalog)
    try:
        with open(args.capture) as f:
            data = json.load(f)
        entries = data["programs"]
        origin = {"gpu": data["gpu"], "driver": data["driver"],
                  "date": data["date"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise Error("%s: not an optimize_corpus.py capture: %s" %
                    (args.capture, e))
    if data.get("tree") != TREE or not data.get("try_all"):
        raise Error("%s: captured with --tree %s%s; the dataset needs --tree "
                    "%s --try-all" % (args.capture, data.get("tree"),
                                      " --try-all" if data.get("try_all")
                                      else "", TREE))
    manifest = {p["name"]: p for p in optimize_corpus.manifest()}
    for e in entries:
        if e.get("program") not in manifest:
            raise Error("%s: program %s is not in the manifest" %
                        (args.capture, json.dumps(e.get("program"))))
    cap = Capture(args.output, [manifest[e["program"]] for e in entries],
                  resume(args.output))
    todo = {p["name"] for p in cap.todo}
    for e in entries:
        if e["program"] not in todo:
            continue
        try:
            records, notes = program_records(e, manifest[e["program"]],
                                             args.tool, origin, names)
        except Error as err:
            cap.add(e["program"], e.get("seconds", 0), error=str(err))
            continue
        except FAILURES as err:
            cap.add(e["program"], e.get("seconds", 0),
                    error="malformed capture entry: %s: %s" % (
                        type(err).__name__, err))
            continue
        cap.add(e["program"], e.get("seconds", 0), records, notes)
    return cap.status()


def main():
    global CORPUS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="capture on a GPU machine")
    r.add_argument("--only", default="",
                   help="comma-separated corpus programs (default: all)")
    r.add_argument("--tool", default=TOOL)
    r.add_argument("--scratch", default="/tmp/autoprof-dataset")
    r.add_argument("-j", dest="jobs", type=int, default=3,
                   help="programs optimized at once; their timed runs take "
                        "turns on the GPU (--device-lock), their builds "
                        "overlap")
    r.add_argument("-o", dest="output", required=True)
    i = sub.add_parser("import", help="convert an optimize_corpus.py capture")
    i.add_argument("capture")
    i.add_argument("--tool", default=TOOL)
    i.add_argument("-o", dest="output", required=True)
    c = sub.add_parser("check", help="validate datasets and count them")
    c.add_argument("files", nargs="+")
    for p in (r, i, c):
        p.add_argument("--catalog", default=CATALOG,
                       help="the metric catalog (default: %(default)s)")
    for p in (r, i):
        p.add_argument("--corpus", default=CORPUS,
                       help="the corpus directory, with its manifest.json "
                            "(default: bench/corpus)")
    args = ap.parse_args()
    if getattr(args, "corpus", None):
        CORPUS = optimize_corpus.CORPUS = os.path.abspath(args.corpus)
    try:
        if args.cmd == "check":
            return check(args)
        tool = shutil.which(args.tool)
        if not tool:
            raise Error("no tool at %s (--tool)" % args.tool)
        args.tool = os.path.abspath(tool)
        if args.cmd == "run" and args.jobs < 1:
            raise Error("-j must be at least 1")
        return run(args) if args.cmd == "run" else import_capture(args)
    except Error as e:
        print("capture_dataset: error: %s" % e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
