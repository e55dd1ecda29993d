#!/usr/bin/env bash
# access-classes.sh <clang-autoprof> <family-dir>
# Prints, for every program of a spelling family, the access classes its
# kernel's global accesses fall in (those with a non-zero count), then one
# line "<family>: <classes> on every spelling" when they agree, or the
# spellings that differ and exit 1.
set -u
tool=$1 dir=$2
family=$(basename "$dir")
first="" differ=0
for src in "$dir"/*.cu; do
  v=$(basename "$src" .cu)
  json=$(cd "$dir" && "$tool" features "$v.cu" -- -std=c++17) || { echo "$v: features failed"; exit 1; }
  classes=$(printf '%s\n' "$json" |
    sed -n 's/^ *access_\(coalesced\|strided\|uniform\|indirect\): *\([0-9]*\).*/\1 \2/p' |
    awk '$2 > 0 {print $1}' | sort | tr '\n' ' ' | sed 's/ $//')
  echo "$v: $classes"
  if [ -z "$first" ]; then first=$classes; elif [ "$classes" != "$first" ]; then differ=1; fi
done
if [ $differ -ne 0 ]; then echo "$family: the spellings differ"; exit 1; fi
echo "$family: $first on every spelling"
