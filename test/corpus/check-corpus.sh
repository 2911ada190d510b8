#!/usr/bin/env bash
# Parses, verifies and round-trips every PTX module of the committed corpus:
# `zluda-precompile compile --emit=mlir`, then `zluda-opt --verify-roundtrip`.
# Prints the number of modules, kernels, functions and instructions, and
# fails if any module fails.
# Usage: check-corpus.sh ZLUDA_PRECOMPILE ZLUDA_OPT CORPUS_DIR
set -euo pipefail
precompile=$1 opt=$2 dir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
modules=0 failed=0 kernels=0 functions=0 instructions=0
for f in "$dir"/*.ptx; do
  modules=$((modules + 1))
  if ! "$precompile" compile "$f" -o "$tmp/m.mlir" 2>"$tmp/err" ||
     ! "$opt" --verify-roundtrip "$tmp/m.mlir" \
        --ptx-instruction-stats="output=$tmp/stats" -o /dev/null 2>>"$tmp/err"; then
    failed=$((failed + 1))
    echo "FAIL: $f"
    head -n 20 "$tmp/err"
    continue
  fi
  kernels=$((kernels + $(awk '$1=="kernels"{print $2}' "$tmp/stats")))
  functions=$((functions + $(awk '$1=="functions"{print $2}' "$tmp/stats")))
  instructions=$((instructions + $(awk '$1=="instructions"{print $2}' "$tmp/stats")))
done
echo "modules: $modules, failed: $failed, kernels: $kernels, functions: $functions, instructions: $instructions"
[ "$failed" -eq 0 ]
