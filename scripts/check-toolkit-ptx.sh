#!/usr/bin/env bash
# Extracts every PTX module of the CUDA toolkit's libraries, drops
# duplicates (same bytes), and parses + verifies each with
# `zluda-precompile compile --emit=none`. Prints the module, kernel and byte
# counts and the parse rate; lists each failure. Not part of ctest (it reads
# gigabytes and takes minutes); issue closing notes quote its output.
#
# Usage: scripts/check-toolkit-ptx.sh [LIB_DIR] (default /usr/local/cuda/lib64)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
libdir=${1:-/usr/local/cuda/lib64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$tool" extract "$libdir" -o "$work/ptx" | tail -n 1
cd "$work/ptx"
md5sum -- *.ptx | sort | awk '!seen[$1]++ { print $2 }' > "$work/unique"
modules=$(wc -l < "$work/unique")
bytes=$(xargs cat < "$work/unique" | wc -c)
kernels=$(xargs cat < "$work/unique" | grep -c '\.entry ' || true)
ok=0
failed=0
start=$(date +%s)
while read -r f; do
  if "$tool" compile "$f" --emit=none 2>"$work/err"; then
    ok=$((ok + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $f: $(head -n 1 "$work/err")"
  fi
done < "$work/unique"
echo "unique modules: $modules, kernels: $kernels, bytes: $bytes"
echo "parsed and verified: $ok of $modules ($failed failed) in $(( $(date +%s) - start )) s"
[ "$failed" -eq 0 ]
