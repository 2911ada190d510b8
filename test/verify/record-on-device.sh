#!/usr/bin/env bash
# Runs on the GPU machine (the `device` tool), from the repository root:
# builds the harness with nvcc and records NVIDIA's outputs of every sweep of
# test/verify/sweeps (NVIDIA's own build of the original PTX, loaded by the
# driver) on the record sample of its inputs (harness --record; HarnessLogic.h
# says which inputs), for the AMD ISA emulator's comparison
# (test/emu/run-sweeps.py). Needs nothing carried: only the sweeps and the
# harness sources, which travel with the working tree.
# Writes ONE file, $OUT/sweep-reference.jsonl.xz (JSON lines, xz; gzip if
# there is no xz), and the log $OUT/record.log. Arguments (optional): COUNT
# and EXHAUSTIVE, the inputs recorded a case (defaults in HarnessLogic.h:
# 206336 and 65792).
set -euo pipefail
OUT="${OUT:-/tmp/record-out}"
mkdir -p "$OUT"
start=$SECONDS
nvcc -O2 -std=c++17 -arch=sm_90 -x cu --expt-relaxed-constexpr -I. -o /tmp/harness test/verify/harness.cpp compiler/Cache/Sha256.cpp -lcuda
work=$(mktemp -d)
status=0
/tmp/harness --record test/verify/sweeps "$work/sweep-reference.jsonl" "$@" 2>&1 | tee "$OUT/record.log" || status=$?
lines=$(wc -l < "$work/sweep-reference.jsonl")
errors=$(grep -c '"error"' "$work/sweep-reference.jsonl" || true)
if command -v xz > /dev/null; then
  xz -9 -T2 -c "$work/sweep-reference.jsonl" > "$OUT/sweep-reference.jsonl.xz"
  ref="$OUT/sweep-reference.jsonl.xz"
else
  gzip -9 -c "$work/sweep-reference.jsonl" > "$OUT/sweep-reference.jsonl.gz"
  ref="$OUT/sweep-reference.jsonl.gz"
fi
{
  echo "records: $((lines - 1)) cases ($errors with an error), uncompressed $(wc -c < "$work/sweep-reference.jsonl") bytes"
  echo "reference: $ref ($(wc -c < "$ref") bytes; must stay under 16 MiB)"
  sha256sum "$ref"
  echo "device time: $((SECONDS - start)) s, harness exit status $status"
} | tee -a "$OUT/record.log"
rm -rf "$work"
exit "$status"
