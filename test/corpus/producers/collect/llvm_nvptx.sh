#!/usr/bin/env bash
# PTX from LLVM's NVPTX back end (what JAX/XLA, Julia, Rust and Numba's
# NVVM paths use), made here with Debian's clang-22, no CUDA install:
# collect/llvm_nvptx_kernels.cu (this project's own kernels, written against
# clang's builtins) for sm_80 and sm_90 at -O3, at -O0 -g (debug sections,
# .loc), and with -fgpu-rdc (relocatable device code).
#   test/corpus/producers/collect/llvm_nvptx.sh   (from the repository root)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$here/../llvm-nvptx
clang=${CLANG:-/usr/lib/llvm-22/bin/clang++}
mkdir -p "$out"
for arch in sm_80 sm_90; do
  for opts in "-O3" "-O0 -g" "-O3 -fgpu-rdc"; do
    tag=$(echo "$opts" | tr -d ' -')
    "$clang" -x cuda --cuda-gpu-arch=$arch --cuda-device-only -nocudainc -nocudalib \
      $opts -S "$here/llvm_nvptx_kernels.cu" -o "$out/kernels.$tag.$arch.ptx" 2>/dev/null
  done
done
# The debug-info forms name this file's absolute path: make it relative.
sed -i "s|$here/||g" "$out"/*.ptx
"$clang" --version | head -1 > "$out/versions.txt"
ls "$out"
