#!/usr/bin/env bash
# The AMD side of the differential verification (issue 15): our AMDGPU code
# run in tinygrad's AMD ISA emulator (test/emu; never part of this project)
# and compared with NVIDIA's outputs recorded on the H200:
#   1. the emulator's defects the runner works around, each reproduced at
#      ISA level (test/emu/defects.py): the runner must be right in all;
#   2. every sweep family of test/verify/sweeps compiled for each processor,
#      on the inputs NVIDIA's outputs were recorded for
#      (test/verify/record-on-device.sh), compared (test/emu/run-sweeps.py);
#   3. with LAUNCH_RECORDS (the .tar.xz test/shim/record-launches-on-device.sh
#      wrote), real programs' kernel launches replayed and compared memory
#      for memory (test/emu/replay-launches.py);
#   4. the matrix instructions, one instruction a kernel (test/emu/matrix.py)
#      and whole GEMM kernels on synthesized launches
#      (test/emu/replay-synth.py), against the references in test/emu/reference.
# Prints one table a processor for each.
#   ZLUDA_AMD_EMULATOR=/work/emu/tinygrad [LAUNCH_RECORDS=R.tar.xz] \
#     scripts/verify-amdgpu.sh REFERENCE [ARCH...]
# REFERENCE: the recorded sweep outputs (sweep-reference.jsonl.xz). Results go
# to ${VERIFY_AMDGPU_OUT:-.verify/amdgpu}/<arch>.{log,jsonl} (sweeps; a run
# that stops is resumed from the .jsonl: delete it to start over),
# <arch>.launches.{log,jsonl}, <arch>.matrix.log, <arch>.synth.log and
# defects.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:?usage: $0 REFERENCE [ARCH...]}
shift
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(gfx1100 gfx1201)
: "${ZLUDA_AMD_EMULATOR:?set ZLUDA_AMD_EMULATOR (test/emu/README.md)}"
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
out=${VERIFY_AMDGPU_OUT:-$root/.verify/amdgpu}
mkdir -p "$out"
status=0
python3 "$root/test/emu/defects.py" > "$out/defects.log" 2>&1 || status=1
for arch in "${archs[@]}"; do
  python3 "$root/test/emu/run-sweeps.py" --arch "$arch" --reference "$ref" \
    --tool "$tool" --jsonl "$out/$arch.jsonl" > "$out/$arch.log" 2>&1 || status=1
  if [ -n "${LAUNCH_RECORDS:-}" ]; then
    python3 "$root/test/emu/replay-launches.py" "$LAUNCH_RECORDS" --arch "$arch" \
      --tool "$tool" --jsonl "$out/$arch.launches.jsonl" \
      > "$out/$arch.launches.log" 2>&1 || status=1
  fi
  python3 "$root/test/emu/matrix.py" --arch "$arch" --tool "$tool" \
    > "$out/$arch.matrix.log" 2>&1 || status=1
  python3 "$root/test/emu/replay-synth.py" --arch "$arch" --tool "$tool" \
    --reference "$root/test/emu/reference/synth-h200.jsonl.xz" \
    > "$out/$arch.synth.log" 2>&1 || status=1
done
echo "== emulator defects (ISA-level cases; details: $out/defects.log)"
awk '/^[a-z0-9_]+ \[gfx/ { n++ } /runner +ok/ { ok++ } /runner +WRONG|runner +CRASH|runner +ERROR/ { bad++ }
  END { printf "%d cases: the defect reproduced, the runner right in %d, the runner wrong in %d\n", n, ok, bad }' \
  "$out/defects.log"
for arch in "${archs[@]}"; do
  echo "== $arch sweeps (details: $out/$arch.log)"
  grep "^$arch: " "$out/$arch.log"
  if [ -n "${LAUNCH_RECORDS:-}" ]; then
    echo "== $arch real-program launches (details: $out/$arch.launches.log)"
    grep "^$arch: " "$out/$arch.launches.log"
  fi
  echo "== $arch matrix instructions (details: $out/$arch.matrix.log, $out/$arch.synth.log)"
  echo "$(grep -c '^PASS' "$out/$arch.matrix.log") runs identical, $(grep -c '^FAIL\|^MISSING' "$out/$arch.matrix.log") not;" \
    "whole kernels: $(grep -c '^SAME' "$out/$arch.synth.log") the same, $(grep -c '^DIFFER' "$out/$arch.synth.log") differ"
done
exit $status
