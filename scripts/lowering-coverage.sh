#!/usr/bin/env bash
# Measures how much of the PTX corpus the AMDGPU lowering compiles: for each
# module, `compile --emit=hsaco --keep-going` for ARCH, then counts the
# kernels in the code object. Prints one line per module
# (name exit-code kernels-in-ptx kernels-compiled), the totals, and the
# unsupported instructions by count.
# Usage: scripts/lowering-coverage.sh [ARCH] [PTX...]   (default gfx1100, the corpus)
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
readelf=$(command -v llvm-readelf-22 || command -v llvm-readelf)
arch=${1:-gfx1100}
shift || true
inputs=("$@")
[ ${#inputs[@]} -eq 0 ] && inputs=("$root"/test/corpus/ptx/*.ptx)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
modules=0 whole=0 some=0 total=0 compiled=0
for f in "${inputs[@]}"; do
  n=$(basename "$f" .ptx)
  in=$(grep -cE '^\s*(\.(visible|weak|extern)\s+)?\.entry' "$f")
  "$tool" compile "$f" --arch "$arch" --emit=hsaco --keep-going \
    -o "$work/$n.hsaco" 2>"$work/$n.err"
  rc=$?
  out=0
  [ -f "$work/$n.hsaco" ] &&
    out=$("$readelf" -s "$work/$n.hsaco" | awk '$NF ~ /\.kd$/ {print $NF}' | sort -u | wc -l)
  echo "$n $rc $in $out"
  modules=$((modules + 1)); total=$((total + in)); compiled=$((compiled + out))
  [ "$rc" -eq 0 ] && whole=$((whole + 1))
  [ "$out" -gt 0 ] && some=$((some + 1))
done
echo "$arch: $modules modules, $whole compiled whole, $some with at least one kernel; kernels $compiled/$total"
echo "unsupported instructions (occurrences, by opcode):"
cat "$work"/*.err | sed -n 's/.*error: unsupported: //p' | awk '{print $1}' |
  sed 's/\..*//' | sort | uniq -c | sort -rn | head -20
