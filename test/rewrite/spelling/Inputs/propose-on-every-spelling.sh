#!/usr/bin/env bash
# propose-on-every-spelling.sh <clang-autoprof> <transformation> <dir> <out>
# For every program <dir>/*.cu: the transformation is proposed, no reason is
# given against it, and the rewritten copy <out>.<name>.cu parses. Prints
# what failed and exits 1 on the first failure.
set -u
tool=$1 t=$2 dir=$3 out=$4
n=0
for src in "$dir"/*.cu; do
  v=$(basename "$src" .cu)
  "$tool" optimize --dry-run --explain --transformations="$t" "$src" \
    -- -std=c++17 > "$out.$v.txt" 2>&1 || { echo "$v: failed"; cat "$out.$v.txt"; exit 1; }
  grep -q "^  $t: " "$out.$v.txt" || { echo "$v: not proposed"; cat "$out.$v.txt"; exit 1; }
  if grep -q 'not applied' "$out.$v.txt"; then echo "$v: refused"; cat "$out.$v.txt"; exit 1; fi
  "$tool" optimize --dry-run --transformations="$t" -o "$out.$v.cu" "$src" \
    -- -std=c++17 || { echo "$v: no rewritten copy"; exit 1; }
  "$tool" features "$out.$v.cu" -- -std=c++17 -I"$dir" > /dev/null ||
    { echo "$v: the rewritten copy does not parse"; exit 1; }
  n=$((n + 1))
done
echo "$t proposed on $n spellings"
