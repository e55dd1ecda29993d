#!/usr/bin/env bash
# propose-on-every-spelling.sh <clang-autoprof> <transformation> <dir> <out>
# For every program <dir>/*.cu: the transformation is proposed, no reason is
# given against it, and the rewritten program parses. The first proposal's
# diff (a transformation with variants proposes one per variant)
# <out>.<name>.diff (of the program and of the header that holds its
# kernel, if any) is applied to copies of the program and of the files it
# changes in <out>.<name>.d; the rewritten program is also <out>.<name>.cu.
# Prints what failed and exits 1 on the first failure.
set -u
tool=$1 t=$2 dir=$3 out=$4
n=0
for src in "$dir"/*.cu; do
  v=$(basename "$src" .cu)
  (cd "$dir" && "$tool" optimize --dry-run --explain --transformations="$t" "$v.cu" \
    -- -std=c++17) > "$out.$v.txt" 2>&1 || { echo "$v: failed"; cat "$out.$v.txt"; exit 1; }
  grep -q "^  $t\(([^)]*)\)\?: " "$out.$v.txt" || { echo "$v: not proposed"; cat "$out.$v.txt"; exit 1; }
  if grep -q 'not applied' "$out.$v.txt"; then echo "$v: refused"; cat "$out.$v.txt"; exit 1; fi
  (cd "$dir" && "$tool" optimize --dry-run --diff --transformations="$t" "$v.cu" \
    -- -std=c++17) > "$out.$v.all.diff" || { echo "$v: no diff"; exit 1; }
  awk '/^# / && n++ { exit } { print }' "$out.$v.all.diff" > "$out.$v.diff"
  rm -rf "$out.$v.d" && mkdir -p "$out.$v.d" && cp "$src" "$out.$v.d/"
  for f in $(sed -n 's|^+++ b/||p' "$out.$v.diff"); do
    cp "$dir/$f" "$out.$v.d/$f" || { echo "$v: the diff names '$f'"; exit 1; }
  done
  (cd "$out.$v.d" && patch -s -p1 < "$out.$v.diff") || { echo "$v: the diff does not apply"; exit 1; }
  cp "$out.$v.d/$v.cu" "$out.$v.cu"
  "$tool" features "$out.$v.d/$v.cu" -- -std=c++17 -I"$dir" > /dev/null ||
    { echo "$v: the rewritten program does not parse"; exit 1; }
  n=$((n + 1))
done
echo "$t proposed on $n spellings"
