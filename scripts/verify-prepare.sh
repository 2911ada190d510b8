#!/usr/bin/env bash
# Prepares the differential run: regenerates the sweep kernels and builds
# the toolchain's NVPTX version of each into .verify/ours (ignored by git,
# carried to the GPU machine), then test/verify/run-on-device.sh runs there.
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
