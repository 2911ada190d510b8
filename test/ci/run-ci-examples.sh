#!/usr/bin/env bash
# ctest `ci-examples`: runs the commands of examples/ci/ (GitHub Actions
# matrix, GitLab parallel jobs, Slurm array) locally, as their CI would, on
# a folder of the project's test programs standing in for build/app, and
# checks each merged cache equals one unsharded build byte for byte and
# that its packed archive unpacks to the same entries.
# Usage: run-ci-examples.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
src=$1 build=$2 work=$3
rm -rf "$work" && mkdir -p "$work/build/app"
cd "$work"
ln -s "$src/examples" examples
cp "$src"/test/Codegen/Inputs/*.ptx "$src"/test/Binary/Inputs/vadd-exe \
  "$src"/test/Binary/Inputs/multi.o "$src"/test/Binary/Inputs/libvadd.so build/app/
export PATH="$build/bin:$PATH" ZLUDA_COMPILE_THREADS=2
ci=examples/ci

zluda-precompile build build/app --arch gfx1100,gfx942 --cache reference > reference.txt || [ $? -eq 1 ]
grep -q "compiled" reference.txt

# check NAME: the merged cache and its archive hold the reference's entries.
check() {
  diff -r reference/v1/entries merged/v1/entries
  rm -rf unpacked
  zluda-precompile cache unpack app-cache.tar.zst --into unpacked > /dev/null
  diff -r reference/v1/entries unpacked/v1/entries
  echo "$1: $(find merged/v1/entries -name '*.zce' | wc -l) entries, same as one build"
  rm -rf merged unpacked shard-* app-cache.tar.zst
}

# The commands of a YAML file that call examples/ci/ (run: or script: lines).
commands() { grep -E '^\s*- (run: )?examples/ci/' "$1" | sed -E 's/^\s*- (run: )?//'; }

# GitHub Actions: every (shard, arch) of the matrix, then the merge job.
gh=$ci/github-actions.yml
shards=$(sed -nE 's/^\s*shard: \[(.*)\]/\1/p' $gh | tr -d ,)
archs=$(sed -nE 's/^\s*arch: \[(.*)\]/\1/p' $gh | tr -d ,)
export ZLUDA_SHARD_PER_ARCH=$(sed -nE 's/^\s*ZLUDA_SHARD_PER_ARCH: (.*)/\1/p' $gh)
run=$(commands $gh | grep precompile-shard)
for s in $shards; do
  for a in $archs; do
    c=${run//'${{ matrix.shard }}'/$s}
    eval "${c//'${{ matrix.arch }}'/$a}" 2>> jobs-log.txt
  done
done
[ "$(ls -d shard-*/ | wc -l)" -eq $(($(wc -w <<< "$shards") * $(wc -w <<< "$archs"))) ]
eval "$(commands $gh | grep merge-and-pack)" > /dev/null
check github-actions
unset ZLUDA_SHARD_PER_ARCH

# GitLab: `parallel: N` jobs with CI_NODE_INDEX/CI_NODE_TOTAL, then merge.
gl=$ci/gitlab-ci.yml
n=$(sed -nE 's/^\s*parallel: ([0-9]+)/\1/p' $gl)
for i in $(seq 1 "$n"); do
  CI_NODE_INDEX=$i CI_NODE_TOTAL=$n eval "$(commands $gl | grep precompile-shard)" 2>> jobs-log.txt
done
eval "$(commands $gl | grep merge-and-pack)" > /dev/null
check gitlab-ci

# Slurm: the array's tasks, then the dependent merge of its header.
sl=$ci/slurm-precompile.sh
range=$(sed -nE 's/^#SBATCH --array=([0-9]+)-([0-9]+)/\1 \2/p' $sl)
for i in $(seq $range); do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=$(wc -w <<< "$(seq $range)") \
    SLURM_SUBMIT_DIR=$work SLURM_CPUS_PER_TASK=2 $sl 2>> jobs-log.txt
done
eval "$(sed -nE "s/^#\s+'(.*)'$/\1/p" $sl)" > /dev/null
check slurm

# The build's exit 1 (kernels left out) keeps the job going unless strict.
grep -q "some kernels were left out" jobs-log.txt
ZLUDA_STRICT=1 $ci/precompile-shard.sh 1 1 gfx1100 build/app 2> /dev/null && exit 1
echo "ci-examples: ok"
