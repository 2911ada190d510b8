#!/usr/bin/env bash
# Writes what the lowering makes of every corpus module and every PTX input
# of the conversion and codegen tests into OUT_DIR, so that a refactoring of
# the lowering can be shown to change nothing: run it before and after, then
# `diff -r BEFORE AFTER`.
#
#   scripts/lowering-snapshot.sh OUT_DIR [BUILD_DIR]
#
# Per input: the LLVM dialect after convert-ptx-to-llvm (gfx1100 and
# sm_90), the code objects for gfx1030, gfx1100 and gfx1201, and the NVPTX
# build's PTX (sm_90), each with --keep-going, plus every command's exit
# status and diagnostics. Runs $ZLUDA_JOBS (default: all cores) inputs at
# a time.
set -uo pipefail
out=${1:?usage: lowering-snapshot.sh OUT_DIR [BUILD_DIR]}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${2:-$root/build}
jobs=${ZLUDA_JOBS:-$(nproc)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export precompile="$build/bin/zluda-precompile" opt="$build/bin/zluda-opt"
export out

one() {
  f=$1
  name=$(echo "${f#"$root"/}" | tr / _)
  o="$out/$name"
  # Every command's status and diagnostics, with the input's path relative.
  run() {
    local tag=$1
    shift
    "$@" >"$o.$tag" 2>"$o.$tag.err"
    echo "exit $?" >>"$o.$tag.err"
    sed -i -e "s|$root/||g" -e "s|$out/||g" "$o.$tag.err"
  }
  run mlir "$precompile" compile "$f" --emit=mlir -o -
  run lowered-gfx1100 "$opt" --convert-ptx-to-llvm=chip=gfx1100 "$o.mlir"
  run lowered-sm_90 "$opt" "--convert-ptx-to-llvm=target=nvptx chip=sm_90" \
    "$o.mlir"
  for arch in gfx1030 gfx1100 gfx1201; do
    run "$arch.hsaco" "$precompile" compile "$f" --arch "$arch" --keep-going \
      -j 1 -o -
  done
  run sm_90.ptx "$precompile" compile "$f" --target nvptx --arch sm_90 \
    --keep-going -j 1 -o -
}
export -f one
export root
find "$root/test/corpus/ptx" "$root/test/Conversion/PTXToLLVM" \
  "$root/test/Codegen" -name '*.ptx' | sort |
  xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
echo "$(find "$root/test/corpus/ptx" "$root/test/Conversion/PTXToLLVM" \
  "$root/test/Codegen" -name '*.ptx' | wc -l) inputs, $(ls "$out" | wc -l) files in $out"
