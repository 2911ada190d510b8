#!/usr/bin/env bash
# One CI job's share of a sharded precompile: builds shard I of N of the
# inputs for the given processors into a cache of its own, to be merged by
# merge-and-pack.sh. Used by github-actions.yml, gitlab-ci.yml and
# slurm-precompile.sh (docs/ci.md).
#   precompile-shard.sh I N PROCESSORS INPUT...
# PROCESSORS is a comma-separated list (gfx1100,gfx942). The cache is
# shard-I (shard-I-PROCESSORS when ZLUDA_SHARD_PER_ARCH=1, for a matrix of
# shards x processors); its summary is written next to it as JSON.
# Exit 1 from the build means some kernels could not be compiled (the
# summary names them): the job still succeeds with what was compiled,
# unless ZLUDA_STRICT=1. Any other failure fails the job.
set -euo pipefail
shard=$1 shards=$2 archs=$3
shift 3
name="shard-$shard"
[ "${ZLUDA_SHARD_PER_ARCH:-0}" = 1 ] && name="$name-${archs//,/-}"
rc=0
"${ZLUDA_PRECOMPILE:-zluda-precompile}" build "$@" --arch "$archs" \
  --cache "$name" --shard "$shard/$shards" --json "$name.json" || rc=$?
if [ "$rc" -eq 1 ] && [ "${ZLUDA_STRICT:-0}" != 1 ]; then
  echo "precompile-shard: some kernels were left out (see $name.json)" >&2
  rc=0
fi
exit "$rc"
