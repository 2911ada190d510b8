#!/usr/bin/env bash
# The AMD side of the differential verification (issue 15, point 3): every
# sweep family of test/verify/sweeps compiled by zluda-precompile for gfx1100
# and gfx1201, run in tinygrad's AMD ISA emulator on the inputs NVIDIA's
# outputs were recorded for (test/verify/record-on-device.sh on the H200),
# compared with them (test/emu/run-sweeps.py); prints one table a processor.
#   ZLUDA_AMD_EMULATOR=/work/emu/tinygrad scripts/verify-amdgpu.sh REFERENCE [ARCH...]
# REFERENCE: the recorded file (sweep-reference.jsonl.xz). Results go to
# ${VERIFY_AMDGPU_OUT:-.verify/amdgpu}/<arch>.{log,jsonl}; a run that stops is
# resumed from the .jsonl (delete it to start over).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:?usage: $0 REFERENCE [ARCH...]}
shift
archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(gfx1100 gfx1201)
: "${ZLUDA_AMD_EMULATOR:?set ZLUDA_AMD_EMULATOR (test/emu/README.md)}"
out=${VERIFY_AMDGPU_OUT:-$root/.verify/amdgpu}
mkdir -p "$out"
status=0
for arch in "${archs[@]}"; do
  python3 "$root/test/emu/run-sweeps.py" --arch "$arch" --reference "$ref" \
    --tool "${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}" \
    --jsonl "$out/$arch.jsonl" > "$out/$arch.log" 2>&1 || status=1
done
for arch in "${archs[@]}"; do
  echo "== $arch (details: $out/$arch.log)"
  grep "^$arch: " "$out/$arch.log"
done
exit $status
