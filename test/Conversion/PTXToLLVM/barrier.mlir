// The Barrier family (BarrierOpToLLVM.cpp) from ptx-dialect input: the CTA
// barrier (bar.sync/barrier.sync 0) as s_barrier between a workgroup
// release and acquire fence (NVPTX: barrier0); named barriers with thread
// counts through a word per barrier in LDS (@__zluda_named_barrier, zeroed
// at every kernel's entry); bar.red counting the predicate in an LDS word
// between three barriers; membar/fence as LLVM fences of their scope;
// griddepcontrol as nothing on AMDGPU (NVIDIA's intrinsics on NVPTX);
// nanosleep as a short s_sleep.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK: llvm.mlir.global internal @__zluda_bar_red() {addr_space = 3 : i32, alignment = 4 : i64}
  // CHECK-SAME: : !llvm.array<2 x i32>
  // CHECK: llvm.mlir.global internal @__zluda_named_barriers() {addr_space = 3 : i32,
  // CHECK-SAME: alignment = 4 : i64} : !llvm.array<49 x i32>

  // CHECK-LABEL: llvm.func internal @bar_sync_0(
  // CHECK-NEXT: llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: llvm.fence syncscope("workgroup") release
  // CHECK-NEXT: rocdl.s.barrier
  // CHECK-NEXT: llvm.fence syncscope("workgroup") acquire
  // CHECK-NEXT: llvm.return
  // NV-LABEL: llvm.func internal @bar_sync_0(
  // NV: nvvm.barrier0
  ptx.func @bar_sync_0 attributes {params = [], returns = []} {
    %0 = ptx.constant 0 : i32
    ptx.bar.sync "" %0 : (i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @barrier_sync_aligned(
  // CHECK: llvm.fence syncscope("workgroup") release
  // CHECK-NEXT: rocdl.s.barrier
  // CHECK-NEXT: llvm.fence syncscope("workgroup") acquire
  ptx.func @barrier_sync_aligned attributes {params = [], returns = []} {
    %0 = ptx.constant 0 : i32
    ptx.barrier.sync "aligned" %0 : (i32) -> ()
    ptx.ret
  }
  // bar.arrive a, b: the step on barrier a (mod 16) for b threads, without
  // waiting (the last argument).
  // CHECK-LABEL: llvm.func internal @bar_arrive_named(
  // CHECK-SAME: %[[N:.*]]: i32)
  // CHECK: %[[ID:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
  // CHECK: %[[NOWAIT:.*]] = llvm.mlir.constant(false) : i1
  // CHECK: llvm.call @__zluda_named_barrier(%[[ID]], %[[N]], %[[NOWAIT]]) : (i32, i32, i1) -> ()
  // CHECK-NOT: rocdl.s.barrier
  ptx.func @bar_arrive_named attributes {
      params = [#ptx.param<name = "n", space = reg, type = b32>],
      returns = []} {
  ^bb0(%n: i32):
    %0 = ptx.constant 1 : i32
    ptx.bar.arrive "" %0, %n : (i32, i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @barrier_arrive(
  // CHECK-SAME: %[[N:.*]]: i32)
  // CHECK: %[[B:.*]] = llvm.mlir.constant(3 : i32) : i32
  // CHECK: %[[ID:.*]] = llvm.and %[[B]], %{{.*}} : i32
  // CHECK: %[[NOWAIT:.*]] = llvm.mlir.constant(false) : i1
  // CHECK: llvm.call @__zluda_named_barrier(%[[ID]], %[[N]], %[[NOWAIT]]) : (i32, i32, i1) -> ()
  ptx.func @barrier_arrive attributes {
      params = [#ptx.param<name = "n", space = reg, type = b32>],
      returns = []} {
  ^bb0(%n: i32):
    %0 = ptx.constant 3 : i32
    ptx.barrier.arrive "aligned" %0, %n : (i32, i32) -> ()
    ptx.ret
  }
  // bar.red.popc: thread 0 resets the count (the others write a dummy
  // word), a barrier, an LDS atomic add of the predicate, a barrier, the
  // count read back.
  // CHECK-LABEL: llvm.func internal @bar_red_popc(
  // CHECK-SAME: %[[P:.*]]: i1) -> i32
  // CHECK: %[[ONE:.*]] = llvm.zext %[[P]] : i1 to i32
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[WORDS:.*]] = llvm.mlir.addressof @__zluda_bar_red : !llvm.ptr<3>
  // CHECK: %[[IDX:.*]] = llvm.select %[[FIRST]], %{{.*}}, %{{.*}} : i1, i32
  // CHECK: %[[MINE:.*]] = llvm.getelementptr %[[WORDS]][0, %[[IDX]]]
  // CHECK: %[[COUNT:.*]] = llvm.getelementptr %[[WORDS]][0, 0]
  // CHECK: rocdl.s.barrier
  // CHECK: llvm.store %{{.*}}, %[[MINE]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
  // CHECK: rocdl.s.barrier
  // CHECK: llvm.atomicrmw add %[[COUNT]], %[[ONE]] syncscope("workgroup") monotonic
  // CHECK-SAME: : !llvm.ptr<3>, i32
  // CHECK: rocdl.s.barrier
  // CHECK: %[[N:.*]] = llvm.load %[[COUNT]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  // CHECK: llvm.return %[[N]] : i32
  ptx.func @bar_red_popc attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i1):
    %0 = ptx.constant 0 : i32
    %1 = ptx.bar.red "popc.u32" %0, %p : (i32, i1) -> i32
    ptx.ret %1 : i32
  }
  // .and: count the threads where p is false; true if none.
  // CHECK-LABEL: llvm.func internal @barrier_red_and(
  // CHECK-SAME: %[[P:.*]]: i1) -> i1
  // CHECK: %[[NP:.*]] = llvm.xor %[[P]], %{{.*}} : i1
  // CHECK: %[[ONE:.*]] = llvm.zext %[[NP]] : i1 to i32
  // CHECK: llvm.atomicrmw add %{{.*}}, %[[ONE]] syncscope("workgroup") monotonic
  // CHECK: %[[N:.*]] = llvm.load
  // CHECK: llvm.icmp "eq" %[[N]], %{{.*}} : i32
  ptx.func @barrier_red_and attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i1):
    %0 = ptx.constant 0 : i32
    %1 = ptx.barrier.red "and.pred" %0, %p : (i32, i1) -> i1
    ptx.ret %1 : i1
  }
  // CHECK-LABEL: llvm.func internal @membar_gl(
  // CHECK-NEXT: llvm.fence syncscope("agent") seq_cst
  // NV-LABEL: llvm.func internal @membar_gl(
  // NV-NEXT: llvm.fence syncscope("device") seq_cst
  ptx.func @membar_gl attributes {params = [], returns = []} {
    ptx.membar "gl" : () -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @membar_cta(
  // CHECK-NEXT: llvm.fence syncscope("workgroup") seq_cst
  // NV-LABEL: llvm.func internal @membar_cta(
  // NV-NEXT: llvm.fence syncscope("block") seq_cst
  ptx.func @membar_cta attributes {params = [], returns = []} {
    ptx.membar "cta" : () -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @membar_sys(
  // CHECK-NEXT: llvm.fence seq_cst
  ptx.func @membar_sys attributes {params = [], returns = []} {
    ptx.membar "sys" : () -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @fence_sc_gpu(
  // CHECK-NEXT: llvm.fence syncscope("agent") seq_cst
  ptx.func @fence_sc_gpu attributes {params = [], returns = []} {
    ptx.fence "sc.gpu" : () -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @fence_acq_rel_cta(
  // CHECK-NEXT: llvm.fence syncscope("workgroup") acq_rel
  ptx.func @fence_acq_rel_cta attributes {params = [], returns = []} {
    ptx.fence "acq_rel.cta" : () -> ()
    ptx.ret
  }
  // A HIP kernel starts after its predecessor in the stream has finished:
  // nothing to wait for, nothing to release.
  // CHECK-LABEL: llvm.func internal @griddep(
  // CHECK-NEXT: llvm.return
  // NV-LABEL: llvm.func internal @griddep(
  // NV: llvm.call_intrinsic "llvm.nvvm.griddepcontrol.wait"() : () -> ()
  // NV: llvm.call_intrinsic "llvm.nvvm.griddepcontrol.launch.dependents"() : () -> ()
  ptx.func @griddep attributes {params = [], returns = []} {
    ptx.griddepcontrol "wait" : () -> ()
    ptx.griddepcontrol "launch_dependents" : () -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @sleep(
  // CHECK-NEXT: rocdl.s.sleep 1
  // NV-LABEL: llvm.func internal @sleep(
  // NV: nvvm.nanosleep
  ptx.func @sleep attributes {
      params = [#ptx.param<name = "t", space = reg, type = b32>],
      returns = []} {
  ^bb0(%t: i32):
    ptx.nanosleep "u32" %t : (i32) -> ()
    ptx.ret
  }
  // A kernel using named barriers zeroes, per thread, one barrier word and
  // its two bar.red accumulators, then synchronizes the CTA; bar.sync a, b
  // steps and waits.
  // CHECK-LABEL: llvm.func @named(
  // CHECK: %[[IDX:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
  // CHECK: %[[W:.*]] = llvm.getelementptr %{{.*}}[0, %{{.*}}] : (!llvm.ptr<3>, i32)
  // CHECK-SAME: -> !llvm.ptr<3>, !llvm.array<49 x i32>
  // CHECK: llvm.store %{{.*}}, %[[W]] {alignment = 4 : i64} : i32, !llvm.ptr<3>
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.add %[[IDX]], %[[C16]] : i32
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: llvm.add %[[IDX]], %[[C32]] : i32
  // CHECK: rocdl.s.barrier
  // CHECK: %[[N:.*]] = llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i32) : i32
  // CHECK: %[[WAIT:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: llvm.call @__zluda_named_barrier(%{{.*}}, %[[C64]], %[[WAIT]]) : (i32, i32, i1) -> ()
  // CHECK: llvm.call @__zluda_named_barrier(%{{.*}}, %[[N]], %{{.*}}) : (i32, i32, i1) -> ()
  // The step: the wave's first active lane moves the word with one
  // compare-and-swap (32 arrivals; completing clears them and advances the
  // phase in the upper half, after zeroing the next phase's accumulator),
  // then the waiting lanes spin on the phase.
  // CHECK-LABEL: llvm.func internal @__zluda_named_barrier(
  // CHECK-SAME: %[[ID:.*]]: i32, %[[COUNT:.*]]: i32, %[[DOWAIT:.*]]: i1)
  // CHECK: llvm.fence syncscope("workgroup") release
  // CHECK: %[[ACTIVE:.*]] = rocdl.ballot
  // CHECK: %[[LANE:.*]] = rocdl.mbcnt.lo
  // CHECK: %[[LEADER:.*]] = "llvm.intr.cttz"(%[[ACTIVE]])
  // CHECK: %[[WORD:.*]] = llvm.getelementptr %{{.*}}[0, %[[ID]]]
  // CHECK: %[[OLD:.*]] = llvm.load %[[WORD]] atomic syncscope("workgroup") monotonic
  // CHECK: llvm.icmp "eq" %[[LANE]], %[[LEADER]] : i32
  // CHECK: ^bb1(%[[CUR:.*]]: i32):
  // CHECK: %[[ARRIVED:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: %[[DONE:.*]] = llvm.icmp "uge" %[[ARRIVED]], %[[COUNT]] : i32
  // CHECK: llvm.store %{{.*}}, %{{.*}} atomic syncscope("workgroup") monotonic
  // CHECK: llvm.cmpxchg %[[WORD]], %[[CUR]], %{{.*}} syncscope("workgroup") acq_rel monotonic
  // CHECK-SAME: : !llvm.ptr<3>, i32
  // CHECK: llvm.load %[[WORD]] atomic syncscope("workgroup") acquire
  // CHECK: rocdl.s.sleep 1
  // CHECK: llvm.fence syncscope("workgroup") acquire
  // NV-LABEL: llvm.func @named(
  // NV: nvvm.barrier0
  // NV: llvm.call @__zluda_named_barrier(
  // NV-LABEL: llvm.func internal @__zluda_named_barrier(
  // NV: llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
  // NV: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("block") acq_rel monotonic
  // NV-SAME: : !llvm.ptr<3>, i32
  ptx.entry @named attributes {
      linkage = #ptx<linkage visible>,
      params = [#ptx.param<name = "n", space = param, type = u32>]} {
  ^bb0(%n: !ptx.ptr<param>):
    %0 = ptx.ld "param.u32" %n : (!ptx.ptr<param>) -> i32
    %1 = ptx.constant 1 : i32
    %2 = ptx.constant 64 : i32
    ptx.bar.sync "" %1, %2 : (i32, i32) -> ()
    %3 = ptx.constant 2 : i32
    ptx.barrier.sync "" %3, %0 : (i32, i32) -> ()
    ptx.ret
  }
}
