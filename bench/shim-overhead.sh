#!/usr/bin/env bash
# Benchmark (not a test): the runtime shim's own time per MB of fatbin on
# loads it serves, with and without the cache's image index. PTX modules
# are packed one a fatbin with `fatbinary --compress-all` (as the CUDA
# libraries ship them), built for nvptx:sm_90, then loaded by
# zluda-shim-probe through `zluda-precompile run` in front of the recording
# driver (no GPU). The shim's summary line splits its time into finding the
# keys (hashing the image and reading its index record; without the index:
# decompressing and SHA-256 of the PTX) and reading and verifying the
# entries; the medians over RUNS runs are printed per MB of fatbin.
#
# Usage: bench/shim-overhead.sh [RUNS] [PTX...]
#   RUNS  default: 5
#   PTX   default: cuRAND's modules (extract --selected of libcurand.so.10)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
bin=$(dirname "$tool")
recorder=${ZLUDA_RECORDER_DRIVER:-$root/build/test/unit/libzluda-recorder-driver.so}
fatbinary=${FATBINARY:-/usr/local/cuda/bin/fatbinary}
runs=${1:-5}
shift || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ptx=("$@")
if [ ${#ptx[@]} -eq 0 ]; then
  "$tool" extract --selected /usr/local/cuda/lib64/libcurand.so.10 \
    -o "$work/ptx" >/dev/null
  mapfile -t ptx < <(ls "$work"/ptx/*.ptx | sort)
fi
mkdir -p "$work/fatbins"
fatbins=()
for p in "${ptx[@]}"; do
  f=$work/fatbins/$(basename "$p" .ptx).fatbin
  "$fatbinary" --create="$f" --compress-all --image3=kind=ptx,sm=80,file="$p"
  fatbins+=("$f")
done
"$tool" build "${fatbins[@]}" --target nvptx --arch sm_90 \
  --cache "$work/cache" >/dev/null
cp -r "$work/cache" "$work/noindex"
rm -rf "$work/noindex/v1/images"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# measure CACHE: "total keys entries entryMB" medians, in ms per MB of fatbin
# (entries: ms per MB of entry).
measure() {
  : > "$work/lines"
  for _ in $(seq "$runs"); do
    rm -f "$work/log" # the shim appends
    ZLUDA_SHIM_DRIVER=$recorder "$tool" run --cache "$1" --log "$work/log" \
      -- "$bin/zluda-shim-probe" "${fatbins[@]}" >/dev/null
    grep 'summary:' "$work/log" >> "$work/lines"
  done
  python3 - "$work/lines" <<'PYEOF'
import re, statistics, sys
rows = []
for line in open(sys.argv[1]):
    m = re.search(r'(\d+) served.*shim time ([\d.]+) ms for ([\d.]+) MB.*'
                  r'finding keys ([\d.]+) ms.*reading entries ([\d.]+) ms '
                  r'for ([\d.]+) MB; (\d+) found', line)
    served, total, mb, keys, entries, entry_mb, indexed = m.groups()
    rows.append((float(total) / float(mb), float(keys) / float(mb),
                 float(entries) / float(entry_mb), float(entry_mb) / float(mb),
                 int(served), int(indexed), float(mb)))
med = lambda i: statistics.median(r[i] for r in rows)
print(f"{med(0):8.2f} {med(1):8.2f} {med(2):8.2f} {med(3):6.1f}x "
      f"{rows[0][4]:3d} {rows[0][5]:3d} {rows[0][6]:.3f}")
PYEOF
}
printf '%d fatbins, %d runs each (medians)\n' "${#fatbins[@]}" "$runs"
printf '%-10s %8s %8s %8s %7s %3s %3s %s\n' cache "ms/MB" "keys" \
  "entries" "entryMB" srv idx "fatbin MB"
printf '%-10s %s\n' "index" "$(measure "$work/cache")"
printf '%-10s %s\n' "no index" "$(measure "$work/noindex")"
echo "ms/MB and keys: per MB of fatbin; entries: ms per MB of entry read;"
echo "entryMB: MB of entries per MB of fatbin"
