#!/usr/bin/env bash
# Benchmark (not a test): parse + verify of one PTX module by
# `zluda-precompile compile --emit=none` against `ptxas -O3` on the same
# module, run alternately, and the ratios of the median wall times: of the
# whole process, and of the parse+verify phase alone (`--time-phases`),
# without the process start-up (loading libMLIR/libLLVM, ~40 ms).
#
# Usage: bench/frontend-vs-ptxas.sh [PTX_FILE] [RUNS]
#   PTX_FILE  default: the largest module of test/corpus/ptx
#   RUNS      default: 7
# Needs ptxas (CUDA toolkit) on PATH and a built ./build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
ptx=${1:-$(ls -S "$root"/test/corpus/ptx/*.ptx | head -n 1)}
runs=${2:-7}
arch=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$ptx")
command -v ptxas >/dev/null || { echo "ptxas not found" >&2; exit 2; }

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

ours=() inproc=() theirs=()
"$tool" compile "$ptx" --emit=none            # warm-up (and must succeed)
ptxas -O3 -arch="$arch" "$ptx" -o /dev/null 2>/dev/null
for ((i = 0; i < runs; i++)); do
  t0=$(now)
  phase=$("$tool" compile "$ptx" --emit=none --time-phases 2>&1 >/dev/null |
    awk '$1 == "parse+verify:" { print int($2 * 1000000) }')
  t1=$(now)
  ptxas -O3 -arch="$arch" "$ptx" -o /dev/null 2>/dev/null; t2=$(now)
  ours+=($(( (t1 - t0) / 1000 ))) inproc+=("$phase") theirs+=($(( (t2 - t1) / 1000 )))
done
a=$(printf '%s\n' "${ours[@]}" | median)
p=$(printf '%s\n' "${inproc[@]}" | median)
b=$(printf '%s\n' "${theirs[@]}" | median)
printf 'module: %s (%s bytes, %s)\n' "$(basename "$ptx")" "$(wc -c <"$ptx")" "$arch"
printf 'zluda-precompile compile --emit=none: median %.3f s over %d runs\n' "$(echo "$a / 1000000" | bc -l)" "$runs"
printf 'ptxas -O3:                     median %.3f s over %d runs\n' "$(echo "$b / 1000000" | bc -l)" "$runs"
printf '  of which parse+verify:      median %.3f s (the rest is process start-up)\n' "$(echo "$p / 1000000" | bc -l)"
printf 'ratio, whole process (ours / ptxas):  %.3f\n' "$(echo "$a / $b" | bc -l)"
printf 'ratio, parse+verify (ours / ptxas):   %.3f\n' "$(echo "$p / $b" | bc -l)"
