#!/usr/bin/env bash
# ctest `report-chromium`: the compatibility report of a fixed build (the
# project's test programs: failures, demangled names, a directory input,
# machine code only) opened in headless Chromium by check-report.py; the
# screenshot of the processors' table is left in WORK_DIR.
# Usage: run.sh SOURCE_DIR BUILD_DIR WORK_DIR CHROMIUM
set -euo pipefail
src=$1 build=$2 work=$3 chromium=$4
rm -rf "$work" && mkdir -p "$work"
"$build/bin/zluda-precompile" build "$src/test/Codegen/Inputs" \
  "$src/test/Binary/Inputs" "$src/test/Driver/Inputs/cubin-only.o" \
  "$src/examples/saxpy/saxpy" --arch gfx1100,gfx942 --cache "$work/cache" \
  --report "$work/report.html" -j 2 > "$work/build.txt" || [ $? -eq 1 ]
grep -q "machine code only" "$work/report.html"
timeout 300 python3 "$src/test/report/check-report.py" "$chromium" \
  "$work/report.html" "$work/processors.png" vadd
