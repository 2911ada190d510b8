#!/usr/bin/env bash
# ctest `cmake-package` (when nvcc is present): installs this build into a
# scratch prefix, configures examples/cmake-cuda against the installed
# package (not the build tree), builds it (each target precompiled after it
# is built) and checks the cache holds both targets' modules for both
# processors, and the report.
# Usage: run-example.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src/examples/cmake-cuda" -B "$work/example" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CUDA_COMPILER="${NVCC:-nvcc}" \
  > "$work/configure.log"
cmake --build "$work/example" > "$work/build.log"
# Each target's post-build step ran (its build summary: one module, two
# processors).
[ "$(grep -c "1 distinct PTX modules, 2 processors: 2 jobs" "$work/build.log")" -eq 2 ]
"$work/prefix/bin/zluda-precompile" cache list "$work/example/zluda-cache" > "$work/list.txt"
for chip in gfx1100 gfx942; do
  n=$(grep -c " amdgpu $chip " "$work/list.txt")
  [ "$n" -eq 2 ] || { echo "expected 2 entries for $chip, found $n"; cat "$work/list.txt"; exit 1; }
done
grep -q "fill" "$work/example/app-report.html"
# A target without PTX is warned about at configure time.
cmake -S "$src/examples/cmake-cuda" -B "$work/real-only" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CUDA_COMPILER="${NVCC:-nvcc}" \
  -DEXAMPLE_CUDA_ARCHS=90-real 2> "$work/real-only.log" > /dev/null || true
grep -q "produce no PTX" "$work/real-only.log"
echo "cmake-package: ok ($(wc -l < "$work/list.txt") cache entries)"
