#!/usr/bin/env bash
# The fixed 10% sample of libcufft.so.12 (issue 4's acceptance): extracts
# the PTX module that the selection policy picks from each container, sorts
# them by container index and keeps every 10th (the 1st, 11th, 21st, ...),
# then builds them for the given processors into a scratch cache and prints
# the build's summary (kernels compiled / total, failures by reason).
# Usage: scripts/cufft-sample.sh ARCH[,ARCH...] [WORKDIR] [build options...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
lib=${CUFFT:-/usr/local/cuda/lib64/libcufft.so.12}
arch=${1:?usage: cufft-sample.sh ARCH[,ARCH...] [WORKDIR] [build options...]}
work=${2:-$(mktemp -d)}
shift $(($# >= 2 ? 2 : 1))
rm -rf "$work/all" "$work/sample" && mkdir -p "$work/sample"
"$tool" extract "$lib" --selected -o "$work/all" >/dev/null
ls "$work/all" | sort -t. -k4.2,4n | awk 'NR % 10 == 1' |
  while read -r f; do ln -s "$work/all/$f" "$work/sample/$f"; done
echo "cuFFT sample: $(ls "$work/sample" | wc -l) of $(ls "$work/all" | wc -l) modules"
"$tool" build "$work/sample" --arch "$arch" --cache "$work/cache" \
  --json "$work/report.json" "$@"
