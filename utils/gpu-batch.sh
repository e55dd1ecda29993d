#!/usr/bin/env bash
# Runs several GPU jobs in one call on a GPU machine, from the archive
# utils/pack-tests.sh made, in a checkout of the same sources. Each step's
# results and log go under $OUT (default: ./gpu-out); every step stops when
# the call's BUDGET (seconds, default 540) runs out, keeping what it wrote.
#
#   utils/gpu-batch.sh PACK STEP [STEP ...]
#
# Steps:
#   lit[=REGEX]                the lit tests matching REGEX (default: the
#                              GPU tests and those that run the tool on a GPU)
#   spell=FAMILY:T[:A,B]       utils/spelling_gpu.py on bench/spelling/FAMILY
#                              with transformation T (only spellings A,B)
#   corpus=DIR[:TREE]          utils/optimize_corpus.py run on DIR (TREE: a
#                              name of tree-models/ or a file)
#   capture=DIR                utils/capture_dataset.py run on DIR
#   ncu=KIND[:CACHE[:PROGRAMS]] utils/profile_vs_ncu.py KIND (agreement or
#                              cost, without ncu --set full) with
#                              --cache-control CACHE (default all) on
#                              PROGRAMS (default: its twelve; all: bench/corpus),
#                              the metrics in NCU_METRICS (comma-separated)
#                              when set
#
# corpus and capture take JOBS (default 4) and ONLY (programs) from the
# environment, and resume from $RESUME_DIR/<step file> when it exists (a
# partial result carried from an earlier call).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pack=${1:?usage: gpu-batch.sh <autoprof-tests.tar.xz> STEP [STEP ...]}
shift
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
start=$(date +%s)
budget=${BUDGET:-540}
left() { echo $((budget - ($(date +%s) - start))); }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader \
  >"$out/gpu.txt" 2>&1 || echo "gpu-batch: warning: no GPU answers nvidia-smi" >&2
cat "$out/gpu.txt"
tool_dir=/tmp/autoprof
rm -rf "$tool_dir" && mkdir -p "$tool_dir" && tar -xJf "$pack" -C "$tool_dir" || {
  echo "gpu-batch: error: cannot unpack $pack" >&2
  exit 1
}
tool=$tool_dir/bin/clang-autoprof
export PATH=${CUDAToolkit_ROOT:-/usr/local/cuda}/bin:$PATH

status=0
for step in "$@"; do
  name=${step%%=*}
  arg=${step#*=}
  [ "$arg" = "$step" ] && arg=
  t=$(left)
  if [ "$t" -le 10 ]; then
    echo "gpu-batch: no time left for $step" >&2
    status=1
    continue
  fi
  tag=$(echo "$step" | tr -c 'A-Za-z0-9_.-' '_')
  echo "== $step ($t s left)"
  case $name in
  lit)
    filter=${arg:--gpu\.test|corpus/run|profile/(faults|run|threads|cache-control)}
    timeout -k 5 "$t" "$tool_dir/run-lit.sh" "$root" -v --time-tests \
      --filter="$filter" >"$out/lit-$tag.log" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|UNSUPPORTED|XFAIL|XPASS|UNRESOLVED|TIMEOUT):|Total Discovered|Passed|Failed|Unsupported' \
      "$out/lit-$tag.log"
    ;;
  spell)
    IFS=: read -r family transformation only <<<"$arg"
    timeout -k 5 "$t" python3 "$root/utils/spelling_gpu.py" --tool="$tool" \
      --transformation="$transformation" ${only:+--only="$only"} \
      "$root/bench/spelling/$family" -o "$out/spelling-$family-$transformation.json" \
      >"$out/spell-$tag.log" 2>&1
    rc=$?
    tail -20 "$out/spell-$tag.log"
    ;;
  corpus | capture)
    IFS=: read -r dir tree <<<"$arg"
    base=$(basename "$dir")
    if [ "$name" = corpus ]; then
      file=corpus-$base-$(basename "${tree:-default}" .json).json
    else
      file=capture-$base.jsonl
    fi
    if [ -n "${RESUME_DIR:-}" ] && [ -f "$RESUME_DIR/$file" ]; then
      cp "$RESUME_DIR/$file" "$out/$file"
    fi
    if [ "$name" = corpus ]; then
      cmd=(python3 "$root/utils/optimize_corpus.py" run --corpus "$root/$dir"
        --tree "${tree:-default}")
    else
      cmd=(python3 "$root/utils/capture_dataset.py" run --corpus "$root/$dir")
    fi
    timeout -k 5 "$t" "${cmd[@]}" --tool "$tool" -j "${JOBS:-4}" \
      ${ONLY:+--only "$ONLY"} -o "$out/$file" >"$out/$name-$tag.log" 2>&1
    rc=$?
    tail -5 "$out/$name-$tag.log"
    ;;
  ncu)
    IFS=: read -r kind cache programs <<<"$arg"
    timeout -k 5 "$t" python3 "$root/utils/profile_vs_ncu.py" "$kind" \
      --tool="$tool" --cache-control="${cache:-all}" --no-full \
      ${programs:+--programs="$programs"} ${NCU_METRICS:+--metrics="$NCU_METRICS"} \
      -o "$out/ncu-$kind-${cache:-all}.json" >"$out/ncu-$tag.log" 2>&1
    rc=$?
    tail -50 "$out/ncu-$tag.log"
    ;;
  *)
    echo "gpu-batch: error: unknown step '$step'" >&2
    rc=2
    ;;
  esac
  echo "== $step: exit $rc after $(($(date +%s) - start)) s"
  [ "$rc" -ne 0 ] && status=1
done
exit $status
