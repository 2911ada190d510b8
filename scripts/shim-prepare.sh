#!/usr/bin/env bash
# Prepares the runtime shim's run on the GPU machine (`device`), in .shim/
# (git-excluded, carried): the project's CUDA test programs built with nvcc
# for sm_90 (machine code + PTX), a driver-API program, optional extra
# programs (OSS_BIN: a directory of prebuilt self-checking programs, with an
# optional programs.txt of "name args..." lines; each program runs in its own
# directory), the shim library, and a
# cache filled by `zluda-precompile build --target nvptx --arch sm_90` from
# exactly those binaries. test/shim/run-on-device.sh runs them there.
#
# Usage (from the repository root, after building into build/):
#   scripts/shim-prepare.sh            # everything
#   SKIP_PROGRAMS=1 scripts/shim-prepare.sh   # keep .shim/bin, rebuild cache
#   NVCC_EXTRA=-fmad=false scripts/shim-prepare.sh   # extra nvcc flags (the
#       launch recording for the AMD replay: no mul/add left to contract)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
grep -qx '/.shim/' .git/info/exclude 2>/dev/null || echo '/.shim/' >> .git/info/exclude
NVCC="${NVCC:-nvcc}"
read -r -a EXTRA <<< "${NVCC_EXTRA:-}"
NICE="${NICE-nice -n 19}"
BIN=.shim/bin
mkdir -p "$BIN" .shim/lib
GENCODE=(-gencode 'arch=compute_90,code=[sm_90,compute_90]')

# program -> extra nvcc flags (as test/cuda/regen-ptx.sh builds the corpus)
declare -A FLAGS=(
  [sort]="" [scan]="--extended-lambda" [reduce_histogram]="" [tiled_matmul]=""
  [warp_intrinsics]="" [cooperative_groups]="" [atomics_int]=""
  [atomics_float]="" [atomic_ref]="" [calls_recursion]="" [printf_assert]=""
  [half_bf16]="" [math_intrinsics]="" [int_intrinsics]="" [texture_surface]=""
  [wmma_gemm]="" [cp_async]="" [memory_qualifiers]="" [debug_G]="-G"
  [lineinfo_stencil]="-lineinfo"
)
: > .shim/programs.txt
if [[ -z "${SKIP_PROGRAMS:-}" ]]; then
  for name in $(printf '%s\n' "${!FLAGS[@]}" | sort); do
    echo "nvcc $name"
    # shellcheck disable=SC2086
    $NICE "$NVCC" -O2 -std=c++17 ${FLAGS[$name]} "${EXTRA[@]}" "${GENCODE[@]}" \
      -o "$BIN/$name" "test/cuda/$name.cu"
  done
  echo "nvcc rdc (relocatable device code, device-linked)"
  $NICE "$NVCC" -O2 -std=c++17 -rdc=true "${EXTRA[@]}" "${GENCODE[@]}" -o "$BIN/rdc" \
    test/cuda/rdc/rdc_main.cu test/cuda/rdc/rdc_lib.cu
  echo "nvcc tiled_matmul_shared_cudart (-cudart shared)"
  $NICE "$NVCC" -O2 -std=c++17 -cudart shared "${EXTRA[@]}" "${GENCODE[@]}" \
    -o "$BIN/tiled_matmul_shared_cudart" test/cuda/tiled_matmul.cu
  echo "nvcc driver_api (+ saxpy.fatbin)"
  $NICE "$NVCC" -O2 "${EXTRA[@]}" -o "$BIN/driver_api" test/shim/driver_api.cpp -lcuda
  $NICE "$NVCC" -fatbin "${EXTRA[@]}" "${GENCODE[@]}" -o .shim/saxpy.fatbin \
    examples/saxpy/saxpy.cu
fi
cp examples/saxpy/saxpy.ptx .shim/saxpy.ptx
for name in $(printf '%s\n' "${!FLAGS[@]}" | sort) rdc tiled_matmul_shared_cudart; do
  echo "$name bin/$name" >> .shim/programs.txt
done
echo "driver_api_ptx bin/driver_api ../saxpy.ptx" >> .shim/programs.txt
echo "driver_api_fatbin bin/driver_api ../saxpy.fatbin" >> .shim/programs.txt

inputs=("$BIN" .shim/saxpy.ptx .shim/saxpy.fatbin)
if [[ -n "${OSS_BIN:-}" ]]; then
  rm -rf .shim/oss && mkdir -p .shim/oss
  cp -r "$OSS_BIN"/. .shim/oss/
  inputs+=(.shim/oss)
  if [[ -f .shim/oss/programs.txt ]]; then
    sed 's#^\([^ ]*\) #oss-\1 oss/#' .shim/oss/programs.txt >> .shim/programs.txt
  fi
fi

cp build/lib/zluda-shim/libzluda-shim.so .shim/lib/
rm -rf .shim/cache
echo "zluda-precompile build ${inputs[*]} --target nvptx --arch sm_90"
build/bin/zluda-precompile build "${inputs[@]}" --target nvptx --arch sm_90 \
  --cache .shim/cache --json .shim/build.json || true
cp test/shim/run-on-device.sh .shim/
echo "${NVCC_EXTRA:-}" > .shim/nvcc-extra.txt
du -sh .shim
