#!/usr/bin/env bash
# Benchmark (not a test) of the main job on a multi-module library: a cold
# `build` with -j 1 and with -j 2 (each into a fresh cache), then a second
# run over the -j 2 cache; prints the times, the -j 2 speedup and the
# second/first ratio, and checks that both cold caches hold the same bytes.
#
# Usage: bench/build-cache.sh [LIBRARY] [ARCHS]
#   LIBRARY  default: libcurand.so.10 of the CUDA toolkit
#   ARCHS    default: gfx1100
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
lib=${1:-${CUDA_HOME:-/usr/local/cuda}/lib64/libcurand.so.10}
archs=${2:-gfx1100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }
run() { # cache jobs -> seconds
  local t0 t1
  t0=$(now)
  "$tool" build "$lib" --arch "$archs" --cache "$1" -j "$2" >"$work/out" 2>&1 || true
  t1=$(now)
  echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}
j1=$(run "$work/j1" 1)
j2=$(run "$work/j2" 2)
again=$(run "$work/j2" 2)
head -n 3 "$work/out"
diff -r "$work/j1/v1/entries" "$work/j2/v1/entries" >/dev/null &&
  same=identical || same=DIFFERENT
printf 'library: %s, processors: %s\n' "$(basename "$lib")" "$archs"
printf 'cold -j 1: %s s   cold -j 2: %s s   speedup: %.2f\n' "$j1" "$j2" "$(echo "$j1 / $j2" | bc -l)"
printf 'second run: %s s   second/first: %.3f\n' "$again" "$(echo "$again / $j2" | bc -l)"
printf 'cache bytes with -j 1 and -j 2: %s\n' "$same"
