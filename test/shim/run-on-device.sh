#!/usr/bin/env bash
# Runs on the GPU machine (`device`), from the repository root, with .shim/
# carried (made by scripts/shim-prepare.sh): every program of
# .shim/programs.txt natively and then under the runtime shim (cuda backend,
# ZLUDA_SHIM_STRICT=1, cache from `zluda-precompile build --target nvptx`),
# and compares exit codes and output. Writes logs and a table to $OUT.
set -uo pipefail
OUT="${OUT:-/tmp/shim-out}"
mkdir -p "$OUT/logs" "$OUT/output"
cd .shim
ln -sf libzluda-shim.so lib/libcuda.so.1
SHIM_DIR="$PWD/lib"
CACHE="$PWD/cache"
now() { date +%s.%N; }
printf '%-30s %6s %6s %-9s %9s %9s %7s %10s %s\n' program native shim output \
  native_s shim_s served "shim ms/MB" "fallback" | tee "$OUT/table.txt"
while read -r name exe args; do
  [[ -z "$name" ]] && continue
  t0=$(now)
  # shellcheck disable=SC2086
  timeout 300 "./$exe" $args > "$OUT/output/$name.native" 2>&1
  native=$?
  t1=$(now)
  rm -f "$OUT/logs/$name.log"
  # shellcheck disable=SC2086
  LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_STRICT=1 \
    ZLUDA_SHIM_LOG="$OUT/logs/$name.log" \
    timeout 300 "./$exe" $args > "$OUT/output/$name.shim" 2>&1
  shim=$?
  t2=$(now)
  if cmp -s "$OUT/output/$name.native" "$OUT/output/$name.shim"; then
    same=same
  else
    # Lines with timings differ run to run; compare the rest.
    filter() { grep -Eiv '([0-9.]+ ?(ms|msec|s|sec|seconds|us|GB/s|MB/s|Gflop/s|GFlop/s))|time|throughput|perf' "$1"; }
    if diff -q <(filter "$OUT/output/$name.native") <(filter "$OUT/output/$name.shim") >/dev/null; then
      same=timings
    else
      same=DIFFERENT
    fi
  fi
  fallback=-
  if [[ $shim != "$native" ]]; then
    # What the cache cannot serve runs from the original image without
    # ZLUDA_SHIM_STRICT.
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_LOG="$OUT/logs/$name.fallback.log" \
      timeout 300 "./$exe" $args > "$OUT/output/$name.fallback" 2>&1
    fallback=$?
  fi
  log="$OUT/logs/$name.log"
  served=$(grep -c 'hit -> served' "$log" 2>/dev/null)
  images=$(grep -c ' -> ' "$log" 2>/dev/null)
  msmb=$(sed -n 's/.*(\([0-9.]*\) ms\/MB).*/\1/p' "$log" | tail -1)
  printf '%-30s %6s %6s %-9s %9.2f %9.2f %7s %10s %s\n' "$name" "$native" \
    "$shim" "$same" "$(awk "BEGIN{print $t1 - $t0}")" \
    "$(awk "BEGIN{print $t2 - $t1}")" "$served/$images" "${msmb:--}" \
    "$fallback" | tee -a "$OUT/table.txt"
done < programs.txt
