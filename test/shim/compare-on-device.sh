#!/usr/bin/env bash
# Runs on the GPU machine (`device`), from the repository root, with .shim/
# carried (scripts/shim-prepare.sh): every program of .shim/programs.txt
# under the runtime shim in compare mode (cuda backend, strict,
# ZLUDA_SHIM_COMPARE): each launch of a served kernel runs NVIDIA's build of
# the program's own image and then the cache's NVPTX build on the same
# memory, and every allocation is compared. Prints one line per program
# (exit code, launches, same, mismatches, nondeterministic, skipped, errors)
# and totals; every compare log goes to $OUT/compare-details.txt.
# Launches that compare the same are also timed (ZLUDA_SHIM_COMPARE_TIME:
# TIME_RUNS runs of each build, default 5, both warm; the first 4 launches
# of a kernel): per kernel NVIDIA's time / ours in $OUT/kernel-times.txt,
# slowest first, and their geometric mean.
set -uo pipefail
OUT="${OUT:-/tmp/shim-out}"
WORK=/tmp/shim-compare
rm -rf "$WORK" && mkdir -p "$WORK"
cd .shim
ln -sf libzluda-shim.so lib/libcuda.so.1
SHIM_DIR="$PWD/lib"
CACHE="$PWD/cache"
deadline=$((SECONDS + ${BUDGET:-480}))
printf '%-30s %4s %8s %6s %8s %8s %7s %6s\n' program exit launches same \
  mismatch nondet skipped errors | tee "$OUT/compare.txt"
while read -r name exe args; do
  [[ -z "$name" ]] && continue
  if ((SECONDS > deadline)); then
    echo "$name: skipped (time budget)" | tee -a "$OUT/compare.txt"
    continue
  fi
  dir=$(dirname "$exe")
  prog=./$(basename "$exe")
  # shellcheck disable=SC2086
  (cd "$dir" && LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_STRICT=1 \
    ZLUDA_SHIM_COMPARE="$WORK/$name.compare" \
    ZLUDA_SHIM_COMPARE_TIME="${TIME_RUNS:-5}" timeout 120 "$prog" $args) \
    > "$WORK/$name.out" 2>&1
  rc=$?
  s=$(grep 'compare summary' "$WORK/$name.compare" 2>/dev/null | tail -1)
  num() { sed -n "s/.* \([0-9]*\) $1.*/\1/p" <<<"$s"; }
  printf '%-30s %4s %8s %6s %8s %8s %7s %6s\n' "$name" "$rc" \
    "$(num launches)" "$(num same)" "$(num mismatches)" \
    "$(num nondeterministic)" "$(num skipped)" "$(num errors)" |
    tee -a "$OUT/compare.txt"
done < programs.txt
awk 'NR > 1 && $3 ~ /^[0-9]+$/ { n++; l += $3; s += $4; m += $5; d += $6; k += $7; e += $8 }
  END { printf "total: %d programs, %d launches compared: %d same, %d mismatches, %d nondeterministic, %d skipped, %d errors\n", n, l, s, m, d, k, e }' \
  "$OUT/compare.txt" | tee -a "$OUT/compare.txt"
# Kernel speed: "kernel time NAME: N launches, nvidia X us, ours Y us,
# speed S" lines of every program.
for f in "$WORK"/*.compare; do
  sed -n "s/.*kernel time \(.*\): \([0-9]*\) launches, nvidia \([0-9.]*\) us, ours \([0-9.]*\) us, speed \([0-9.]*\)$/\5 \3 \4 \2 $(basename "$f" .compare) \1/p" "$f"
done | sort -n > "$WORK/kernel-times"
{
  echo "speed(nvidia/ours) nvidia_us ours_us launches program kernel"
  cat "$WORK/kernel-times"
  awk '{ n++; s += log($1); if ($2 >= 20) { m++; t += log($1) } }
    END { if (n) printf "kernel speed: %d kernels, geometric mean %.3f; %d kernels of 20 us or more: %.3f\n", n, exp(s / n), m, m ? exp(t / m) : 0 }' \
    "$WORK/kernel-times"
} > "$OUT/kernel-times.txt"
tail -1 "$OUT/kernel-times.txt"
for f in "$WORK"/*; do
  echo "=== ${f#"$WORK"/}"
  head -c 20000 "$f"
done > "$OUT/compare-details.txt"
