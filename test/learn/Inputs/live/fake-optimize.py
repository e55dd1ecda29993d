#!/usr/bin/env python3
"""Stands in for `clang-autoprof optimize --rewriter=llm` in the learn tests:
the rewrite of a kernel is kept, 1.6x faster, when the profile it is given
shows the XU pipe busy (>= 40%), and 1.2x when it shows DRAM throughput
>= 40%; otherwise no rewrite is kept. Each run appends its arguments to
$FAKE_OPTIMIZE_LOG."""
import json
import os
import sys

args = sys.argv[1:]
assert args[0] == "optimize", args
opts = {}
for a in args:
    if a.startswith("--") and "=" in a:
        k, v = a[2:].split("=", 1)
        opts[k] = v
with open(os.environ["FAKE_OPTIMIZE_LOG"], "a") as f:
    f.write(json.dumps(args) + "\n")
with open(opts["profile"]) as f:
    prof = json.load(f)
rec = prof["records"][0]
m = {k: v["value"] for k, v in rec["metrics"].items()}
xu = m.get("sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active", 0)
dram = m.get("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 0)
speedup = 1.6 if xu >= 40 else 1.2 if dram >= 40 else None
attempt = {"transformation": "llm round 1", "trigger": "asked a model",
           "verdict": "faster" if speedup else "not-faster",
           "reason": "", "speedup": speedup, "speedup_range": None}
kernel = {"kernel": rec["kernel"], "mangled_name": rec["mangled_name"],
          "leaf": "", "route": [], "metrics": m, "attempts": [attempt],
          "kept": "llm round 1" if speedup else None, "speedup": speedup}
with open(opts["report"], "w") as f:
    json.dump({"version": 1, "source": "k.cu", "tree": "t", "rewriter": "llm",
               "seeds": [1, 2, 3], "kernels": [kernel], "combined": None,
               "outcome": "verified" if speedup else "no rewrite",
               "inputs_vary": True, "later_launch_unchecked": None,
               "seconds": 1.0, "timings": {}}, f)
