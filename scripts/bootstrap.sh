#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for the toolchain and runs it.
#
#   scripts/bootstrap.sh example   install, build, run the main job on the
#                                  bundled example application (examples/saxpy)
#   scripts/bootstrap.sh test      install, build, run every test (ctest)
#
# Installs only the Debian packages that are missing (root, or sudo), then
# configures with CMake + Ninja in ./build and builds. Safe to run again.
set -euo pipefail

mode=${1:-example}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ZLUDA_BUILD_DIR:-$root/build}
jobs=${ZLUDA_JOBS:-$(nproc)}

packages=(
  cmake ninja-build
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  lld-22 liblld-22-dev clang-22 libclang-rt-22-dev rocm-device-libs
  libzstd-dev liblz4-dev libcli11-dev libfmt-dev catch2
  libcurl4-openssl-dev libhiredis-dev pkg-config  # the remote cache
  nginx redis-server  # the remote cache's test servers (loopback only)
  zstd  # the cache-archive test builds a hostile archive with it
  chromium  # renders the compatibility report in a test
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

llvm=/usr/lib/llvm-22
echo "== configuring $build"
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
  -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" >/dev/null
echo "== building"
ninja -C "$build" -j "$jobs"

case "$mode" in
example)
  # The main job: the example application's kernels, for two AMD GPUs, into
  # a cache (a second run would only hit it).
  echo "== zluda-precompile build examples/saxpy/saxpy --arch gfx1100,gfx1201 --cache build/example-cache"
  "$build/bin/zluda-precompile" build "$root/examples/saxpy/saxpy" \
    --arch gfx1100,gfx1201 --cache "$build/example-cache"
  echo "== zluda-precompile cache list build/example-cache"
  "$build/bin/zluda-precompile" cache list "$build/example-cache"
  ;;
test)
  echo "== ctest"
  cd "$build"
  ctest --output-on-failure -j "$jobs"
  ;;
*)
  echo "usage: $0 [example|test]" >&2
  exit 2
  ;;
esac
