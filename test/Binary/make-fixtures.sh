#!/usr/bin/env bash
# Regenerates the binary fixtures of test/Binary from Inputs/vadd.cu with
# nvcc (CUDA 13), and the PTX nvcc -ptx produces for the same source and
# archs, which the extraction tests compare against. Run from anywhere;
# the results are committed so that tests run where nvcc is absent.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/Inputs"
run() { echo "+ $*"; "$@"; }
gen() { echo "-gencode arch=compute_$1,code=[compute_$1,sm_$1]"; }
# SASS+PTX for two archs, PTX only, every compression mode.
run nvcc -c $(gen 75) $(gen 90) vadd.cu -o multi.o
run nvcc -c -gencode arch=compute_80,code=compute_80 vadd.cu -o ptxonly.o
for mode in none speed balance size; do
  run nvcc -c $(gen 80) --compress-mode=$mode vadd.cu -o compress-$mode.o
done
# Separate compilation (__nv_relfatbin), a shared library, an executable,
# and an archive of objects.
run nvcc -c -rdc=true $(gen 80) vadd.cu -o rdc.o
run nvcc -shared -Xcompiler -fPIC -cudart shared $(gen 86) vadd.cu -o libvadd.so
run nvcc -cudart shared -gencode arch=compute_89,code=compute_89 vadd.cu -o vadd-exe
rm -f libvadd.a
run ar rcs libvadd.a multi.o rdc.o
# A linked -rdc executable: a version-2 wrapper lists the prelinked fatbins.
run nvcc -rdc=true -cudart shared $(gen 80) ../../cuda/rdc/rdc_main.cu \
  ../../cuda/rdc/rdc_lib.cu -o rdc-linked-exe
# The same beside a module compiled without -rdc as machine code only: two
# PTX-less containers, of which only nvlink's holds the program's kernels.
# (test/Codegen's, so that this directory's listings stay as they are.)
run nvcc -c -gencode arch=compute_80,code=sm_80 ../../Codegen/Inputs/plain_scale.cu \
  -o plain_scale.o
run nvcc -rdc=true -cudart shared $(gen 80) ../../cuda/rdc/rdc_main.cu \
  ../../cuda/rdc/rdc_lib.cu plain_scale.o -o ../../Codegen/Inputs/rdc-mixed-exe
rm -f plain_scale.o
# Machine code only (no PTX, as PyTorch's pip wheels are built): build's
# summary line (test/Driver/machine-code-only.test).
run nvcc -c -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
  vadd.cu -o ../../Driver/Inputs/cubin-only.o
# What nvcc -ptx produces for the same source and each arch.
for arch in 75 80 86 89 90; do
  run nvcc -ptx -arch=compute_$arch vadd.cu -o vadd.compute_$arch.ptx
done
# Windows binaries (PE/COFF), made here with LLVM's tools: vadd-exe's
# .nv_fatbin as the .nv_fatb section and an embedded PTX string, as a COFF
# object, a DLL and an executable (test/Binary/pe-coff.test).
llvm=/usr/lib/llvm-22/bin
run "$llvm/llvm-objcopy" -O binary --only-section=.nv_fatbin vadd-exe vadd.fatbin
cat > win.s <<'ASM'
        .section .nv_fatb,"dr"
        .p2align 3
        .incbin "vadd.fatbin"
        .section .rdata,"dr"
        .asciz "//\n.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry win_embedded()\n{\n ret;\n}\n"
        .text
        .globl main
main:
        ret
ASM
run "$llvm/clang" --target=x86_64-pc-windows-msvc -c win.s -o win-vadd.obj
run "$llvm/lld-link" /dll /noentry /nodefaultlib /out:win-vadd.dll win-vadd.obj
run "$llvm/lld-link" /entry:main /subsystem:console /nodefaultlib /out:win-vadd.exe win-vadd.obj
rm -f win.s vadd.fatbin win-vadd.lib
