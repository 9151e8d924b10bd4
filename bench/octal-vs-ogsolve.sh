#!/usr/bin/env bash
# Issue 17's octal benchmark: the kernel's check of `period octal` claims
# against Beling's ogsolve computing the same number of nim values, one
# process each, side by side. Installs ogsolve with cargo if it is missing.
# Usage: bash bench/octal-vs-ogsolve.sh [--slow]   (--slow adds 0.56)
set -euo pipefail
source "$(dirname "$0")/common.sh" ogsolve
# code, n0, p, t (the most tokens a move removes)
games=("0.156 3479 349 3" "0.165 5181 1550 3" "0.127 46578 4 3")
[[ "${1:-}" == "--slow" ]] && games+=("0.56 326640 144 2")
printf '%-7s %9s %12s %14s %14s %10s %10s\n' game values gamecert "ogsolve naive" "ogsolve rc2" "/naive" "/rc2"
for game in "${games[@]}"; do
  read -r code n0 p t <<<"$game"
  values=$((2 * n0 + 2 * p + t))
  printf 'gamecert 1\nclaim p: period octal %s = (%s, %s) by search\n' "$code" "$n0" "$p" >"$dir/p.cert"
  ours=$(seconds ./target/release/gamecert check "$dir/p.cert")
  naive=$(seconds ogsolve "$code" -m naive -n $((values - 1)))
  rc2=$(seconds ogsolve "$code" -m rc2 -n $((values - 1)))
  printf '%-7s %9d %11.2f s %12.2f s %12.3f s %10.1f %10.1f\n' "$code" "$values" "$ours" "$naive" "$rc2" \
    "$(echo "$ours / $naive" | bc -l)" "$(echo "$ours / $rc2" | bc -l)"
done
