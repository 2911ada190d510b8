#!/usr/bin/env bash
# Runs on the GPU machine (`device`), from the repository root, with .shim/
# carried (made by scripts/shim-prepare.sh): every program of
# .shim/programs.txt natively and then under the runtime shim (cuda backend,
# ZLUDA_SHIM_STRICT=1, cache from `zluda-precompile build --target nvptx`),
# and compares exit codes and output (same; same but for timing lines;
# same lines with addresses masked, in another order; DIFFERENT). Each program runs in its own directory
# (arguments are relative to it). Writes the table and one file with every
# output and shim log to $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/shim-out}"
WORK=/tmp/shim-run
rm -rf "$WORK" && mkdir -p "$WORK/logs" "$WORK/output"
cd .shim
ln -sf libzluda-shim.so lib/libcuda.so.1
SHIM_DIR="$PWD/lib"
CACHE="$PWD/cache"
now() { date +%s.%N; }
printf '%-30s %6s %6s %-9s %9s %9s %7s %10s %s\n' program native shim output \
  native_s shim_s served "shim ms/MB" "fallback" | tee "$OUT/table.txt"
deadline=$((SECONDS + ${BUDGET:-480}))
while read -r name exe args; do
  [[ -z "$name" ]] && continue
  if ((SECONDS > deadline)); then
    echo "$name: skipped (time budget)" | tee -a "$OUT/table.txt"
    continue
  fi
  dir=$(dirname "$exe")
  prog=./$(basename "$exe")
  t0=$(now)
  # shellcheck disable=SC2086
  (cd "$dir" && timeout 60 "$prog" $args) > "$WORK/output/$name.native" 2>&1
  native=$?
  t1=$(now)
  rm -f "$WORK/logs/$name.log"
  # shellcheck disable=SC2086
  (cd "$dir" && LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_STRICT=1 \
    ZLUDA_SHIM_LOG="$WORK/logs/$name.log" timeout 60 "$prog" $args) \
    > "$WORK/output/$name.shim" 2>&1
  shim=$?
  t2=$(now)
  if cmp -s "$WORK/output/$name.native" "$WORK/output/$name.shim"; then
    same=same
  else
    # Lines with timings or clock counts differ run to run: compare the
    # rest; then, with device addresses masked and lines sorted (device
    # printf output interleaves with the host's at its own pace).
    filter() { grep -Eiv '([0-9.]+ ?(ms|msec|s|sec|seconds|us|GB/s|MB/s|Gflop/s|GFlop/s))|time|throughput|perf|per second|clocks|iterations' "$1"; }
    masked() { filter "$1" | sed -E 's/0x[0-9a-f]{8,}/0xADDR/g' | sort; }
    if diff -q <(filter "$WORK/output/$name.native") <(filter "$WORK/output/$name.shim") >/dev/null; then
      same=timings
    elif diff -q <(masked "$WORK/output/$name.native") <(masked "$WORK/output/$name.shim") >/dev/null; then
      same=reordered
    else
      same=DIFFERENT
    fi
  fi
  fallback=-
  if [[ $shim != "$native" ]]; then
    # What the cache cannot serve runs from the original image without
    # ZLUDA_SHIM_STRICT.
    # shellcheck disable=SC2086
    (cd "$dir" && LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_LOG="$WORK/logs/$name.fallback.log" \
      timeout 60 "$prog" $args) > "$WORK/output/$name.fallback" 2>&1
    fallback=$?
  fi
  log="$WORK/logs/$name.log"
  served=$(grep -c 'hit -> served' "$log" 2>/dev/null)
  images=$(grep -c ' -> ' "$log" 2>/dev/null)
  msmb=$(sed -n 's/.*(\([0-9.]*\) ms\/MB).*/\1/p' "$log" | tail -1)
  printf '%-30s %6s %6s %-9s %9.2f %9.2f %7s %10s %s\n' "$name" "$native" \
    "$shim" "$same" "$(awk "BEGIN{print $t1 - $t0}")" \
    "$(awk "BEGIN{print $t2 - $t1}")" "$served/$images" "${msmb:--}" \
    "$fallback" | tee -a "$OUT/table.txt"
done < programs.txt
# Totals: programs whose exit code matched with every module served, how
# many of those printed the same (modulo timings/order), and the rest.
awk 'NR > 1 && $2 ~ /^[0-9]+$/ {
  n++; split($7, sv, "/");
  if ($2 == $3 && sv[1] == sv[2] && sv[2] > 0) { ok++; if ($4 != "DIFFERENT") same++ }
  else if ($9 == $2) fb++; else bad++ }
  END { printf "total: %d programs, %d served with the native exit code (%d with the same output), %d fell back, %d failed\n", n, ok, same, fb, bad }' \
  "$OUT/table.txt" | tee -a "$OUT/table.txt"

# Everything in one file (the device returns few files).
for f in "$WORK"/logs/* "$WORK"/output/*; do
  echo "=== ${f#"$WORK"/}"
  head -c 20000 "$f"
done > "$OUT/details.txt"
