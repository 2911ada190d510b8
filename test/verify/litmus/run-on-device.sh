#!/usr/bin/env bash
# The memory-model litmus tests on the GPU machine, from the repository
# root with .verify carried (scripts/verify-prepare.sh builds
# .verify/litmus/ours.ptx here): NVIDIA's build of litmus.ptx (the driver
# compiles the PTX itself), then ours; a third module, when
# .verify/litmus/before.ptx exists, is an older build of ours, run to show
# what the suite catches. Prints every test's outcomes; exit 1 if NVIDIA's
# or our build shows a forbidden outcome or loses an addition.
set -uo pipefail
OUT="${OUT:-/tmp/litmus-out}"
mkdir -p "$OUT"
bin=$(mktemp -d)
nvcc -O2 -o "$bin/litmus" test/verify/litmus/litmus.cpp -lcuda || exit 2
status=0
run() {
  echo "== $1: $2"
  "$bin/litmus" "$2" "${LITMUS_ROUNDS:-4096}" "${LITMUS_GROUPS:-32}" || return 1
}
{
  run nvidia test/verify/litmus/litmus.ptx || status=1
  run ours .verify/litmus/ours.ptx || status=1
  if [ -f .verify/litmus/before.ptx ]; then
    run before .verify/litmus/before.ptx || true
  fi
} 2>&1 | tee "$OUT/litmus.txt"
exit ${PIPESTATUS[0]:-$status}
