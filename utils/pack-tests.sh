#!/usr/bin/env bash
# Packs what the lit suite needs to run on a machine without LLVM 22 (a GPU
# machine): the tool (LLVM linked statically), Clang's resource headers, lit,
# FileCheck, not and count. Writes build/pack/autoprof-tests.tar.xz; on the
# other machine, in a checkout of the same sources:
#
#   tar -xJf autoprof-tests.tar.xz -C /tmp/autoprof && \
#     /tmp/autoprof/run-lit.sh <checkout> [lit options]
#
# The tests and their inputs are the checkout's (test/, and bench/corpus/ for
# the corpus tests): `run-lit.sh <checkout> --filter perf-gate` runs those of
# check's performance gate. The packed tool serves the scripts of the
# checkout too, e.g.
#
#   <checkout>/utils/perf_gate_corpus.py \
#     --tool /tmp/autoprof/bin/clang-autoprof -o perf-gate.json
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}
llvm=/usr/lib/llvm-22
stage=$build/pack/stage
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib/clang" "$stage/llvm-bin"
cp "$build/bin/clang-autoprof" "$stage/bin/" && strip "$stage/bin/clang-autoprof"
cp -r "$build/lib/clang/22" "$stage/lib/clang/"
cp "$build/lib/libautoprof-inject.so" "$stage/lib/"
cp "$llvm/bin/FileCheck" "$llvm/bin/not" "$llvm/bin/count" "$stage/llvm-bin/"
cp -r "$llvm/utils/lit" "$stage/litpkg"
# FileCheck, not and count need LLVM's Z3, which other systems lack.
mkdir -p "$stage/llvm-lib"
cp -L "$(ldd "$llvm/bin/FileCheck" | awk '/libz3/ {print $3}')" "$stage/llvm-lib/"
cat > "$stage/run-lit.sh" <<'RUN'
#!/usr/bin/env bash
# Runs the lit suite of the checkout $1 with the packed tools.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$1" && pwd); shift
obj=$here/obj
mkdir -p "$obj/test"
cuda=${CUDAToolkit_ROOT:-/usr/local/cuda}
cat > "$obj/test/lit.site.cfg.py" <<CFG
import lit.llvm
config.llvm_tools_dir = "$here/llvm-bin"
config.autoprof_src_root = "$src"
config.autoprof_obj_root = "$obj"
config.autoprof_tools_dir = "$here/bin"
config.cuda_path = "$cuda"
config.python_executable = "$(command -v python3)"
config.cmake_command = "$(command -v cmake || echo cmake)"
lit.llvm.initialize(lit_config, config)
lit_config.load_config(config, "$src/test/lit.cfg.py")
CFG
PATH=$here/llvm-bin:$PATH LD_LIBRARY_PATH=$here/llvm-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} PYTHONPATH=$here/litpkg python3 -c "import sys; from lit.main import main; sys.argv[0] = 'lit'; main()" "$@" "$obj/test"
RUN
chmod +x "$stage/run-lit.sh"
tar -cJf "$build/pack/autoprof-tests.tar.xz" -C "$stage" .
ls -la "$build/pack/autoprof-tests.tar.xz"
