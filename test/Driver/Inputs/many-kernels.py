# Prints a module of N kernels of 100 additions each, the last of which
# has LINE (an instruction) before its `ret` (test/Driver/released-text.test).
import sys

count, last = int(sys.argv[1]), sys.argv[2]
out = [".version 8.0\n.target sm_80\n.address_size 64\n"]
for k in range(count):
    out.append(f".visible .entry k{k}(.param .u64 p)\n{{\n"
               "  .reg .b32 %r<8>;\n  .reg .b64 %rd<4>;\n"
               "  ld.param.u64 %rd1, [p];\n")
    out.append("  add.s32 %r1, %r1, %r2;\n" * 100)
    if k == count - 1:
        out.append(f"  {last}\n")
    out.append("  ret;\n}\n")
sys.stdout.write("".join(out))
