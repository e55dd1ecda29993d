#!/usr/bin/env bash
# Installs what clang-autoprof needs on a Debian machine, then configures and
# builds it in build/. Idempotent: with nothing missing it only runs ninja.
#
#   utils/setup.sh            install, configure, build
#   BUILD_DIR=dir utils/setup.sh
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cuda=${CUDAToolkit_ROOT:-${CUDA_PATH:-/usr/local/cuda}}

if [ ! -x "$cuda/bin/nvcc" ]; then
  echo "setup: error: the CUDA 13 toolkit was not found at $cuda (install it, or set CUDAToolkit_ROOT)" >&2
  exit 1
fi

packages=(clang-22 libclang-22-dev llvm-22-dev llvm-22-tools
  rapidjson-dev libcurl4-openssl-dev libzstd-dev zlib1g-dev
  cmake ninja-build g++ python3 googletest libgtest-dev patch libclang-rt-22-dev
  clang-tools-22 pre-commit git)
missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm \
    -DClang_DIR=/usr/lib/llvm-22/lib/cmake/clang \
    -DCUDAToolkit_ROOT="$cuda" >/dev/null
fi
ninja -C "$build" "$@"
