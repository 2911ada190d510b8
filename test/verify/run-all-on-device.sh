#!/usr/bin/env bash
# The whole differential verification in one call on the GPU machine
# (`device`), from the repository root, with .verify and .shim carried
# (both made here by scripts/verify-prepare.sh):
#   1. the instruction, warp/block, atomics and memory sweeps
#      (test/verify/run-on-device.sh: NVIDIA's build of each sweep vs ours);
#   2. the real kernels of the test programs and cuda-samples, launch by
#      launch (test/shim/compare-on-device.sh);
#   3. the same programs natively and under the shim in strict mode
#      (test/shim/run-on-device.sh).
# Prints the per-suite table and the device time; details in $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/verify-out}"
export OUT
mkdir -p "$OUT"
start=$SECONDS
bash test/verify/run-on-device.sh "${RANDOM_INPUTS:-16777216}" > "$OUT/sweeps.log" 2>&1
bash test/verify/litmus/run-on-device.sh > "$OUT/litmus.log" 2>&1
BUDGET=${COMPARE_BUDGET:-300} bash test/shim/compare-on-device.sh \
  > "$OUT/compare.log" 2>&1
BUDGET=${SHIM_BUDGET:-150} bash test/shim/run-on-device.sh > "$OUT/shim.log" 2>&1
{
  echo "suite                           cases       inputs / launches   mismatches"
  sed -n 's/^suite \(.*\) \+\([0-9]\+\) families \+\([0-9]\+\) inputs \+\([0-9]\+\) mismatches/\1 \2 \3 \4/p' \
    "$OUT/verify.txt" |
    awk '{m = $NF; i = $(NF-1); c = $(NF-2); $NF = $(NF-1) = $(NF-2) = "";
          printf "sweeps: %-24s %5s families %14s inputs %10s mismatches\n", $0, c, i, m}'
  awk '/^total:/ { printf "real kernels, launch by launch   %s programs %7s launches %10s mismatches (%s same, %s nondeterministic, %s beyond 16 a kernel, %s errors)\n", $2, $4, $9, $7, $11, $13, $15 }' \
    "$OUT/compare.txt"
  grep '^total:' "$OUT/table.txt" | sed 's/^total:/programs under the shim (strict):/'
  tail -1 "$OUT/kernel-times.txt"
  awk '/^== /{b=$2} /^litmus [a-z]/{n[b]++; if ($3=="synced") s[b]++; if (/FAIL/) f[b]++}
       END {for (k in n) printf "litmus (%s build): %d tests, %d synchronized, %d failed\n", k, n[k], s[k], f[k]}' \
    "$OUT/litmus.txt"
  echo "device time: $((SECONDS - start)) s"
} | tee "$OUT/summary.txt"
