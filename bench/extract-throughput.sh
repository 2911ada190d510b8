#!/usr/bin/env bash
# Benchmark (not a test): PTX extraction throughput of `zluda-precompile
# extract` (read the ELF, find every container, decompress every PTX entry,
# write it; and `list`, which decompresses every PTX entry in memory) on
# one library, in MB of decompressed PTX per second, next to
# the `zstd` and `lz4` command-line tools decompressing the same compressed
# payloads (taken out with `extract --raw`) to /dev/null, and the ratio.
#
# Usage: bench/extract-throughput.sh [LIBRARY] [RUNS]
#   LIBRARY  default: the CUDA toolkit library with the most PTX
#   RUNS     default: 3
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
runs=${2:-3}
lib=${1:-}
if [ -z "$lib" ]; then
  lib=$("$tool" list /usr/local/cuda/lib64 --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(max(d["inputs"], key=lambda i: i["totals"]["ptx_bytes"])["path"])')
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

"$tool" extract "$lib" -o "$work/raw" --raw >/dev/null
# ZSTD payloads are frames already; LZ4 payloads are raw blocks, which the
# lz4 tool reads once each is wrapped, unchanged, in a frame.
shopt -s nullglob
zst=("$work"/raw/*.zst) blocks=("$work"/raw/*.lz4block)
cat /dev/null "${zst[@]}" > "$work/all.zst"
python3 - "$work/all.lz4" "${blocks[@]}" <<'PYEOF'
import struct, sys
def xxh32(data, seed=0):
    P1, P2, P3, P4, P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
    M = 0xFFFFFFFF
    rot = lambda x, r: ((x << r) | (x >> (32 - r))) & M
    h = (seed + P5 + len(data)) & M  # inputs here are under 16 bytes
    i = 0
    while i + 4 <= len(data):
        h = (rot((h + struct.unpack_from('<I', data, i)[0] * P3) & M, 17) * P4) & M
        i += 4
    while i < len(data):
        h = (rot((h + data[i] * P5) & M, 11) * P1) & M
        i += 1
    h ^= h >> 15; h = (h * P2) & M; h ^= h >> 13; h = (h * P3) & M; h ^= h >> 16
    return h
descriptor = bytes([0x60, 0x70])  # version 1, independent blocks; 4 MB blocks
header = struct.pack('<I', 0x184D2204) + descriptor + bytes([(xxh32(descriptor) >> 8) & 0xFF])
with open(sys.argv[1], 'wb') as out:
    for path in sys.argv[2:]:
        block = open(path, 'rb').read()
        out.write(header + struct.pack('<I', len(block)) + block + struct.pack('<I', 0))
PYEOF
[ ${#zst[@]} -gt 0 ] || [ ${#blocks[@]} -gt 0 ] || { echo "no compressed PTX in $lib" >&2; exit 2; }
ptx_bytes=$("$tool" list "$lib" --json | python3 -c '
import json, sys; print(json.load(sys.stdin)["totals"]["ptx_bytes"])')
reference() { # the command-line tools on the same payloads, to stdout
  [ ${#zst[@]} -eq 0 ] || zstd -q -d -c "$work/all.zst"
  [ ${#blocks[@]} -eq 0 ] || lz4 -q -d -c "$work/all.lz4"
}
ref_bytes=$(reference | wc -c)

ours=() inmem=() theirs=()
for ((i = 0; i < runs; i++)); do
  rm -rf "$work/out"
  t0=$(now); "$tool" extract "$lib" -o "$work/out" >/dev/null; t1=$(now)
  "$tool" list "$lib" --summary >/dev/null; t2=$(now)
  reference >/dev/null; t3=$(now)
  ours+=($(( (t1 - t0) / 1000 ))) inmem+=($(( (t2 - t1) / 1000 )))
  theirs+=($(( (t3 - t2) / 1000 )))
done
a=$(printf '%s\n' "${ours[@]}" | median)
m=$(printf '%s\n' "${inmem[@]}" | median)
b=$(printf '%s\n' "${theirs[@]}" | median)
mbps() { echo "$1 / $2" | bc -l; } # bytes / microseconds = MB/s
printf 'library: %s (%d ZSTD frames, %d LZ4 blocks)\n' "$lib" ${#zst[@]} ${#blocks[@]}
printf 'zluda-precompile extract: %d bytes of PTX, median %.3f s, %.0f MB/s\n' \
  "$ptx_bytes" "$(echo "$a / 1000000" | bc -l)" "$(mbps "$ptx_bytes" "$a")"
printf 'zluda-precompile list:    (decompressed in memory) median %.3f s, %.0f MB/s\n' \
  "$(echo "$m / 1000000" | bc -l)" "$(mbps "$ptx_bytes" "$m")"
printf 'zstd -d + lz4 -d:         %d bytes, median %.3f s, %.0f MB/s\n' \
  "$ref_bytes" "$(echo "$b / 1000000" | bc -l)" "$(mbps "$ref_bytes" "$b")"
printf 'throughput ratio, extract to files / tools: %.3f\n' \
  "$(echo "($ptx_bytes / $a) / ($ref_bytes / $b)" | bc -l)"
printf 'throughput ratio, list in memory / tools:   %.3f\n' \
  "$(echo "($ptx_bytes / $m) / ($ref_bytes / $b)" | bc -l)"
