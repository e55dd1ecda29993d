#!/usr/bin/env bash
# Writes, for every corpus program and every built-in transformation, the
# unified diff that `optimize --dry-run` proposes, one file per pair, into
# <out-dir>. Two runs of different tools can then be compared with
# `diff -r` to see which rewrites of the corpus changed (no GPU needed).
#
#   utils/corpus_edits.sh <clang-autoprof> <out-dir>
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ $# -ne 2 ]; then
  echo "usage: corpus_edits.sh <clang-autoprof> <out-dir>" >&2
  exit 2
fi
tool=$1
out=$2
mkdir -p "$out"
# The registry's names, from the error an unknown name gets.
transformations=$("$tool" optimize --dry-run --transformations=- "$root/bench/corpus/relu.cu" 2>&1 |
  sed -n 's/.*known: //p' | tr -d ',' || true)
if [ -z "$transformations" ]; then
  echo "corpus_edits: error: could not list the transformations of $tool" >&2
  exit 1
fi
for src in "$root"/bench/corpus/*.cu; do
  base=$(basename "$src" .cu)
  for t in $transformations; do
    "$tool" optimize --dry-run --transformations="$t" --diff "$src" -- -std=c++17 \
      > "$out/$base.$t.diff" 2>/dev/null || true
    [ -s "$out/$base.$t.diff" ] || rm -f "$out/$base.$t.diff"
  done
done
echo "corpus_edits: $(ls "$out" | wc -l) non-empty diffs in $out"
