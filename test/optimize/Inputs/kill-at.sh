#!/usr/bin/env bash
# kill-at.sh <dir> <seconds>... -- <optimize command...>
# Runs the command once per delay, killing it (SIGKILL, with its process
# group) after that many seconds; after each, <dir>/scale.cu must equal
# <dir>/scale.cu.orig byte for byte and no '.autoprof-orig' copy may be
# left. Prints one line per delay; exits 1 at the first difference.
set -u
dir=$1; shift
delays=()
while [ "$1" != "--" ]; do delays+=("$1"); shift; done
shift
for d in "${delays[@]}"; do
  setsid "$@" > "$dir/kill-$d.out" 2>&1 &
  pid=$!
  sleep "$d"
  kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # The builds and runs it started live in their own process groups.
  pgrep -f "$dir/scale" | grep -v -x -e "$$" -e "$PPID" | xargs -r kill -KILL 2>/dev/null
  sleep 1
  if ! cmp -s "$dir/scale.cu" "$dir/scale.cu.orig"; then
    echo "killed after ${d}s: the source changed"; exit 1
  fi
  if ls -a "$dir" | grep -q 'autoprof-orig'; then
    echo "killed after ${d}s: a copy of the source was left"; exit 1
  fi
  echo "killed after ${d}s: the source is unchanged"
done
