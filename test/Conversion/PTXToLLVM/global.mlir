// The Global family (GlobalOpToLLVM.cpp) from ptx-dialect input:
// module-scope variables in their state space's address space. `.global`
// and `.const` ones belong to the host as well (cudaMemcpyToSymbol finds
// them by name): external, never constant, zero-initialized when PTX gives
// no initializer; a shorter initializer is zero-filled (row-major for
// several dimensions); `.shared` ones are internal and undefined, `.extern
// .shared` arrays the dynamic LDS; `.extern` variables declarations;
// symbol addresses in initializers constant expressions (function tables,
// data + offset, truncated to narrower elements); addressof and its uses.
// Target-independent.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK: llvm.mlir.global external @counter() {addr_space = 1 : i32, alignment = 4 : i64} : i32 {
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.zero : i32
  // CHECK-NEXT: llvm.return %[[Z]] : i32
  ptx.global @counter : global u32 {alignment = 4 : i64}
  // CHECK: llvm.mlir.global external @scale(1.000000e+00 : f32) {addr_space = 1 : i32,
  // CHECK-SAME: alignment = 4 : i64} : f32
  ptx.global @scale : global f32 {alignment = 4 : i64, init = 1.000000e+00 : f32,
      linkage = #ptx<linkage visible>}
  // CHECK: llvm.mlir.global external @weights() {addr_space = 4 : i32, alignment = 4 : i64}
  // CHECK-SAME: : !llvm.array<8 x i8> {
  // CHECK-NEXT: llvm.mlir.zero : !llvm.array<8 x i8>
  ptx.global @weights : const b8 {alignment = 4 : i64, dims = array<i64: 8>}
  // CHECK: llvm.mlir.global external @big(dense<[1, 2]> : tensor<2xi64>) {addr_space = 4 : i32,
  // CHECK-SAME: alignment = 8 : i64} : !llvm.array<2 x i64>
  ptx.global @big : const u64 {alignment = 8 : i64, dims = array<i64: 2>,
      init = dense<[1, 2]> : tensor<2xi64>}
  // CHECK: llvm.mlir.global external @msg(dense<[104, 105, 0, 0,
  // CHECK-SAME: 0]> : tensor<5xi8>) {addr_space = 1 : i32, alignment = 1 : i64}
  // CHECK-SAME: : !llvm.array<5 x i8>
  ptx.global @msg : global b8 {alignment = 1 : i64, dims = array<i64: 5>,
      init = dense<[104, 105]> : tensor<2xi8>}
  // CHECK: llvm.mlir.global external @grid(dense<{{\[}}[1, 2, 3], [4, 0,
  // CHECK-SAME: 0]]> : tensor<2x3xi32>) {addr_space = 1 : i32} : !llvm.array<2 x array<3 x i32>>
  ptx.global @grid : global u32 {dims = array<i64: 2, 3>,
      init = dense<[1, 2, 3, 4]> : tensor<4xi32>}
  // CHECK: llvm.mlir.global internal @tile() {addr_space = 3 : i32, alignment = 16 : i64}
  // CHECK-SAME: : !llvm.array<64 x i8> {
  // CHECK-NEXT: llvm.mlir.poison : !llvm.array<64 x i8>
  ptx.global @tile : shared b8 {alignment = 16 : i64, dims = array<i64: 64>}
  // CHECK: llvm.mlir.global external @dyn() {addr_space = 3 : i32, alignment = 16 : i64}
  // CHECK-SAME: : !llvm.array<0 x i8>{{$}}
  ptx.global @dyn : shared b8 {alignment = 16 : i64, dims = array<i64: 0>,
      linkage = #ptx<linkage extern>}
  // CHECK: llvm.mlir.global external @elsewhere() {addr_space = 1 : i32} : i32{{$}}
  ptx.global @elsewhere : global u32 {linkage = #ptx<linkage extern>}
  // CHECK-LABEL: llvm.func internal @twice(
  ptx.func @twice attributes {
      params = [#ptx.param<name = "x", space = param, type = b32>],
      returns = [#ptx.param<name = "r", space = param, type = b32>]} {
  ^bb0(%r: !ptx.ptr<param>, %x: !ptx.ptr<param>):
    %0 = ptx.ld "param.b32" %x : (!ptx.ptr<param>) -> i32
    %1 = ptx.add "s32" %0, %0 : (i32, i32) -> i32
    ptx.st "param.b32" %r, %1 : (!ptx.ptr<param>, i32) -> ()
    ptx.ret
  }
  // CHECK: llvm.mlir.global external @data(dense<[1, 2]> : tensor<2xi32>) {addr_space = 1 : i32}
  // CHECK-SAME: : !llvm.array<2 x i32>
  ptx.global @data : global u32 {dims = array<i64: 2>, init = dense<[1, 2]> : tensor<2xi32>}
  // A function table: elements not given are zero, symbols' addresses as
  // integers.
  // CHECK: llvm.mlir.global external @table() {addr_space = 1 : i32, alignment = 8 : i64}
  // CHECK-SAME: : !llvm.array<3 x i64> {
  // CHECK-NEXT: %[[T0:.*]] = llvm.mlir.zero : !llvm.array<3 x i64>
  // CHECK-NEXT: %[[SEVEN:.*]] = llvm.mlir.constant(7 : i64) : i64
  // CHECK-NEXT: %[[T1:.*]] = llvm.insertvalue %[[SEVEN]], %[[T0]][0] : !llvm.array<3 x i64>
  // CHECK-NEXT: %[[F:.*]] = llvm.mlir.addressof @twice : !llvm.ptr
  // CHECK-NEXT: %[[FI:.*]] = llvm.ptrtoint %[[F]] : !llvm.ptr to i64
  // CHECK-NEXT: %[[T2:.*]] = llvm.insertvalue %[[FI]], %[[T1]][1] : !llvm.array<3 x i64>
  // CHECK-NEXT: %[[D:.*]] = llvm.mlir.addressof @data : !llvm.ptr<1>
  // CHECK-NEXT: %[[D4:.*]] = llvm.getelementptr %[[D]][4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, i8
  // CHECK-NEXT: %[[DI:.*]] = llvm.ptrtoint %[[D4]] : !llvm.ptr<1> to i64
  // CHECK-NEXT: %[[T3:.*]] = llvm.insertvalue %[[DI]], %[[T2]][2] : !llvm.array<3 x i64>
  // CHECK-NEXT: llvm.return %[[T3]] : !llvm.array<3 x i64>
  ptx.global @table : global u64 {alignment = 8 : i64, dims = array<i64: 3>,
      init = [7, #ptx.symaddr<symbol = @twice>, #ptx.symaddr<symbol = @data, offset = 4>],
      linkage = #ptx<linkage visible>}
  // CHECK: llvm.mlir.global external @narrow() {addr_space = 1 : i32} : i32 {
  // CHECK: %[[F:.*]] = llvm.mlir.addressof @twice : !llvm.ptr
  // CHECK-NEXT: %[[FI:.*]] = llvm.ptrtoint %[[F]] : !llvm.ptr to i64
  // CHECK-NEXT: %[[T:.*]] = llvm.trunc %[[FI]] : i64 to i32
  // CHECK-NEXT: llvm.return %[[T]] : i32
  ptx.global @narrow : global u32 {init = #ptx.symaddr<symbol = @twice>}
  // A variable's name is its address in its space's pointer type.
  // CHECK-LABEL: llvm.func internal @addresses(
  // CHECK: %[[G:.*]] = llvm.mlir.addressof @counter : !llvm.ptr<1>
  // CHECK: llvm.ptrtoint %[[G]] : !llvm.ptr<1> to i64
  // CHECK: %[[S:.*]] = llvm.mlir.addressof @dyn : !llvm.ptr<3>
  // CHECK: llvm.ptrtoint %[[S]] : !llvm.ptr<3> to i64
  // CHECK: %[[C:.*]] = llvm.mlir.addressof @weights : !llvm.ptr<4>
  // CHECK: llvm.ptrtoint %[[C]] : !llvm.ptr<4> to i64
  ptx.func @addresses attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64):
    %0 = ptx.addressof @counter : !ptx.ptr<global>
    %1 = ptx.mov "u64" %0 : (!ptx.ptr<global>) -> i64
    %2 = ptx.addressof @dyn : !ptx.ptr<shared>
    %3 = ptx.mov "u64" %2 : (!ptx.ptr<shared>) -> i64
    %4 = ptx.addressof @weights : !ptx.ptr<const>
    %5 = ptx.mov "u64" %4 : (!ptx.ptr<const>) -> i64
    %6 = ptx.add "u64" %1, %3 : (i64, i64) -> i64
    %7 = ptx.add "u64" %6, %5 : (i64, i64) -> i64
    ptx.ret %7 : i64
  }
  // CHECK-LABEL: llvm.func internal @loads(
  // CHECK: %[[G:.*]] = llvm.mlir.addressof @counter : !llvm.ptr<1>
  // CHECK: llvm.load %[[G]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  // CHECK: %[[C:.*]] = llvm.mlir.addressof @weights : !llvm.ptr<4>
  // CHECK: %[[C4:.*]] = llvm.getelementptr %[[C]][%{{.*}}] : (!llvm.ptr<4>, i64)
  // CHECK-SAME: -> !llvm.ptr<4>, i8
  // CHECK: llvm.load %[[C4]] {alignment = 4 : i64} : !llvm.ptr<4> -> i32
  // CHECK: %[[E:.*]] = llvm.mlir.addressof @elsewhere : !llvm.ptr<1>
  // CHECK: llvm.load %[[E]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  // CHECK: %[[T:.*]] = llvm.mlir.addressof @tile : !llvm.ptr<3>
  // CHECK: %[[T8:.*]] = llvm.getelementptr %[[T]][%{{.*}}] : (!llvm.ptr<3>, i64)
  // CHECK-SAME: -> !llvm.ptr<3>, i8
  // CHECK: llvm.store %{{.*}}, %[[T8]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
  ptx.func @loads attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.addressof @counter : !ptx.ptr<global>
    %1 = ptx.ld "global.u32" %0 : (!ptx.ptr<global>) -> i32
    %2 = ptx.addressof @weights : !ptx.ptr<const>
    %3 = ptx.addr %2 + 4 : !ptx.ptr<const>
    %4 = ptx.ld "const.u32" %3 : (!ptx.ptr<const>) -> i32
    %5 = ptx.add "u32" %1, %4 : (i32, i32) -> i32
    %6 = ptx.addressof @elsewhere : !ptx.ptr<global>
    %7 = ptx.ld "global.u32" %6 : (!ptx.ptr<global>) -> i32
    %8 = ptx.add "u32" %5, %7 : (i32, i32) -> i32
    %9 = ptx.addressof @tile : !ptx.ptr<shared>
    %10 = ptx.addr %9 + 8 : !ptx.ptr<shared>
    ptx.st "shared.u32" %10, %8 : (!ptx.ptr<shared>, i32) -> ()
    ptx.ret %8 : i32
  }
}
