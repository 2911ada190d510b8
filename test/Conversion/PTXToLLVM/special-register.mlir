// The SpecialRegister family (SpecialRegisterOpToLLVM.cpp) from ptx-dialect
// input: the thread, CTA and grid indices and sizes as ROCDL's work-item
// and work-group intrinsics; %laneid from mbcnt; WARP_SZ 32; %lanemask_*
// from the lane; %warpid/%nwarpid from the linear thread index; %smid from
// HW_ID1 and %nsmid 256; %gridid the dispatch id; the counters from the
// steady counter (cycles at 20 per tick on gfx11, globaltimer ticks of
// 10 ns); the shared memory sizes from the dispatch packet; clusters of
// one CTA; %pm<n> 0; %envreg1 the grid workspace's address. NVPTX reads
// NVIDIA's registers.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK: llvm.mlir.global internal @__zluda_grid_workspace() {addr_space = 1 : i32,
  // CHECK-SAME: alignment = 16 : i64} : !llvm.array<2 x i64>
  // CHECK-NEXT: llvm.mlir.zero : !llvm.array<2 x i64>
  // NV-NOT: __zluda_grid_workspace

  // CHECK-LABEL: llvm.func internal @tid_x(
  // CHECK: %[[R:.*]] = rocdl.workitem.id.x : i32
  // CHECK-NEXT: llvm.return %[[R]] : i32
  // NV-LABEL: llvm.func internal @tid_x(
  // NV: nvvm.read.ptx.sreg.tid.x : i32
  ptx.func @tid_x attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <tid.x> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @tid_y(
  // CHECK: rocdl.workitem.id.y : i32
  ptx.func @tid_y attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <tid.y> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @ntid_x(
  // CHECK: %[[D:.*]] = rocdl.workgroup.dim.x : i64
  // CHECK: llvm.trunc %[[D]] : i64 to i32
  ptx.func @ntid_x attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <ntid.x> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @ctaid_y(
  // CHECK: rocdl.workgroup.id.y : i32
  ptx.func @ctaid_y attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <ctaid.y> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @nctaid_z(
  // CHECK: %[[D:.*]] = rocdl.grid.dim.z : i64
  // CHECK: llvm.trunc %[[D]] : i64 to i32
  ptx.func @nctaid_z attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <nctaid.z> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @laneid(
  // CHECK: %[[ALL:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[L:.*]] = rocdl.mbcnt.lo %[[ALL]], %[[Z]] : (i32, i32) -> i32
  // CHECK: llvm.return %[[L]] : i32
  // NV-LABEL: llvm.func internal @laneid(
  // NV: nvvm.read.ptx.sreg.laneid : i32
  ptx.func @laneid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <laneid> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @warpsize(
  // CHECK: %[[W:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: llvm.return %[[W]] : i32
  ptx.func @warpsize attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <WARP_SZ> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // lt = (1 << lane) - 1; ge = ~lt.
  // CHECK-LABEL: llvm.func internal @lanemask_lt(
  // CHECK: %[[L:.*]] = rocdl.mbcnt.lo
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[EQ:.*]] = llvm.shl %[[ONE]], %[[L]] : i32
  // CHECK: %[[LT:.*]] = llvm.sub %[[EQ]], %[[ONE]] : i32
  // CHECK: llvm.return %[[LT]] : i32
  // NV-LABEL: llvm.func internal @lanemask_lt(
  // NV: %[[L:.*]] = nvvm.read.ptx.sreg.laneid : i32
  // NV: llvm.shl %{{.*}}, %[[L]] : i32
  ptx.func @lanemask_lt attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <lanemask_lt> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @lanemask_ge(
  // CHECK: %[[LT:.*]] = llvm.sub
  // CHECK: %[[GE:.*]] = llvm.xor %[[LT]], %{{.*}} : i32
  // CHECK: llvm.return %[[GE]] : i32
  ptx.func @lanemask_ge attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <lanemask_ge> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @warpid(
  // CHECK: llvm.add
  // CHECK: %[[LIN:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
  // CHECK: llvm.lshr %[[LIN]], %[[C5]] : i32
  // NV-LABEL: llvm.func internal @warpid(
  // NV: llvm.inline_asm has_side_effects "mov.u32 $0, %warpid;", "=r"
  ptx.func @warpid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <warpid> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // The CTA's warps, rounded up.
  // CHECK-LABEL: llvm.func internal @nwarpid(
  // CHECK: llvm.mul
  // CHECK: %[[N:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: %[[UP:.*]] = llvm.add %[[N]], %[[C31]] : i32
  // CHECK: llvm.lshr %[[UP]], %{{.*}} : i32
  ptx.func @nwarpid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <nwarpid> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // HW_ID1 (getreg 63511): SE, SA and WGP ids as SE.SA.WGP.
  // CHECK-LABEL: llvm.func internal @smid(
  // CHECK: %[[ID:.*]] = llvm.mlir.constant(63511 : i32) : i32
  // CHECK: %[[HW:.*]] = llvm.call_intrinsic "llvm.amdgcn.s.getreg"(%[[ID]]) : (i32) -> i32
  // CHECK: %[[C18:.*]] = llvm.mlir.constant(18 : i32) : i32
  // CHECK: llvm.lshr %[[HW]], %[[C18]] : i32
  // NV-LABEL: llvm.func internal @smid(
  // NV: llvm.inline_asm has_side_effects "mov.u32 $0, %smid;", "=r"
  ptx.func @smid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <smid> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @nsmid(
  // CHECK: llvm.mlir.constant(256 : i32) : i32
  ptx.func @nsmid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <nsmid> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @gridid(
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.dispatch.id"() : () -> i64
  ptx.func @gridid attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64):
    %0 = ptx.sreg <gridid> : i64
    %1 = ptx.mov "u64" %0 : (i64) -> i64
    ptx.ret %1 : i64
  }
  // CHECK-LABEL: llvm.func internal @clock64(
  // CHECK: %[[T:.*]] = llvm.call_intrinsic "llvm.readsteadycounter"() : () -> i64
  // CHECK: %[[K:.*]] = llvm.mlir.constant(20 : i64) : i64
  // CHECK: llvm.mul %[[T]], %[[K]] : i64
  // NV-LABEL: llvm.func internal @clock64(
  // NV: nvvm.read.ptx.sreg.clock64 : i64
  ptx.func @clock64 attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64):
    %0 = ptx.sreg <clock64> : i64
    %1 = ptx.mov "u64" %0 : (i64) -> i64
    ptx.ret %1 : i64
  }
  // CHECK-LABEL: llvm.func internal @clock(
  // CHECK: %[[C:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.trunc %[[C]] : i64 to i32
  ptx.func @clock attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <clock> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @globaltimer(
  // CHECK: %[[T:.*]] = llvm.call_intrinsic "llvm.readsteadycounter"() : () -> i64
  // CHECK: %[[K:.*]] = llvm.mlir.constant(10 : i64) : i64
  // CHECK: llvm.mul %[[T]], %[[K]] : i64
  // NV-LABEL: llvm.func internal @globaltimer(
  // NV: nvvm.read.ptx.sreg.globaltimer : i64
  ptx.func @globaltimer attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64):
    %0 = ptx.sreg <globaltimer> : i64
    %1 = ptx.mov "u64" %0 : (i64) -> i64
    ptx.ret %1 : i64
  }
  // The dispatch packet's group segment size less the static LDS.
  // CHECK-LABEL: llvm.func internal @dynamic_smem(
  // CHECK: %[[P:.*]] = llvm.call_intrinsic "llvm.amdgcn.dispatch.ptr"() : () -> !llvm.ptr<4>
  // CHECK: %[[F:.*]] = llvm.getelementptr %[[P]][28] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
  // CHECK: %[[TOTAL:.*]] = llvm.load %[[F]] {alignment = 4 : i64} : !llvm.ptr<4> -> i32
  // CHECK: %[[STATIC:.*]] = llvm.call_intrinsic "llvm.amdgcn.groupstaticsize"() : () -> i32
  // CHECK: llvm.sub %[[TOTAL]], %[[STATIC]] : i32
  // NV-LABEL: llvm.func internal @dynamic_smem(
  // NV: llvm.inline_asm has_side_effects "mov.u32 $0, %dynamic_smem_size;", "=r"
  ptx.func @dynamic_smem attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <dynamic_smem_size> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @total_smem(
  // CHECK: %[[F:.*]] = llvm.getelementptr %{{.*}}[28] : (!llvm.ptr<4>) -> !llvm.ptr<4>, i8
  // CHECK: %[[TOTAL:.*]] = llvm.load %[[F]] {alignment = 4 : i64} : !llvm.ptr<4> -> i32
  // CHECK-NEXT: llvm.return %[[TOTAL]] : i32
  ptx.func @total_smem attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <total_smem_size> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @cluster_nctarank(
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: llvm.return %[[ONE]] : i32
  // NV-LABEL: llvm.func internal @cluster_nctarank(
  // NV: llvm.inline_asm has_side_effects "mov.u32 $0, %cluster_nctarank;", "=r"
  ptx.func @cluster_nctarank attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <cluster_nctarank> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @explicit_cluster(
  // CHECK: %[[F:.*]] = llvm.mlir.constant(false) : i1
  // CHECK-NEXT: llvm.return %[[F]] : i1
  ptx.func @explicit_cluster attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1):
    %0 = ptx.sreg <is_explicit_cluster> : i1
    %1 = ptx.mov "pred" %0 : (i1) -> i1
    ptx.ret %1 : i1
  }
  // CHECK-LABEL: llvm.func internal @pm0(
  // CHECK: llvm.mlir.constant(0 : i64) : i64
  ptx.func @pm0 attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <pm0> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
  // %envreg1 is the high half of the grid workspace's address (AMDGPU).
  // CHECK-LABEL: llvm.func internal @envreg1(
  // CHECK: %[[W:.*]] = llvm.mlir.addressof @__zluda_grid_workspace : !llvm.ptr<1>
  // CHECK: %[[A:.*]] = llvm.ptrtoint %[[W]] : !llvm.ptr<1> to i64
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[H:.*]] = llvm.lshr %[[A]], %[[C32]] : i64
  // CHECK: llvm.trunc %[[H]] : i64 to i32
  // NV-LABEL: llvm.func internal @envreg1(
  // NV: llvm.inline_asm "mov.u32 $0, %envreg1;", "=r"
  ptx.func @envreg1 attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.sreg <envreg1> : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  }
}
