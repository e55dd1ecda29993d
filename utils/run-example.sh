#!/usr/bin/env bash
# Sets up and builds (utils/setup.sh), then runs clang-autoprof on a bundled
# example program of the corpus. What needs a GPU runs only when one answers.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
# CLANG_AUTOPROF names a tool built before (utils/pack-tests.sh packs one for
# a GPU machine without LLVM); otherwise set up and build here.
if [[ -n "${CLANG_AUTOPROF:-}" ]]; then
  tool=$CLANG_AUTOPROF
  if [[ ! -x "$tool" ]]; then
    echo "run-example: error: CLANG_AUTOPROF='$tool' is not an executable tool" >&2
    exit 2
  fi
else
  "$root/utils/setup.sh"
  tool="$build/bin/clang-autoprof"
fi
example="$root/bench/corpus/transpose_smem_conflicts.cu"

echo "== static features of the kernels of $example"
"$tool" features "$example" -- -std=c++17 -I"$root/bench/corpus"

echo "== replay passes of the metric catalog on GH100 (CUPTI host API, no GPU needed)"
"$tool" metrics --chip=GH100 | tail -n 1

echo "== what the default profiling tree (learned) would collect for each kernel"
"$tool" plan --tree=learned "$example" -- -std=c++17 -I"$root/bench/corpus"

echo "== the built-in rewrites its kernels' static features allow (a dry run: no GPU, no file changed)"
"$tool" optimize --dry-run "$example" -- -std=c++17 -I"$root/bench/corpus"

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo "== running the example on the GPU"
  out=$(mktemp -d)
  nvcc=${CUDAToolkit_ROOT:-/usr/local/cuda}/bin/nvcc
  "$nvcc" -std=c++17 -O3 -arch=sm_90 -I"$root/bench/corpus" -o "$out/example" "$example"
  "$out/example"
  echo "== profiling it with the default tree"
  "$tool" profile -o "$out/profile.json" "$example" -- -std=c++17 \
    -I"$root/bench/corpus" -- "$out/example"
  "$tool" plan --tree=learned --samples="$out/profile.json" "$example" -- \
    -std=c++17 -I"$root/bench/corpus"
  echo "== optimizing a copy of it: profile, rewrite, rebuild, run, compare, time"
  cp "$example" "$root/bench/corpus/corpus.cuh" "$out/"
  copy="$out/$(basename "$example")"
  "$tool" optimize "$copy" --build "$nvcc -std=c++17 -O3 -arch=sm_90 -o $out/example $copy" \
    --run "$out/example" --in-place --report="$out/report.json" -- -std=c++17
  diff -u "$example" "$copy" || true
  rm -rf "$out"
else
  echo "== no GPU on this machine: static analysis only; running, profiling and optimizing the program are skipped"
fi
