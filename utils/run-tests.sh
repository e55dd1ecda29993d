#!/usr/bin/env bash
# Sets up and builds (utils/setup.sh), then runs every test: the unit tests
# and the lit suite (GPU tests report UNSUPPORTED without a GPU).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/utils/setup.sh"
ninja -C "${BUILD_DIR:-$root/build}" check-autoprof
