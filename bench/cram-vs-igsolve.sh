#!/usr/bin/env bash
# Issue 17's Cram benchmark: `gamecert prove grundy` (the answer-file
# producer, all cores) against Beling's igsolve (one thread) computing the
# same value, one process at a time, side by side; then the kernel's check
# of the file just written. "search" is the producer's search alone (the
# rest of "prove" writes the proof). Installs igsolve with cargo if missing.
# Usage: bash bench/cram-vs-igsolve.sh [--slow]   (--slow adds 3x13..3x18;
# 3x16 takes about 13 minutes and 8 GB here, igsolve over 10 minutes; the
# memory cap is raised for it)
set -euo pipefail
source "$(dirname "$0")/common.sh" igsolve
boards=("3 12" "4 9" "5 7" "5 8")
[[ "${1:-}" == "--slow" ]] && boards+=("3 13" "3 14" "3 15" "3 16" "3 17" "3 18")
printf '%-6s %5s %10s %10s %10s %9s %9s %13s\n' board value prove search igsolve /igsolve check search/check
for board in "${boards[@]}"; do
  read -r rows cols <<<"$board"
  ours=$(seconds ./target/release/gamecert prove grundy cram "${rows}x${cols}" -o "$dir/b.cert" --budget 60m --max-memory 16000)
  search=$(grep -o '(search [0-9.]*' "$dir/b.cert" | tr -dc '0-9.')
  theirs=$(seconds sh -c "igsolve cram -r $rows -c $cols > $dir/igsolve.out")
  value=$(grep -o '= [0-9]*' "$dir/b.cert" | head -1 | tr -d '= ')
  theirs_value=$(sed -n 's/Nimber of initial position: //p' "$dir/igsolve.out")
  [[ "$value" == "$theirs_value" ]] || echo "values differ on ${rows}x${cols}: $value vs $theirs_value"
  check=$(seconds ./target/release/gamecert check "$dir/b.cert")
  printf '%-6s %5s %8.2f s %8.2f s %8.2f s %9.1f %7.2f s %13.1f\n' "${rows}x${cols}" "$value" "$ours" "$search" "$theirs" \
    "$(echo "$ours / $theirs" | bc -l)" "$check" "$(echo "$search / $check" | bc -l)"
done
