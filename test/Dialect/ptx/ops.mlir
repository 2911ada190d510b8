// Round-trip of every structure op and of instruction ops with each class of
// modifier, in custom and generic form.
// RUN: zluda-opt %s | zluda-opt | FileCheck %s
// RUN: zluda-opt %s --mlir-print-op-generic | zluda-opt | FileCheck %s
// RUN: zluda-opt %s --verify-roundtrip | FileCheck %s

module attributes {ptx.module = #ptx.target<version = "9.0", targets = ["sm_90a", "debug"], address_size = 64>} {
  // CHECK: ptx.global @table : global u32 {alignment = 4 : i64, dims = array<i64: 3>, init = dense<[1, 2, 3]> : tensor<3xi32>, linkage = #ptx<linkage visible>}
  ptx.global @table : global u32 {linkage = #ptx<linkage visible>, alignment = 4 : i64, dims = array<i64: 3>, init = dense<[1, 2, 3]> : tensor<3xi32>}
  // CHECK: ptx.global @dyn : shared b8 {alignment = 16 : i64, dims = array<i64: 0>, linkage = #ptx<linkage extern>}
  ptx.global @dyn : shared b8 {linkage = #ptx<linkage extern>, alignment = 16 : i64, dims = array<i64: 0>}
  // CHECK: ptx.global @ptrs : global u64 {dims = array<i64: 2>, init = [#ptx.symaddr<symbol = @table, offset = 8>, #ptx.symaddr<symbol = @table, generic = true>]}
  ptx.global @ptrs : global u64 {dims = array<i64: 2>, init = [#ptx.symaddr<symbol = @table, offset = 8>, #ptx.symaddr<symbol = @table, generic = true>]}

  // CHECK-LABEL: ptx.func @callee
  // CHECK-SAME: returns = [#ptx.param<name = "ret", space = param, type = b32>]
  ptx.func @callee attributes {params = [#ptx.param<name = "a", space = reg, type = b32>], returns = [#ptx.param<name = "ret", space = param, type = b32>]} {
  ^bb0(%ret: !ptx.ptr<param>, %a: i32):
    // CHECK: ptx.st "param.b32" %{{.*}}, %{{.*}} : (!ptx.ptr<param>, i32) -> ()
    ptx.st "param.b32" %ret, %a : (!ptx.ptr<param>, i32) -> ()
    ptx.ret
  }

  // CHECK-LABEL: ptx.entry @kernel
  // CHECK-SAME: maxntid = array<i32: 256, 1, 1>
  // CHECK-SAME: params = [#ptx.param<name = "p", space = param, type = u64, ptr = true, ptrSpace = global, ptrAlign = 16>]
  ptx.entry @kernel attributes {params = [#ptx.param<name = "p", space = param, type = u64, ptr = true, ptrSpace = #ptx<space global>, ptrAlign = 16>], maxntid = array<i32: 256, 1, 1>, minnctapersm = 2 : i32} {
  ^bb0(%p: !ptx.ptr<param>):
    // CHECK: %[[ADDR:.*]] = ptx.ld "param.u64" %{{.*}} : (!ptx.ptr<param>) -> i64
    %addr = ptx.ld "param.u64" %p : (!ptx.ptr<param>) -> i64
    // CHECK: %[[TID:.*]] = ptx.sreg <tid.x> : i32
    %tid = ptx.sreg <tid.x> : i32
    // CHECK: ptx.sreg <envreg3> : i32
    %env = ptx.sreg <envreg3> : i32
    // CHECK: ptx.sreg <pm2_64> : i64
    %pm = ptx.sreg <pm2_64> : i64
    // CHECK: %[[C:.*]] = ptx.constant 1.000000e+00 : f32
    %c = ptx.constant 1.0 : f32
    // CHECK: ptx.undef : i32
    %u = ptx.undef : i32
    // CHECK: %[[OFF:.*]] = ptx.addr %[[ADDR]] + 16 : i64
    %off = ptx.addr %addr + 16 : i64
    // CHECK: ptx.addressof @table : !ptx.ptr<global>
    %g = ptx.addressof @table : !ptx.ptr<global>
    // CHECK: ptx.local_var "depot" : local b8 {alignment = 8 : i64, dims = array<i64: 16>} -> !ptx.ptr<local>
    %depot = ptx.local_var "depot" : local b8 {alignment = 8 : i64, dims = array<i64: 16>} -> !ptx.ptr<local>
    // CHECK: ptx.ld "global.v4.nc.L2::256B.f32" %[[OFF]] : (i64) -> (f32, f32, f32, f32)
    %v:4 = ptx.ld "global.nc.v4.L2::256B.f32" %off : (i64) -> (f32, f32, f32, f32)
    // CHECK: ptx.add "rn.ftz.sat.f32"
    %s = ptx.add "rn.ftz.sat.f32" %v#0, %c : (f32, f32) -> f32
    // CHECK: ptx.setp "lo.and.u32" %{{.*}}, %{{.*}}, %{{.*}} : (i32, i32, i1) -> i1
    %q0 = ptx.setp "lo.u32" %tid, %u : (i32, i32) -> i1
    %q = ptx.setp "lo.and.u32" %tid, %u, %q0 : (i32, i32, i1) -> i1
    // CHECK: ptx.mul "lo.u32"
    %m = ptx.mul "lo.u32" %tid, %u : (i32, i32) -> i32
    // CHECK: ptx.atom "acq_rel.gpu.global.add.u32"
    %a = ptx.atom "acq_rel.gpu.global.add.u32" %off, %tid : (i64, i32) -> i32
    // CHECK: ptx.cvt "rni.sat.s32.f32"
    %i = ptx.cvt "rni.sat.s32.f32" %s : (f32) -> i32
    // CHECK: ptx.shfl "bfly.sync.b32"
    %r:2 = ptx.shfl "bfly.sync.b32" %tid, %tid, %tid, %tid : (i32, i32, i32, i32) -> (i32, i1)
    // CHECK: ptx.tex "2d.v4.f32.f32" {{.*}} {groups = array<i32: 3>}
    %t:4 = ptx.tex "2d.v4.f32.f32" %addr, %s, %s {groups = array<i32: 3>} : (i64, f32, f32) -> (f32, f32, f32, f32)
    // CHECK: ptx.mma "m16n8k16.sync.aligned.row.col.f32.bf16.bf16.f32"
    %d:4 = ptx.mma "m16n8k16.sync.aligned.row.col.f32.bf16.bf16.f32" %tid, %tid, %tid, %tid, %tid, %tid, %s, %s, %s, %s {groups = array<i32: 4, 2, 4>} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
    // CHECK: ptx.wgmma.mma_async "m64n8k16.sync.aligned.f32.bf16.bf16"
    %w:4 = ptx.wgmma.mma_async "m64n8k16.sync.aligned.f32.bf16.bf16" %addr, %addr : (i64, i64) -> (f32, f32, f32, f32)
    // CHECK: ptx.vabsdiff4 "u32.u32.u32" {{.*}} {selectors = ["", "b0", "", ""]}
    %vd = ptx.vabsdiff4 "u32.u32.u32" %tid, %tid, %tid {selectors = ["", "b0", "", ""]} : (i32, i32, i32) -> i32
    // CHECK: ptx.barrier.sync "aligned"
    ptx.barrier.sync "aligned" %tid : (i32) -> ()
    // CHECK: ptx.call @callee returns(%{{.*}} : !ptx.ptr<param>) args(%{{.*}} : i32) {uni}
    ptx.call @callee returns(%p : !ptx.ptr<param>) args(%tid : i32) {uni}
    // CHECK: ptx.call indirect %[[ADDR]] : i64 args(%{{.*}} : i32) {prototype = [#ptx.param<name = "_", space = param, type = b32>]} -> i32
    %cr = ptx.call indirect %addr : i64 args(%tid : i32) {prototype = [#ptx.param<name = "_", space = param, type = b32>]} -> i32
    // CHECK: ptx.cond_bra %{{.*}}, ^bb1, ^bb2(%{{.*}} : i32)
    ptx.cond_bra %q, ^bb1, ^bb2(%m : i32)
  ^bb1:
    // CHECK: ptx.brx.idx %{{.*}}[^bb3, ^bb4] : i32
    ptx.brx.idx %i [^bb3, ^bb4] : i32
  ^bb2(%x: i32):
    // CHECK: ptx.bra ^bb3 {uni}
    ptx.bra ^bb3 {uni}
  ^bb3:
    ptx.exit
  ^bb4:
    ptx.ret
  }
}
