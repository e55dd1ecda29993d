#!/usr/bin/env python3
"""The learned tree against fixed profiling configurations, held out.

  learn_table.py --dataset D [--budgets 2,4,8] [--folds 5 | --held-out D2]
                 [--seed 1] [--curve-orders 20] [--tool PATH] [-o results.json]

For each budget, runs `clang-autoprof learn --folds=K` (held-out replays of
the learned trees), the same with --fill, and with --fill starting from
`default` (shown, not counted in the goals), replays `default`, `fixed-sol`, `fixed-basic` and
`fixed-cudaforge` held to the budget, `fixed-full` unbudgeted, and the
per-kernel oracle, and prints one Markdown table. With --held-out, every
tree is learned on D and every row judged on D2, a dataset of other
programs (another corpus), instead of on held-out folds of D: per configuration and
budget, the geometric-mean speedup, fast_1 and the mean passes per kernel.
Then the goals: at each budget, the better learned tree's gain (geometric
mean minus 1) against 1.2 times the best fixed configuration's, and against 90%
of the oracle's. Then the filled tree's held-out result with seeds 1 to
--spread-seeds. Then the metric curve (the same first n trigger metrics
for every kernel, averaged over random orders). Needs no GPU.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXED = ["fixed-sol", "fixed-basic", "fixed-cudaforge"]


def fail(msg):
    print("learn_table: error: " + msg, file=sys.stderr)
    sys.exit(1)


def learn(tool, args):
    r = subprocess.run([tool, "learn", "--quiet"] + args, capture_output=True,
                       text=True)
    if r.returncode != 0:
        fail("clang-autoprof learn %s failed: %s" % (" ".join(args),
                                                      r.stderr.strip()))
    return r.stdout


def run(args):
    # Held out: other folds of the same programs, or the other corpus.
    judge = ("--held-out=" + args.held_out if args.held_out
             else "--folds=%d" % args.folds)
    reports = {}
    tmp = args.output + ".tmp"
    for b in args.budgets:
        learn(args.tool, ["--dataset=" + args.dataset, "--budget=%d" % b,
                          judge, "--seed=%d" % args.seed,
                          "--compare=" + ",".join(["default"] + FIXED),
                          "--compare-unbudgeted=fixed-full", "--oracle",
                          "--report=" + tmp])
        with open(tmp) as f:
            reports[b] = json.load(f)
        learn(args.tool, ["--dataset=" + args.dataset, "--budget=%d" % b,
                          judge, "--seed=%d" % args.seed,
                          "--fill", "--name=learned-fill", "--report=" + tmp])
        with open(tmp) as f:
            reports[b]["rows"][1:1] = json.load(f)["rows"]
        learn(args.tool, ["--dataset=" + args.dataset, "--budget=%d" % b,
                          judge, "--seed=%d" % args.seed,
                          "--fill", "--init=default",
                          "--name=learned-fill-default", "--report=" + tmp])
        with open(tmp) as f:
            reports[b]["rows"][2:2] = json.load(f)["rows"]
    # The filled tree again with other seeds (other folds, other search
    # samples): how much the held-out result depends on the seed.
    spread = {}
    for b in args.budgets:
        spread[str(b)] = []
        for s in range(1, args.spread_seeds + 1):
            if s == args.seed:
                row = next(r for r in reports[b]["rows"]
                           if r["name"] == "learned-fill")
            else:
                learn(args.tool, ["--dataset=" + args.dataset,
                                  "--budget=%d" % b,
                                  judge, "--seed=%d" % s,
                                  "--fill", "--name=learned-fill",
                                  "--report=" + tmp])
                with open(tmp) as f:
                    row = json.load(f)["rows"][0]
            spread[str(b)].append({"seed": s, "geomean": row["geomean"],
                                   "fast_1": row["fast_1"]})
    curve = None
    if args.curve_orders:
        learn(args.tool, ["--dataset=" + args.dataset,
                          "--budget=%d" % max(args.budgets),
                          "--seed=%d" % args.seed,
                          "--metric-curve=%d" % args.curve_orders,
                          "--report=" + tmp])
        with open(tmp) as f:
            curve = json.load(f)["curve"]
    os.remove(tmp)
    out = {"dataset": os.path.basename(args.dataset), "folds": args.folds,
           "held_out": (os.path.basename(args.held_out) if args.held_out
                        else None),
           "seed": args.seed, "budgets": args.budgets,
           "reports": {str(b): r for b, r in reports.items()},
           "spread": spread, "curve": curve}
    with open(args.output, "w") as f:
        json.dump(out, f, indent=1)
    return out


def table(out):
    budgets = out["budgets"]
    reports = {int(b): r for b, r in out["reports"].items()}
    names = [r["name"] for r in reports[budgets[0]]["rows"]]
    kernels = reports[budgets[0]]["kernels"]
    lines = []
    if out.get("held_out"):
        lines.append("Learned on `%s` (%d kernels), judged on `%s` (%d "
                     "kernels of other programs), seed %d (geometric-mean "
                     "speedup / fast_1 / mean passes per kernel):" % (
                         out["dataset"],
                         reports[budgets[0]]["training_kernels"],
                         out["held_out"], kernels, out["seed"]))
    else:
        lines.append("Held-out replays over %d kernels, %d folds, seed %d "
                     "(geometric-mean speedup / fast_1 / mean passes per "
                     "kernel):" % (kernels, out["folds"], out["seed"]))
    lines.append("")
    head = "| configuration |" + "".join(" budget %d |" % b for b in budgets)
    lines.append(head)
    lines.append("| --- |" + " ---: |" * len(budgets))
    for n in names:
        cells = []
        for b in budgets:
            row = next(r for r in reports[b]["rows"] if r["name"] == n)
            cells.append(" %.3fx / %.0f%% / %.2f |" % (
                row["geomean"], 100 * row["fast_1"], row["mean_passes"]))
        label = {"learned": "learned (held out)",
                 "learned-fill": "learned, --fill (held out)",
                 "learned-fill-default":
                     "learned from `default`, --fill (held out; not in the goals)",
                 "fixed-full": "fixed-full (unbudgeted)",
                 "oracle": "per-kernel oracle (in hindsight)"}.get(n, n)
        lines.append("| %s |%s" % (label, "".join(cells)))
    lines.append("")
    lines.append("| goal | " + " | ".join("budget %d" % b for b in budgets) +
                 " |")
    lines.append("| --- |" + " --- |" * len(budgets))
    fixed_cells, oracle_cells = [], []
    for b in budgets:
        rows = {r["name"]: r for r in reports[b]["rows"]}
        gain = max(rows["learned"]["geomean"],
                   rows["learned-fill"]["geomean"]) - 1
        best = max(FIXED, key=lambda n: rows[n]["geomean"])
        best_gain = rows[best]["geomean"] - 1
        oracle_gain = rows["oracle"]["geomean"] - 1
        fixed_cells.append("%.3f vs 1.2 x %.3f (%s): %s" % (
            gain, best_gain, best,
            "met" if gain >= 1.2 * best_gain and gain > 0 else "not met"))
        share = gain / oracle_gain if oracle_gain > 0 else float("nan")
        oracle_cells.append("%.0f%% of %.3f: %s" % (
            100 * share, oracle_gain, "met" if share >= 0.9 else "not met"))
    lines.append("| learned gain >= 1.2 x best fixed gain | " +
                 " | ".join(fixed_cells) + " |")
    lines.append("| learned gain >= 90% of the oracle's | " +
                 " | ".join(oracle_cells) + " |")
    if out.get("spread") and any(out["spread"].values()):
        lines.append("")
        lines.append("`learned, --fill` held out with seeds 1 to %d (%s): "
                     "geometric mean, and its gain as a share of the "
                     "oracle's:" % (
                         len(out["spread"][str(budgets[0])]),
                         "other search samples" if out.get("held_out")
                         else "other folds, other search samples"))
        lines.append("")
        lines.append("| budget | " + " | ".join(
            "seed %d" % e["seed"] for e in out["spread"][str(budgets[0])]) +
            " | mean share |")
        lines.append("| ---: |" + " ---: |" * (
            len(out["spread"][str(budgets[0])]) + 1))
        for b in budgets:
            og = next(r for r in reports[b]["rows"]
                      if r["name"] == "oracle")["geomean"] - 1
            es = out["spread"][str(b)]
            shares = [(e["geomean"] - 1) / og for e in es] if og > 0 else []
            lines.append("| %d | %s | %s |" % (b, " | ".join(
                "%.3fx (%.0f%%)" % (e["geomean"], 100 * sh)
                for e, sh in zip(es, shares)),
                "%.0f%%" % (100 * sum(shares) / len(shares)) if shares
                else "-"))
    if out.get("curve"):
        lines.append("")
        lines.append("The same first n trigger metrics for every kernel, "
                     "mean over random orders (unbudgeted):")
        lines.append("")
        lines.append("| metrics | passes per kernel | geometric mean | "
                     "range over orders | fast_1 | orders where the "
                     "metric added lowered it |")
        lines.append("| ---: | ---: | ---: | ---: | ---: | ---: |")
        for p in out["curve"]:
            lines.append("| %d | %.2f | %.3fx | %.3fx-%.3fx | %.0f%% | %d |" % (
                p["metrics"], p["mean_passes"], p["geomean"],
                p["geomean_lowest"], p["geomean_highest"],
                100 * p["fast_1"], p["orders_lowered"]))
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dataset")
    p.add_argument("--budgets", default="2,4,8")
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--held-out", metavar="DATASET",
                   help="learn on --dataset and judge on this dataset of "
                        "other programs, instead of cross-validating")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--curve-orders", type=int, default=20)
    p.add_argument("--spread-seeds", type=int, default=5,
                   help="also learn the filled tree with seeds 1..N")
    p.add_argument("--tool",
                   default=os.path.join(ROOT, "build", "bin", "clang-autoprof"))
    p.add_argument("-o", "--output", default="learn-table.json")
    p.add_argument("--table", metavar="RESULTS",
                   help="print the table of a results file again")
    args = p.parse_args()
    if args.table:
        with open(args.table) as f:
            print(table(json.load(f)))
        return
    if not args.dataset:
        fail("give --dataset (or --table RESULTS)")
    try:
        args.budgets = [int(b) for b in args.budgets.split(",")]
    except ValueError:
        fail("--budgets takes numbers separated by commas")
    if not os.path.exists(args.tool):
        fail("no tool at %s (build it, or pass --tool)" % args.tool)
    print(table(run(args)))


if __name__ == "__main__":
    main()
