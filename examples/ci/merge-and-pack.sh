#!/usr/bin/env bash
# The last CI job: merges the shards' caches (every entry verified; two
# different entries under one key fail the job) and packs the result as one
# reproducible archive (docs/ci.md).
#   merge-and-pack.sh OUT.tar.zst SHARD-CACHE...
set -euo pipefail
out=$1
shift
zp=${ZLUDA_PRECOMPILE:-zluda-precompile}
rm -rf merged
"$zp" cache merge "$@" --into merged
"$zp" cache verify merged
"$zp" cache pack merged -o "$out"
