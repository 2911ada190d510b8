#!/usr/bin/env bash
# Runs on the GPU machine (`device`), from the repository root, with .shim/
# carried (scripts/shim-prepare.sh): every program of .shim/programs.txt
# under the runtime shim in compare mode with launch recording
# (ZLUDA_SHIM_RECORD, runtime-shim/Record.h): a bounded sample of each
# served kernel's launches (arguments, memory before, NVIDIA's memory after)
# is written out for test/emu/replay-launches.py, which replays them with the
# AMDGPU build in the ISA emulator. Writes $OUT/launch-records.tar.xz and
# $OUT/record-launches.txt (per program: exit code, launches listed).
# Bounds (environment, passed through): ZLUDA_SHIM_RECORD_PER_KERNEL (here
# 32; the comparison's ZLUDA_SHIM_COMPARE_PER_KERNEL likewise),
# ZLUDA_SHIM_RECORD_MAX_BYTES (8 MiB), ZLUDA_SHIM_RECORD_MAX_THREADS (65536).
export ZLUDA_SHIM_RECORD_PER_KERNEL=${ZLUDA_SHIM_RECORD_PER_KERNEL:-32}
export ZLUDA_SHIM_COMPARE_PER_KERNEL=${ZLUDA_SHIM_COMPARE_PER_KERNEL:-32}
set -uo pipefail
OUT="${OUT:-/tmp/shim-out}"
mkdir -p "$OUT"
WORK=/tmp/shim-record
rm -rf "$WORK" && mkdir -p "$WORK/launch-records"
cd .shim
ln -sf libzluda-shim.so lib/libcuda.so.1
SHIM_DIR="$PWD/lib"
CACHE="$PWD/cache"
deadline=$((SECONDS + ${BUDGET:-420}))
: > "$OUT/record-launches.txt"
while read -r name exe args; do
  [[ -z "$name" ]] && continue
  if ((SECONDS > deadline)); then
    echo "$name: skipped (time budget)" | tee -a "$OUT/record-launches.txt"
    continue
  fi
  dir=$(dirname "$exe")
  prog=./$(basename "$exe")
  # shellcheck disable=SC2086
  (cd "$dir" && LD_LIBRARY_PATH="$SHIM_DIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    ZLUDA_SHIM_CACHE="$CACHE" ZLUDA_SHIM_STRICT=1 \
    ZLUDA_SHIM_COMPARE="$WORK/$name.compare" \
    ZLUDA_SHIM_RECORD="$WORK/launch-records" ZLUDA_SHIM_RECORD_NAME="$name" \
    timeout 120 "$prog" $args) > "$WORK/$name.out" 2>&1
  rc=$?
  n=$(cat "$WORK/launch-records/$name".*.jsonl 2>/dev/null | wc -l)
  printf '%-30s exit %4s  launches listed %5s\n' "$name" "$rc" "$n" |
    tee -a "$OUT/record-launches.txt"
done < programs.txt
tar -C "$WORK" -cf - launch-records | xz -9e -T0 > "$OUT/launch-records.tar.xz"
ls -l "$OUT/launch-records.tar.xz" | tee -a "$OUT/record-launches.txt"
du -sh "$WORK/launch-records" | tee -a "$OUT/record-launches.txt"
for f in "$WORK"/*.compare; do
  echo "=== ${f#"$WORK"/}"
  grep -v ': same (' "$f" | head -c 20000
done > "$OUT/record-compare.txt"
