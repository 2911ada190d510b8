#!/usr/bin/env bash
# Benchmark (not a test): the whole PTX -> code object compilation,
# `zluda-precompile compile --emit=hsaco` with -j 1 and -j 2, against
# `ptxas -O3` on the same PTX, for a fixed set of real modules. Runs are
# alternated (ours -j1, ours -j2, ptxas); medians; prints per module the
# ratio ours(-j 1) / ptxas and the -j 2 speedup, then their geometric means.
#
# Usage: bench/compile-vs-ptxas.sh [ARCH] [RUNS]
#   ARCH  AMDGPU processor, default gfx1100;  RUNS  default 5
# The set: the corpus' scan, sort and reduce_histogram modules (10-17
# kernels each, CUB/Thrust) and two cuRAND modules picked from
# libcurand.so.10 by the selection policy (needs the CUDA toolkit).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
arch=${1:-gfx1100}
runs=${2:-5}
command -v ptxas >/dev/null || { echo "ptxas not found" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

modules=("$root"/test/corpus/ptx/{scan.sm_80,sort.sm_80,reduce_histogram.sm_86}.ptx)
curand=${CUDA_HOME:-/usr/local/cuda}/lib64/libcurand.so.10
if [ -f "$curand" ]; then
  "$tool" extract --selected "$curand" -o "$work/curand" >/dev/null
  modules+=("$work"/curand/libcurand.so.10.c{3,7}.e8.*.ptx)
fi

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratios=() speedups=()
printf '%-40s %9s %9s %9s %11s %9s\n' module "ours -j1" "ours -j2" ptxas "j1/ptxas" "j1/j2"
for ptx in "${modules[@]}"; do
  sm=$(awk '$1 == ".target" { sub(/,.*/, "", $2); print $2; exit }' "$ptx")
  "$tool" compile "$ptx" --arch "$arch" --emit=hsaco -o "$work/out.hsaco" # warm-up
  ptxas -O3 -arch="$sm" "$ptx" -o "$work/out.cubin" 2>/dev/null
  j1=() j2=() px=()
  for ((i = 0; i < runs; i++)); do
    t0=$(now)
    "$tool" compile "$ptx" --arch "$arch" --emit=hsaco -j 1 -o "$work/out.hsaco"
    t1=$(now)
    "$tool" compile "$ptx" --arch "$arch" --emit=hsaco -j 2 -o "$work/out.hsaco"
    t2=$(now)
    ptxas -O3 -arch="$sm" "$ptx" -o "$work/out.cubin" 2>/dev/null
    t3=$(now)
    j1+=($(((t1 - t0) / 1000))) j2+=($(((t2 - t1) / 1000))) px+=($(((t3 - t2) / 1000)))
  done
  a=$(printf '%s\n' "${j1[@]}" | median)
  b=$(printf '%s\n' "${j2[@]}" | median)
  c=$(printf '%s\n' "${px[@]}" | median)
  r=$(echo "$a / $c" | bc -l) s=$(echo "$a / $b" | bc -l)
  ratios+=("$r") speedups+=("$s")
  printf '%-40s %8.3fs %8.3fs %8.3fs %11.2f %9.2f\n' "$(basename "$ptx" .ptx)" \
    "$(echo "$a / 1000000" | bc -l)" "$(echo "$b / 1000000" | bc -l)" \
    "$(echo "$c / 1000000" | bc -l)" "$r" "$s"
done
geo() { printf '%s\n' "$@" | awk '{ s += log($1) } END { printf "%.2f", exp(s / NR) }'; }
echo "geometric mean over ${#ratios[@]} modules, $arch, $runs runs each:" \
  "ours(-j 1)/ptxas = $(geo "${ratios[@]}"), -j 2 speedup = $(geo "${speedups[@]}")"
