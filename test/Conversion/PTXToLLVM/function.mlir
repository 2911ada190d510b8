// The Function family (FunctionOpToLLVM.cpp) from ptx-dialect input:
// kernels (AMDGPU: rocdl.kernel, parameters byref pointers into the kernarg
// segment, .reqntid/.maxntid/.minnctapersm as launch bounds; NVPTX:
// nvvm.kernel, byval parameters), functions (.reg parameters and returns
// as values, .param ones as values kept in stack slots of their own, the
// PTX ABI), direct, .param and indirect calls, the CUDA runtime's malloc
// and free (AMDGPU: the device library's allocator; NVPTX: kept),
// branches, brx.idx as a switch, registers read before a write (zero),
// exit, trap, brkpt, pmevent.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-DAG: llvm.func @__ockl_dm_dealloc(i64)
  // CHECK-DAG: llvm.func @__ockl_dm_alloc(i64) -> !llvm.ptr<1>
  // NV-NOT: __ockl
  // NV-DAG: llvm.func @malloc(i64) -> i64
  // NV-DAG: llvm.func @free(i64)

  ptx.func @malloc attributes {
      linkage = #ptx<linkage extern>,
      params = [#ptx.param<name = "n", space = param, type = b64>],
      returns = [#ptx.param<name = "r", space = param, type = b64>]} {
  }
  ptx.func @free attributes {
      linkage = #ptx<linkage extern>,
      params = [#ptx.param<name = "p", space = param, type = b64>],
      returns = []} {
  }
  // .reg parameters and returns are values; the return register starts
  // undefined.
  // CHECK-LABEL: llvm.func internal @twice(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[R:.*]] = llvm.add %[[A]], %[[A]] : i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @twice attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.add "u32" %a, %a : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // .param parameters cross the call as values (a struct as a byte array),
  // each copied into a stack slot of the callee; the .param return is read
  // from its slot at the ret.
  // CHECK-LABEL: llvm.func internal @byparam(
  // CHECK-SAME: %[[X:.*]]: i32, %[[S:.*]]: !llvm.array<8 x i8>) -> i32
  // CHECK: %[[RS:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr<5>
  // CHECK: %[[R:.*]] = llvm.addrspacecast %[[RS]] : !llvm.ptr<5> to !llvm.ptr
  // CHECK: %[[XP:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
  // CHECK: llvm.store %[[X]], %[[XP]] {alignment = 4 : i64} : i32, !llvm.ptr
  // CHECK: llvm.alloca %{{.*}} x !llvm.array<8 x i8> {alignment = 4 : i64} : (i32) -> !llvm.ptr<5>
  // CHECK: %[[SP:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
  // CHECK: llvm.store %[[S]], %[[SP]] {alignment = 4 : i64} : !llvm.array<8 x i8>, !llvm.ptr
  // CHECK: llvm.store %{{.*}}, %[[R]] {alignment = 4 : i64} : i32, !llvm.ptr
  // CHECK: %[[V:.*]] = llvm.load %[[R]] : !llvm.ptr -> i32
  // CHECK: llvm.return %[[V]] : i32
  // NV-LABEL: llvm.func internal @byparam(
  // NV: %[[RS:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  // NV: llvm.addrspacecast %[[RS]] : !llvm.ptr to !llvm.ptr<5>
  ptx.func @byparam attributes {
      params = [#ptx.param<name = "x", space = param, type = b32>,
                #ptx.param<name = "s", space = param, type = b8, align = 4, dims = 8>],
      returns = [#ptx.param<name = "r", space = param, type = b32>]} {
  ^bb0(%r: !ptx.ptr<param>, %x: !ptx.ptr<param>, %s: !ptx.ptr<param>):
    %0 = ptx.ld "param.b32" %x : (!ptx.ptr<param>) -> i32
    %1 = ptx.addr %s + 4 : !ptx.ptr<param>
    %2 = ptx.ld "param.b32" %1 : (!ptx.ptr<param>) -> i32
    %3 = ptx.add "u32" %0, %2 : (i32, i32) -> i32
    ptx.st "param.b32" %r, %3 : (!ptx.ptr<param>, i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @branches(
  // CHECK: %[[P:.*]] = llvm.icmp "eq"
  // CHECK: llvm.cond_br %[[P]], ^bb2, ^bb1
  // CHECK: ^bb1:
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.br ^bb3(%[[ONE]] : i32)
  // CHECK: ^bb3(%[[D:.*]]: i32):
  // CHECK: llvm.return %[[D]] : i32
  ptx.func @branches attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant 0 : i32
    %1 = ptx.setp "eq.u32" %a, %0 : (i32, i32) -> i1
    ptx.cond_bra %1, ^bb2, ^bb1
  ^bb1:  // pred: ^bb0
    %2 = ptx.constant 1 : i32
    %3 = ptx.mov "u32" %2 : (i32) -> i32
    ptx.bra ^bb3(%3 : i32) {uni}
  ^bb2:  // pred: ^bb0
    %4 = ptx.constant 2 : i32
    %5 = ptx.mov "u32" %4 : (i32) -> i32
    ptx.bra ^bb3(%5 : i32)
  ^bb3(%6: i32):  // 2 preds: ^bb1, ^bb2
    ptx.ret %6 : i32
  }
  // A register read before any write is zero (deterministically).
  // CHECK-LABEL: llvm.func internal @uninit(
  // CHECK: %[[Z:.*]] = llvm.mlir.zero : i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.add %[[Z]], %[[ONE]] : i32
  ptx.func @uninit attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.undef : i32
    %1 = ptx.constant 1 : i32
    %2 = ptx.add "u32" %0, %1 : (i32, i32) -> i32
    ptx.ret %2 : i32
  }
  // brx.idx: a switch over the targets (an index out of range is undefined:
  // the last target).
  // CHECK-LABEL: llvm.func internal @jump_table(
  // CHECK-SAME: %[[I:.*]]: i32) -> i32
  // CHECK: llvm.switch %[[I]] : i32, ^bb2 [
  // CHECK-NEXT: 0: ^bb1,
  // CHECK-NEXT: 1: ^bb2
  // CHECK-NEXT: ]
  ptx.func @jump_table attributes {
      params = [#ptx.param<name = "i", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %i: i32):
    ptx.brx.idx %i[^bb1, ^bb2] : i32
  ^bb1:  // pred: ^bb0
    ptx.bra ^bb3
  ^bb2:  // pred: ^bb0
    ptx.bra ^bb4
  ^bb3:  // pred: ^bb1
    %0 = ptx.constant 10 : i32
    %1 = ptx.mov "u32" %0 : (i32) -> i32
    ptx.ret %1 : i32
  ^bb4:  // pred: ^bb2
    %2 = ptx.constant 11 : i32
    %3 = ptx.mov "u32" %2 : (i32) -> i32
    ptx.ret %3 : i32
  }
  // A .param call: the arguments loaded from the caller's .param slots as
  // values, the result stored into the return slot.
  // CHECK-LABEL: llvm.func internal @calls(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[T:.*]] = llvm.call @twice(%[[A]]) : (i32) -> i32
  // CHECK: %[[PX:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
  // CHECK: %[[PS:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
  // CHECK: %[[PR:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<5> to !llvm.ptr
  // CHECK: llvm.store %[[T]], %[[PX]] {alignment = 4 : i64} : i32, !llvm.ptr
  // CHECK: %[[X:.*]] = llvm.load %[[PX]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[S:.*]] = llvm.load %[[PS]] {alignment = 4 : i64} : !llvm.ptr -> !llvm.array<8 x i8>
  // CHECK: %[[R:.*]] = llvm.call @byparam(%[[X]], %[[S]]) : (i32, !llvm.array<8 x i8>) -> i32
  // CHECK: llvm.store %[[R]], %[[PR]] {alignment = 4 : i64} : i32, !llvm.ptr
  // NV-LABEL: llvm.func internal @calls(
  // NV: llvm.call @byparam(%{{.*}}, %{{.*}}) : (i32, !llvm.array<8 x i8>) -> i32
  ptx.func @calls attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.call @twice args(%a : i32) -> i32
    %1 = ptx.local_var "px" : param b32 -> !ptx.ptr<param>
    %2 = ptx.local_var "ps" : param b8
        {alignment = 4 : i64, dims = array<i64: 8>} -> !ptx.ptr<param>
    %3 = ptx.local_var "pr" : param b32 -> !ptx.ptr<param>
    ptx.st "param.b32" %1, %0 : (!ptx.ptr<param>, i32) -> ()
    ptx.st "param.b32" %2, %a : (!ptx.ptr<param>, i32) -> ()
    %4 = ptx.addr %2 + 4 : !ptx.ptr<param>
    ptx.st "param.b32" %4, %0 : (!ptx.ptr<param>, i32) -> ()
    ptx.call @byparam returns(%3 : !ptx.ptr<param>) args(%1, %2 : !ptx.ptr<param>, !ptx.ptr<param>)
    %5 = ptx.ld "param.b32" %3 : (!ptx.ptr<param>) -> i32
    ptx.ret %5 : i32
  }
  // An indirect call through a register, typed by its prototype.
  // CHECK-LABEL: llvm.func internal @indirect(
  // CHECK-SAME: %[[F:.*]]: i64, %{{.*}}: i32) -> i32
  // CHECK: %[[X:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[FP:.*]] = llvm.inttoptr %[[F]] : i64 to !llvm.ptr
  // CHECK: llvm.call %[[FP]](%[[X]]) : !llvm.ptr, (i32) -> i32
  ptx.func @indirect attributes {
      params = [#ptx.param<name = "f", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %f: i64, %a: i32):
    %0 = ptx.local_var "px" : param b32 -> !ptx.ptr<param>
    %1 = ptx.local_var "pr" : param b32 -> !ptx.ptr<param>
    ptx.st "param.b32" %0, %a : (!ptx.ptr<param>, i32) -> ()
    ptx.call indirect %f : i64 returns(%1 : !ptx.ptr<param>) args(%0 : !ptx.ptr<param>)
        {prototype = [#ptx.param<name = "_", space = param, type = b32>],
         prototypeReturns = [#ptx.param<name = "_", space = param, type = b32>]}
    %2 = ptx.ld "param.b32" %1 : (!ptx.ptr<param>) -> i32
    ptx.ret %2 : i32
  }
  // malloc/free: the device library's heap on AMDGPU, the driver's on NVPTX.
  // CHECK-LABEL: llvm.func internal @heap(
  // CHECK: %[[N:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
  // CHECK: %[[P:.*]] = llvm.call @__ockl_dm_alloc(%[[N]]) : (i64) -> !llvm.ptr<1>
  // CHECK: %[[G:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK: llvm.ptrtoint %[[G]] : !llvm.ptr to i64
  // CHECK: llvm.call @__ockl_dm_dealloc(%{{.*}}) : (i64) -> ()
  // NV-LABEL: llvm.func internal @heap(
  // NV: llvm.call @malloc(%{{.*}}) : (i64) -> i64
  // NV: llvm.call @free(%{{.*}}) : (i64) -> ()
  ptx.func @heap attributes {
      params = [#ptx.param<name = "n", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %n: i64):
    %0 = ptx.local_var "pn" : param b64 -> !ptx.ptr<param>
    %1 = ptx.local_var "pr" : param b64 -> !ptx.ptr<param>
    ptx.st "param.b64" %0, %n : (!ptx.ptr<param>, i64) -> ()
    ptx.call @malloc returns(%1 : !ptx.ptr<param>) args(%0 : !ptx.ptr<param>)
    %2 = ptx.ld "param.b64" %1 : (!ptx.ptr<param>) -> i64
    %3 = ptx.local_var "pp" : param b64 -> !ptx.ptr<param>
    ptx.st "param.b64" %3, %2 : (!ptx.ptr<param>, i64) -> ()
    ptx.call @free args(%3 : !ptx.ptr<param>)
    ptx.ret %2 : i64
  }
  // trap is llvm.trap, brkpt llvm.debugtrap (s_trap 3, ignored without a
  // debugger), pmevent nothing (no counters for a program to trigger).
  // CHECK-LABEL: llvm.func internal @traps(
  // CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2
  // CHECK: ^bb1:
  // CHECK-NEXT: llvm.intr.trap
  // CHECK-NEXT: llvm.br ^bb2
  // CHECK: llvm.call_intrinsic "llvm.debugtrap"() : () -> ()
  // CHECK-NOT: llvm.call
  // CHECK: llvm.return
  ptx.func @traps attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = []} {
  ^bb0(%p: i1):
    ptx.cond_bra %p, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    ptx.trap "" : () -> ()
    ptx.bra ^bb2
  ^bb2:  // 2 preds: ^bb0, ^bb1
    ptx.brkpt "" : () -> ()
    %0 = ptx.constant 1 : i32
    ptx.pmevent "" %0 : (i32) -> ()
    ptx.ret
  }
  // exit ends the thread from a function too.
  // CHECK-LABEL: llvm.func internal @leave(
  // CHECK: ^bb1:
  // CHECK-NEXT: llvm.call_intrinsic "llvm.amdgcn.endpgm"() : () -> ()
  // CHECK-NEXT: llvm.unreachable
  // NV-LABEL: llvm.func internal @leave(
  // NV: llvm.call_intrinsic "llvm.nvvm.exit"() : () -> ()
  // NV-NEXT: llvm.unreachable
  ptx.func @leave attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = []} {
  ^bb0(%p: i1):
    ptx.cond_bra %p, ^bb1, ^bb2
  ^bb1:  // pred: ^bb0
    ptx.exit
  ^bb2:  // pred: ^bb0
    ptx.ret
  }
  // The kernel ABI: parameters laid out as CUDA declares them, byref into
  // the kernarg segment (addrspace 4); .reqntid 128 sets both the flat and
  // the required work-group size.
  // CHECK-LABEL: llvm.func @kern(
  // CHECK-SAME: %[[P0:.*]]: !llvm.ptr<4> {llvm.align = 8 : i64, llvm.byref = !llvm.array<8 x i8>},
  // CHECK-SAME: %{{.*}}: !llvm.ptr<4> {llvm.align = 4 : i64, llvm.byref = !llvm.array<4 x i8>},
  // CHECK-SAME: %[[P2:.*]]: !llvm.ptr<4> {llvm.align = 16 : i64,
  // CHECK-SAME: llvm.byref = !llvm.array<32 x i8>})
  // CHECK-SAME: attributes {rocdl.flat_work_group_size = "1,128", rocdl.kernel,
  // CHECK-SAME: rocdl.reqd_work_group_size = array<i32: 128, 1, 1>}
  // CHECK: %[[C2:.*]] = llvm.addrspacecast %[[P2]] : !llvm.ptr<4> to !llvm.ptr
  // CHECK: %[[C0:.*]] = llvm.addrspacecast %[[P0]] : !llvm.ptr<4> to !llvm.ptr
  // CHECK: llvm.load %[[C0]] {alignment = 8 : i64} : !llvm.ptr -> i64
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[F:.*]] = llvm.getelementptr %[[C2]][%[[OFF]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
  // CHECK: llvm.load %[[F]] {alignment = 4 : i64} : !llvm.ptr -> i32
  // NV-LABEL: llvm.func @kern(
  // NV-SAME: %[[P0:.*]]: !llvm.ptr {llvm.align = 8 : i64, llvm.byval = !llvm.array<8 x i8>},
  // NV-SAME: attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128>}
  // NV: llvm.load %[[P0]] {alignment = 8 : i64} : !llvm.ptr -> i64
  ptx.entry @kern attributes {
      linkage = #ptx<linkage visible>,
      params = [#ptx.param<name = "k_p0", space = param, type = u64>,
                #ptx.param<name = "k_p1", space = param, type = f32>,
                #ptx.param<name = "k_p2", space = param, type = b8, align = 16, dims = 32>],
      reqntid = array<i32: 128>} {
  ^bb0(%k_p0: !ptx.ptr<param>, %k_p1: !ptx.ptr<param>, %k_p2: !ptx.ptr<param>):
    %0 = ptx.ld "param.u64" %k_p0 : (!ptx.ptr<param>) -> i64
    %1 = ptx.addr %k_p2 + 16 : !ptx.ptr<param>
    %2 = ptx.ld "param.u32" %1 : (!ptx.ptr<param>) -> i32
    ptx.st "global.u32" %0, %2 : (i64, i32) -> ()
    ptx.ret
  }
  // .maxntid bounds the flat work-group size; .minnctapersm 2 of 256 threads
  // asks for 4 waves per SIMD.
  // CHECK-LABEL: llvm.func @bounded()
  // CHECK-SAME: attributes {passthrough = {{\[}}["amdgpu-waves-per-eu", "4"]],
  // CHECK-SAME: rocdl.flat_work_group_size = "1,256", rocdl.kernel}
  // NV-LABEL: llvm.func @bounded()
  // NV-SAME: attributes {nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>}
  ptx.entry @bounded attributes {
      linkage = #ptx<linkage visible>,
      maxntid = array<i32: 256, 1, 1>,
      minnctapersm = 2 : i32,
      params = []} {
    ptx.ret
  }
}
