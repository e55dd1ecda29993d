#!/usr/bin/env python3
"""A stand-in for a CUDA program and its build, for testing `optimize`
where no GPU answers.

  fake_program.py build <source> -o <program>   copies the source
  fake_program.py run <program>                 "runs" it

A run does what the injection library would: it reads the measurement
configuration named by AUTOPROF_MEASURE_CONFIG and writes a measurement of
every kernel it names, launched once, with a duration that follows from the
program's text (each word of TIMES in it divides 1 ms by its factor) and
buffers that follow from AUTOPROF_SEED: the last pointer parameter is the
output, the same for every version of the program unless its text holds
the word FAKE_WRONG_WITH names.
"""
import json
import os
import sys

TIMES = {"__shared__": 4.0, "#pragma unroll": 1.5, "__launch_bounds__": 1.1,
         "dim3(32, 8)": 1.2, "dim3(32, 4)": 1.3}


def main():
    if sys.argv[1] == "build":
        with open(sys.argv[2]) as f:
            text = f.read()
        with open(sys.argv[sys.argv.index("-o") + 1], "w") as f:
            f.write(text)
        return 0
    with open(sys.argv[2]) as f:
        text = f.read()
    with open(os.environ["AUTOPROF_MEASURE_CONFIG"]) as f:
        cfg = json.load(f)
    seed = int(os.environ["AUTOPROF_SEED"])
    bad = os.environ.get("FAKE_WRONG_WITH")
    wrong = bool(bad) and bad in text
    ns = 1e6
    for word, factor in TIMES.items():
        if word in text:
            ns /= factor
    kernels = []
    for name, params in cfg["kernels"].items():
        k = {"mangled_name": name, "launches": 1,
             "durations_ns": [ns + seed], "snapshots": []}
        snap = cfg.get("snapshot_dir")
        if snap:
            k.update({"snapshot_launch": 0, "poisoned_bytes": 0,
                      "outside_watched": 0, "outside_changed": []})
            for i in params:
                out = i == max(params)
                data = ("result %s" % wrong if out
                        else "input %d %d" % (i, seed)).encode()
                path = os.path.join(snap, "%s-%d" % (name, i))
                with open(path, "wb") as f:
                    f.write(data)
                k["snapshots"].append({"params": [i], "bytes": len(data),
                                       "changed_bytes": len(data) if out else 0,
                                       "file": path})
        kernels.append(k)
    with open(cfg["output"], "w") as f:
        json.dump({"version": 1, "dram_bytes_per_second": 0, "l2_bytes": 0,
                   "kernels": kernels, "errors": []}, f)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
