#!/usr/bin/env bash
# Runs the GPU tests (lit tests that REQUIRE cuda-gpu) on a GPU machine, from
# the archive utils/pack-tests.sh made, in a checkout of the same sources:
#
#   utils/run-gpu-tests.sh build/pack/autoprof-tests.tar.xz [lit options]
#
# Fails when no GPU answers (the tests would all be unsupported).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
pack=${1:?usage: run-gpu-tests.sh <autoprof-tests.tar.xz> [lit options]}
shift
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "run-gpu-tests: error: no GPU answers nvidia-smi" >&2
  exit 1
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
tar -xJf "$pack" -C "$dir"
export PATH=${CUDAToolkit_ROOT:-/usr/local/cuda}/bin:$PATH
# The GPU tests, and the ones that use the injection library or nvcc.
"$dir/run-lit.sh" "$root" --filter 'profile|corpus|optimize' "$@"
