#!/usr/bin/env bash
# On the H200 (device tool): runs every collector into $OUT and packs the
# PTX as one archive (test/corpus/producers/README.md).
#   test/corpus/producers/collect/run-on-device.sh
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${OUT:-/tmp/out}
work=/tmp/producers
rm -rf "$work" && mkdir -p "$work"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/device.txt"
python3 "$here/operand_offset_check.py" > "$work/operand-offset.txt" 2>&1
timeout 80 python3 "$here/cupy_kernels.py" "$work" > "$work/cupy.log" 2>&1
timeout 120 python3 "$here/xla_jax.py" "$work" > "$work/xla.log" 2>&1
timeout 200 python3 "$here/triton_inductor.py" "$work" > "$work/triton.log" 2>&1
SM80_SECONDS=100 timeout 150 python3 "$here/triton_inductor.py" "$work" --harvest >> "$work/triton.log" 2>&1
cd "$work" && tar czf "$out/producers.tar.gz" device.txt operand-offset.txt *.log \
  $(ls -d triton xla cupy 2>/dev/null)
cat "$work/operand-offset.txt" "$work"/*/versions.txt
tail -n 5 "$work"/*.log
ls "$work"/triton/sm_90 2>/dev/null | wc -l
