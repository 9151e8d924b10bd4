#!/usr/bin/env bash
# Issue 17's Cram benchmark: `gamecert prove grundy` (the answer-file
# producer) against Beling's igsolve computing the same value, one process
# each, side by side; then the kernel's check of the file just written.
# Installs igsolve with cargo if it is missing.
# Usage: bash bench/cram-vs-igsolve.sh [--slow]   (--slow adds 3x13, 3x14, 3x15;
# the producer does not reach 3x16 and beyond, see out-of-reach/cram)
set -euo pipefail
source "$(dirname "$0")/common.sh" igsolve
boards=("3 12" "4 9" "5 7" "5 8")
[[ "${1:-}" == "--slow" ]] && boards+=("3 13" "3 14" "3 15")
printf '%-6s %6s %12s %12s %10s %12s %14s\n' board value "prove" igsolve "/igsolve" check "prove/check"
for board in "${boards[@]}"; do
  read -r rows cols <<<"$board"
  ours=$(seconds ./target/release/gamecert prove grundy cram "${rows}x${cols}" -o "$dir/b.cert" --budget 60m)
  theirs=$(seconds igsolve cram -r "$rows" -c "$cols")
  value=$(grep -o '= [0-9]*' "$dir/b.cert" | head -1 | tr -d '= ')
  theirs_value=$(igsolve cram -r "$rows" -c "$cols" | sed -n 's/Nimber of initial position: //p')
  [[ "$value" == "$theirs_value" ]] || echo "values differ on ${rows}x${cols}: $value vs $theirs_value"
  check=$(seconds ./target/release/gamecert check "$dir/b.cert")
  printf '%-6s %6s %10.2f s %10.2f s %10.1f %10.2f s %14.1f\n' "${rows}x${cols}" "$value" "$ours" "$theirs" \
    "$(echo "$ours / $theirs" | bc -l)" "$check" "$(echo "$ours / $check" | bc -l)"
done
