#!/usr/bin/env bash
# Prepares the differential run: regenerates the sweep kernels and builds
# the toolchain's NVPTX version of each into .verify/ours (ignored by git,
# carried to the GPU machine); then, unless SWEEPS_ONLY=1, the test
# programs and their NVPTX cache for the launch-by-launch comparison
# (scripts/shim-prepare.sh, with the cuda-samples of .oss/bin when there).
# On the GPU machine, carrying .verify and .shim:
#   bash test/verify/run-all-on-device.sh     (everything, one call)
#   bash test/verify/run-on-device.sh         (the sweeps only)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
python3 "$root/test/verify/gen-sweeps.py" "$root/test/verify/sweeps"
rm -rf "$root/.verify/ours" && mkdir -p "$root/.verify/ours"
for f in "$root"/test/verify/sweeps/*.ptx; do
  "$tool" compile "$f" --target nvptx --arch sm_90 --emit=asm \
    -o "$root/.verify/ours/$(basename "$f")"
done
echo "built $(ls "$root/.verify/ours" | wc -l) NVPTX modules into .verify/ours"
# The memory-model litmus tests (test/verify/litmus): our NVPTX build.
python3 "$root/test/verify/litmus/gen-litmus.py" "$root/test/verify/litmus/litmus.ptx"
mkdir -p "$root/.verify/litmus"
"$tool" compile "$root/test/verify/litmus/litmus.ptx" --target nvptx \
  --arch sm_90 --emit=asm -o "$root/.verify/litmus/ours.ptx"
if [ "${SWEEPS_ONLY:-0}" != 1 ]; then
  if [ -z "${OSS_BIN:-}" ] && [ -d "$root/.oss/bin" ]; then
    export OSS_BIN="$root/.oss/bin"
  fi
  bash "$root/scripts/shim-prepare.sh"
fi
