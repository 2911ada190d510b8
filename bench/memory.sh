#!/usr/bin/env bash
# Benchmark (not a test): peak memory (maximum resident set size, from
# /usr/bin/time) of `compile` (parse + verify only, and the whole way to a
# code object) and of `build`, against the PTX's size. Inputs: synthetic
# modules of the given sizes, each made of kernels of KERNEL instructions
# (integer and float arithmetic chains, as a large application module is
# many kernels), and the largest modules of cuFFT (by the selection policy;
# needs the CUDA toolkit). Prints per input: PTX MB, peak MB, and the
# growth over an empty module's peak (the process's own: LLVM's and MLIR's
# libraries) divided by the PTX size.
#
# Usage: bench/memory.sh [ARCH] [SIZES_MB] [KERNEL]
#   ARCH default gfx1100; SIZES_MB default "5 50 200"; KERNEL default 2000
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool=${ZLUDA_PRECOMPILE:-$root/build/bin/zluda-precompile}
arch=${1:-gfx1100}
sizes=${2:-5 50 200}
per=${3:-2000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# synth MB FILE: kernels of $per instructions up to MB megabytes.
synth() {
  python3 - "$1" "$per" >"$2" <<'EOF'
import sys
mb, per = float(sys.argv[1]), int(sys.argv[2])
w = sys.stdout.write
w(".version 7.8\n.target sm_80\n.address_size 64\n\n")
size, k = 0, 0
while size < mb * 1e6:
    body = [f".visible .entry k{k}(.param .u64 p, .param .u32 n)\n{{\n"
            f"  .reg .b32 %r<{per + 8}>;\n  .reg .b64 %rd<4>;\n"
            f"  .reg .f32 %f<{per + 8}>;\n"
            "  ld.param.u64 %rd1, [p];\n  ld.param.u32 %r1, [n];\n"
            "  mov.u32 %r2, %tid.x;\n  cvt.rn.f32.u32 %f1, %r2;\n"
            "  mov.f32 %f2, 0f3F800000;\n"]
    ops = ["  add.s32 %r{i}, %r{a}, %r{b};\n",
           "  fma.rn.f32 %f{i}, %f{a}, %f{b}, 0f3F000000;\n",
           "  mul.lo.s32 %r{i}, %r{a}, 3;\n",
           "  add.f32 %f{i}, %f{a}, %f{c};\n"]
    for i in range(3, per):
        body.append(ops[i % 4].format(i=i, a=i - 1, b=i - 2, c=i - 3))
    body.append("  cvt.u64.u32 %rd2, %r2;\n  shl.b64 %rd2, %rd2, 2;\n"
                "  add.s64 %rd3, %rd1, %rd2;\n"
                f"  st.global.f32 [%rd3], %f{per - 1};\n"
                f"  st.global.u32 [%rd3+4], %r{per - 2};\n  ret;\n}}\n\n")
    text = "".join(body)
    w(text)
    size += len(text)
    k += 1
EOF
}

# peak KB of a command
peak() {
  /usr/bin/time -f '%M' -o "$work/time" "$@" >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; echo "failed: $*" >&2; exit 1; }
  cat "$work/time"
}

printf '.version 7.8\n.target sm_80\n.address_size 64\n' >"$work/empty.ptx"
base_parse=$(peak "$tool" compile "$work/empty.ptx" --emit=none)
base_hsaco=$(peak "$tool" compile "$work/empty.ptx" --arch "$arch" -o "$work/out")
base_build=$(peak "$tool" build "$work/empty.ptx" --arch "$arch" \
  --cache "$work/cache-empty" -j 1)
echo "empty module: parse $((base_parse / 1024)) MB, compile $((base_hsaco / 1024)) MB, build $((base_build / 1024)) MB"
printf '%-40s %8s %22s %22s %22s\n' input "PTX MB" "parse MB (x PTX)" \
  "compile MB (x PTX)" "build -j1 MB (x PTX)"

report() { # NAME FILE
  local bytes p c b
  bytes=$(stat -c %s "$2")
  p=$(peak "$tool" compile "$2" --emit=none)
  c=$(peak "$tool" compile "$2" --arch "$arch" -o "$work/out")
  rm -rf "$work/cache"
  b=$(peak "$tool" build "$2" --arch "$arch" --cache "$work/cache" -j 1)
  awk -v n="$1" -v s="$bytes" -v p="$p" -v c="$c" -v b="$b" \
    -v bp="$base_parse" -v bc="$base_hsaco" -v bb="$base_build" 'BEGIN {
      mb = s / 1048576
      printf "%-40s %8.2f %13.0f (%6.1f) %13.0f (%6.1f) %13.0f (%6.1f)\n", n, mb,
        p / 1024, (p - bp) / 1024 / mb, c / 1024, (c - bc) / 1024 / mb,
        b / 1024, (b - bb) / 1024 / mb }'
}

for mb in $sizes; do
  synth "$mb" "$work/synth-$mb.ptx"
  report "synthetic ${mb} MB ($per-instruction kernels)" "$work/synth-$mb.ptx"
  rm -f "$work/synth-$mb.ptx"
done

cufft=${CUDA_HOME:-/usr/local/cuda}/lib64/libcufft.so.12
if [ -f "$cufft" ]; then
  "$tool" extract --selected "$cufft" -o "$work/cufft" >/dev/null
  for f in $(ls -S "$work/cufft" | head -n 3); do
    report "cuFFT $f" "$work/cufft/$f"
  done
fi
