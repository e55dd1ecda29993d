#!/usr/bin/env bash
# Sets up and builds (utils/setup.sh), then runs every test: the unit tests
# and the lit suite (GPU tests report UNSUPPORTED without a GPU), then each
# fuzz target for a short while (utils/fuzz.sh; FUZZ_SECONDS, default 10).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/utils/setup.sh"
ninja -C "${BUILD_DIR:-$root/build}" check-autoprof
"$root/utils/fuzz.sh" "${FUZZ_SECONDS:-10}"
