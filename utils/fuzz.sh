#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/, libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer) with clang++-22 in build-fuzz/, then runs each
# for the given number of seconds (default 60):
#
#   utils/fuzz.sh [seconds] [target ...]
#
# Each target starts from its seeds (the project's own files of that format)
# and first replays the inputs kept in fuzz/regressions/<target>/, inputs
# that once crashed it. A crash stops the script with status 1; its input
# is written to build-fuzz/artifacts/. Targets: tree, profile, dataset,
# plan, reply, cuda-command.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
cuda=${CUDAToolkit_ROOT:-${CUDA_PATH:-/usr/local/cuda}}
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(tree profile plan dataset reply cuda-command)

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DAUTOPROF_FUZZ=ON -DAUTOPROF_INCLUDE_TESTS=OFF \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DClang_DIR=/usr/lib/llvm-22/lib/cmake/clang \
    -DCUDAToolkit_ROOT="$cuda" >/dev/null
fi
ninja -C "$build" $(printf 'autoprof-fuzz-%s ' "${targets[@]}")

seeds() {
  case $1 in
  tree) echo "$root"/tree-models/*.json "$root"/test/tree/Inputs/*.json ;;
  profile) echo "$root"/test/optimize/Inputs/tile-profile.json \
    "$root"/bench/results/profile-cost-h200-2026-12-02.json ;;
  dataset) echo "$root"/tree-models/metric-catalog.json \
    "$root"/test/learn/Inputs/*.jsonl \
    "$root"/tree-models/datasets/*.jsonl ;;
  plan) echo "$root"/fuzz/seeds/plan/*.json ;;
  reply) echo "$root"/test/optimize/Inputs/llm/*.txt ;;
  cuda-command) echo "$root"/fuzz/seeds/cuda-command/*.txt ;;
  esac
}

mkdir -p "$build/artifacts"
for t in "${targets[@]}"; do
  bin=$build/fuzz/autoprof-fuzz-$t
  work=$build/corpus/$t
  mkdir -p "$work"
  # Seeds are copied: libFuzzer adds to the first folder it is given.
  for f in $(seeds "$t"); do
    cp "$f" "$work/seed-$(basename "$f")"
  done
  kept=()
  if [ -d "$root/fuzz/regressions/$t" ]; then
    mapfile -t kept < <(find "$root/fuzz/regressions/$t" -type f ! -name '.*')
  fi
  if [ ${#kept[@]} -gt 0 ]; then
    echo "fuzz: $t: replaying ${#kept[@]} kept inputs"
    "$bin" -rss_limit_mb=4096 -timeout=20 "${kept[@]}" > "$build/$t-kept.log" 2>&1 ||
      { tail -40 "$build/$t-kept.log"; echo "fuzz: $t: a kept input fails again" >&2; exit 1; }
  fi
  echo "fuzz: $t: $seconds s"
  "$bin" -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=20 \
    -max_len=1048576 -print_final_stats=1 \
    -artifact_prefix="$build/artifacts/$t-" "$work" 2>"$build/$t.log" ||
    { tail -40 "$build/$t.log"; echo "fuzz: $t: crashed; see $build/artifacts" >&2; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$t.log" |
    sed "s/^/fuzz: $t: /"
done
