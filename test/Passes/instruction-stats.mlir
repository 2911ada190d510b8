// ptx-instruction-stats counts kernels, functions and instruction ops per
// mnemonic (calls included) and leaves the IR unchanged.
// RUN: zluda-opt %s --ptx-instruction-stats=output=- | FileCheck %s
// RUN: zluda-opt %s --ptx-instruction-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR
// RUN: not zluda-opt %s --ptx-instruction-stats=output=%t/no/such/dir/x 2>&1 | FileCheck %s --check-prefix=ERR

// CHECK: kernels 1
// CHECK-NEXT: functions 1
// CHECK-NEXT:   add 2
// CHECK-NEXT:   call 1
// CHECK-NEXT:   mul 1
// CHECK-NEXT: instructions 4
// CHECK: ptx.entry @k
// STDERR: instructions 4
// ERR: error: cannot write

ptx.func @f attributes {params = []} {
  ptx.ret
}
ptx.entry @k attributes {params = []} {
  %c = ptx.constant 2 : i32
  %0 = ptx.add "s32" %c, %c : (i32, i32) -> i32
  %1 = ptx.add "s32" %0, %c : (i32, i32) -> i32
  %2 = ptx.mul "lo.s32" %1, %c : (i32, i32) -> i32
  ptx.call @f
  ptx.ret
}
