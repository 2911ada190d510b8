#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine for the toolchain and runs it.
#
#   scripts/bootstrap.sh example   install, build, run the main job on the
#                                  bundled example application (examples/saxpy)
#   scripts/bootstrap.sh test      install, build, run every test (ctest),
#                                  in a second build with ASan + UBSan too
#                                  (./build-sanitize; ZLUDA_SANITIZER_SUITE=0
#                                  skips it)
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
  libxxhash-dev  # XXH3-128, compiled in (the cache's checksums, image index)
  libcurl4-openssl-dev libhiredis-dev pkg-config  # the remote cache
  nginx redis-server  # the remote cache's test servers (loopback only)
  zstd  # the cache-archive test builds a hostile archive with it
  chromium  # renders the compatibility report in a test
)

# phase TEXT: a section header with the time since the start (CI logs show
# where the time goes).
phase() { echo "== [$((SECONDS / 60))m$((SECONDS % 60))s] $*"; }

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  phase "installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

llvm=/usr/lib/llvm-22
# configure_and_build DIR [CMAKE ARGS...]
configure_and_build() {
  local dir=$1
  shift
  phase "configuring $dir"
  cmake -G Ninja -S "$root" -B "$dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$llvm/bin/clang" -DCMAKE_CXX_COMPILER="$llvm/bin/clang++" \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    "$@" >/dev/null || return 1
  phase "building $dir"
  ninja -C "$dir" -j "$jobs" || return 1
}
configure_and_build "$build"

case "$mode" in
example)
  # The main job: the example application's kernels, for two AMD GPUs, into
  # a cache (a second run would only hit it).
  phase "zluda-precompile build examples/saxpy/saxpy --arch gfx1100,gfx1201 --cache build/example-cache"
  "$build/bin/zluda-precompile" build "$root/examples/saxpy/saxpy" \
    --arch gfx1100,gfx1201 --cache "$build/example-cache"
  phase "zluda-precompile cache list build/example-cache"
  "$build/bin/zluda-precompile" cache list "$build/example-cache"
  ;;
test)
  status=0
  # A test that hangs fails alone, named, instead of ending CI without a
  # summary (each takes under 2 minutes here, sanitized or not).
  timeout=${ZLUDA_TEST_TIMEOUT:-900}
  if [ "${ZLUDA_SANITIZER_SUITE:-1}" != 0 ]; then
    # The whole suite built with ASan + UBSan (LLVM's and MLIR's libraries
    # are not instrumented, so their allocators' user poisoning is off); the
    # fuzzers run in the main build below.
    sanitize=${ZLUDA_SANITIZE_BUILD_DIR:-$root/build-sanitize}
    # At -O1: quicker to build instrumented than at -O3. The fuzzers, ASan
    # builds in any tree, run in the main one.
    if configure_and_build "$sanitize" -DZLUDA_SANITIZE=address,undefined \
      -DZLUDA_FUZZERS=OFF \
      -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" \
      -DCMAKE_C_FLAGS_RELEASE="-O1 -DNDEBUG"; then
      phase "ctest (ASan + UBSan, $sanitize)"
      (cd "$sanitize" &&
        ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0 \
        UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --output-on-failure -j "$jobs" -LE fuzz --timeout "$timeout") ||
        status=1
    else
      status=1
    fi
  fi
  phase "ctest"
  cd "$build"
  ctest --output-on-failure -j "$jobs" --timeout "$timeout" || status=1
  exit $status
  ;;
*)
  echo "usage: $0 [example|test]" >&2
  exit 2
  ;;
esac
