#!/usr/bin/env bash
# A Slurm array job: task I of N precompiles shard I of the application for
# the processors, then one dependent job merges and packs (docs/ci.md):
#   jid=$(sbatch --parsable examples/ci/slurm-precompile.sh)
#   sbatch --dependency=afterok:$jid --wrap \
#     'examples/ci/merge-and-pack.sh app-cache.tar.zst shard-*/'
#SBATCH --job-name=zluda-precompile
#SBATCH --array=1-4
#SBATCH --cpus-per-task=8
set -euo pipefail
cd "${SLURM_SUBMIT_DIR:-.}"
export ZLUDA_COMPILE_THREADS=${SLURM_CPUS_PER_TASK:-}
[ -n "$ZLUDA_COMPILE_THREADS" ] || unset ZLUDA_COMPILE_THREADS
examples/ci/precompile-shard.sh "$SLURM_ARRAY_TASK_ID" "$SLURM_ARRAY_TASK_COUNT" \
  "${ZLUDA_ARCHS:-gfx1100,gfx942}" "${ZLUDA_INPUTS:-build/app}"
