// The Atomic family (AtomicOpToLLVM.cpp) from ptx-dialect input: atom and
// red as atomicrmw/cmpxchg, each operation (integer, float, packed halves,
// inc/dec as LLVM's wrapping forms, exch, cas), the scope as a syncscope
// (default .gpu "agent", .cta "workgroup", .sys none; NVPTX "device" and
// "block"), the ordering (default relaxed: monotonic), vector atomics one
// atomic per element, and 128-bit cas as an i128 cmpxchg (the AMDGPU
// backend makes it a critical section: test/Codegen/lowering). NVPTX emits
// NVIDIA's own atom/red for anything but the relaxed .gpu default (LLVM's
// NVPTX backend would drop the scope and ordering of an atomicrmw).
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-LABEL: llvm.func internal @atom_add_u32(
  // CHECK-SAME: %[[P:.*]]: i64, %[[V:.*]]: i32) -> i32
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %[[P]] : i64 to !llvm.ptr<1>
  // CHECK: %[[R:.*]] = llvm.atomicrmw add %[[PTR]], %[[V]] syncscope("agent") monotonic
  // CHECK-SAME: : !llvm.ptr<1>, i32
  // CHECK: llvm.return %[[R]] : i32
  // NV-LABEL: llvm.func internal @atom_add_u32(
  // NV: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<1>, i32
  ptx.func @atom_add_u32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.add.u32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // atom/red.add.f32 flush subnormal inputs (the memory's and the operand)
  // and results to sign-preserving zero (PTX ISA); AMDGPU's atomic add keeps
  // them (the emulator run's atom_add_v2_f32: NVIDIA 0 + 2^-149 = 0), so a
  // compare-and-swap loop of its own, one function per ordering and scope.
  // CHECK-LABEL: llvm.func internal @atom_add_f32_cta(
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
  // CHECK: %[[FLAT:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr<3> to !llvm.ptr
  // CHECK: llvm.call @__zluda_atom_add_ftz_f32.monotonic.cta(%[[FLAT]], %{{.*}}) : (!llvm.ptr, f32) -> f32
  // NV-LABEL: llvm.func internal @atom_add_f32_cta(
  // NV: %[[A:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
  // NV: llvm.inline_asm has_side_effects "atom.relaxed.cta.shared.add.f32 $0, [$1], $2;",
  // NV-SAME: "=f,l,f,~{memory}" %[[A]], %{{.*}} : (i64, f32) -> f32
  // NV-NOT: llvm.atomicrmw
  ptx.func @atom_add_f32_cta attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %p: i64, %v: f32):
    %0 = ptx.atom "cta.shared.add.f32" %p, %v : (i64, f32) -> f32
    ptx.ret %0 : f32
  }
  // .sys is LLVM's system scope: no syncscope.
  // CHECK-LABEL: llvm.func internal @atom_add_f64_sys(
  // CHECK: llvm.atomicrmw fadd %{{.*}}, %{{.*}} monotonic : !llvm.ptr<1>, f64
  // CHECK-NOT: syncscope
  // NV-LABEL: llvm.func internal @atom_add_f64_sys(
  // NV: llvm.inline_asm has_side_effects "atom.relaxed.sys.global.add.f64 $0, [$1], $2;",
  // NV-SAME: "=d,l,d,~{memory}"
  ptx.func @atom_add_f64_sys attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = f64>],
      returns = [#ptx.param<name = "d", space = reg, type = f64>]} {
  ^bb0(%d: f64, %p: i64, %v: f64):
    %0 = ptx.atom "sys.global.add.f64" %p, %v : (i64, f64) -> f64
    ptx.ret %0 : f64
  }
  // Packed halves: one atomic fadd on vector<2xf16> (elementwise).
  // CHECK-LABEL: llvm.func internal @atom_add_f16x2(
  // CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xf16>
  // CHECK: %[[R:.*]] = llvm.atomicrmw fadd %{{.*}}, %[[V]] syncscope("agent") monotonic
  // CHECK-SAME: : !llvm.ptr<1>, vector<2xf16>
  // CHECK: llvm.bitcast %[[R]] : vector<2xf16> to i32
  ptx.func @atom_add_f16x2 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.add.noftz.f16x2" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @atom_exch_acq_rel(
  // CHECK: llvm.atomicrmw xchg %{{.*}}, %{{.*}} syncscope("agent") acq_rel : !llvm.ptr<1>, i32
  // NV-LABEL: llvm.func internal @atom_exch_acq_rel(
  // NV: llvm.inline_asm has_side_effects "atom.acq_rel.gpu.global.exch.b32 $0, [$1], $2;",
  // NV-SAME: "=r,l,r,~{memory}"
  ptx.func @atom_exch_acq_rel attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "acq_rel.gpu.global.exch.b32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // cas d, [a], b, c: compare with b, store c, d the old value.
  // CHECK-LABEL: llvm.func internal @atom_cas_b64(
  // CHECK-SAME: %{{.*}}: i64, %[[C:.*]]: i64, %[[V:.*]]: i64) -> i64
  // CHECK: %[[X:.*]] = llvm.cmpxchg %{{.*}}, %[[C]], %[[V]] syncscope("agent") monotonic monotonic
  // CHECK-SAME: : !llvm.ptr<1>, i64
  // CHECK: %[[OLD:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i64, i1)>
  // CHECK: llvm.return %[[OLD]] : i64
  ptx.func @atom_cas_b64 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "c", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %p: i64, %c: i64, %v: i64):
    %0 = ptx.atom "global.cas.b64" %p, %c, %v : (i64, i64, i64) -> i64
    ptx.ret %0 : i64
  }
  // CHECK-LABEL: llvm.func internal @atom_min_s32(
  // CHECK: llvm.atomicrmw min %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<1>, i32
  ptx.func @atom_min_s32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.min.s32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // Without a state space: a generic pointer.
  // CHECK-LABEL: llvm.func internal @atom_max_u32(
  // CHECK: llvm.atomicrmw umax %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr, i32
  ptx.func @atom_max_u32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "max.u32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @atom_and_b32(
  // CHECK: llvm.atomicrmw _and %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<1>, i32
  ptx.func @atom_and_b32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.and.b32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @atom_or_b64(
  // CHECK: llvm.atomicrmw _or %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<1>, i64
  ptx.func @atom_or_b64 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %p: i64, %v: i64):
    %0 = ptx.atom "global.or.b64" %p, %v : (i64, i64) -> i64
    ptx.ret %0 : i64
  }
  // CHECK-LABEL: llvm.func internal @atom_xor_b32(
  // CHECK: llvm.atomicrmw _xor %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<1>, i32
  ptx.func @atom_xor_b32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.xor.b32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // inc/dec wrap as PTX says: LLVM's uinc_wrap/udec_wrap.
  // CHECK-LABEL: llvm.func internal @atom_inc_u32(
  // CHECK: llvm.atomicrmw uinc_wrap %{{.*}}, %{{.*}} syncscope("agent") monotonic
  // CHECK-SAME: : !llvm.ptr<1>, i32
  ptx.func @atom_inc_u32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.inc.u32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @atom_dec_u32(
  // CHECK: llvm.atomicrmw udec_wrap %{{.*}}, %{{.*}} syncscope("agent") monotonic
  // CHECK-SAME: : !llvm.ptr<1>, i32
  ptx.func @atom_dec_u32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64, %v: i32):
    %0 = ptx.atom "global.dec.u32" %p, %v : (i64, i32) -> i32
    ptx.ret %0 : i32
  }
  // red: the same atomic, its result unused.
  // CHECK-LABEL: llvm.func internal @red_add_release(
  // CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("agent") release : !llvm.ptr<1>, i32
  // CHECK-NEXT: llvm.return
  // NV-LABEL: llvm.func internal @red_add_release(
  // NV: llvm.inline_asm has_side_effects "red.release.gpu.global.add.u32 [$0], $1;",
  // NV-SAME: "l,r,~{memory}"
  ptx.func @red_add_release attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = []} {
  ^bb0(%p: i64, %v: i32):
    ptx.red "release.gpu.global.add.u32" %p, %v : (i64, i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @red_max_s64(
  // CHECK: llvm.atomicrmw max %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<3>, i64
  // NV-LABEL: llvm.func internal @red_max_s64(
  // NV: llvm.atomicrmw max %{{.*}}, %{{.*}} syncscope("device") monotonic : !llvm.ptr<3>, i64
  ptx.func @red_max_s64 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b64>],
      returns = []} {
  ^bb0(%p: i64, %v: i64):
    ptx.red "shared.max.s64" %p, %v : (i64, i64) -> ()
    ptx.ret
  }
  // Vector atomics: one atomic add per element (each element atomic on its
  // own, as the PTX ISA has it).
  // CHECK-LABEL: llvm.func internal @atom_add_v2_f32(
  // CHECK-SAME: %{{.*}}: i64, %[[A:.*]]: f32, %[[B:.*]]: f32)
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  // CHECK: %[[F0:.*]] = llvm.addrspacecast %[[PTR]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK: %[[X:.*]] = llvm.call @__zluda_atom_add_ftz_f32.monotonic.gpu(%[[F0]], %[[A]])
  // CHECK: %[[P1:.*]] = llvm.getelementptr %[[PTR]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK: %[[F1:.*]] = llvm.addrspacecast %[[P1]] : !llvm.ptr<1> to !llvm.ptr
  // CHECK: %[[Y:.*]] = llvm.call @__zluda_atom_add_ftz_f32.monotonic.gpu(%[[F1]], %[[B]])
  // CHECK: llvm.insertvalue %[[X]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[Y]], %{{.*}}[1]
  ptx.func @atom_add_v2_f32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>,
                 #ptx.param<name = "e", space = reg, type = f32>]} {
  ^bb0(%d: f32, %e: f32, %p: i64, %a: f32, %b: f32):
    %0:2 = ptx.atom "global.add.v2.f32" %p, %a, %b {groups = array<i32: 1, 2>}
        : (i64, f32, f32) -> (f32, f32)
    ptx.ret %0#0, %0#1 : f32, f32
  }
  // CHECK-LABEL: llvm.func internal @atom_cas_b128(
  // CHECK: %[[X:.*]] = llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("agent")
  // CHECK-SAME: monotonic monotonic : !llvm.ptr<1>, i128
  // CHECK: llvm.extractvalue %[[X]][0] : !llvm.struct<(i128, i1)>
  // NV-LABEL: llvm.func internal @atom_cas_b128(
  // NV: llvm.cmpxchg %{{.*}}, %{{.*}}, %{{.*}} syncscope("device") monotonic monotonic
  // NV-SAME: : !llvm.ptr<1>, i128
  ptx.func @atom_cas_b128 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = b64>,
                #ptx.param<name = "b", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>,
                 #ptx.param<name = "e", space = reg, type = b64>]} {
  ^bb0(%d: i64, %e: i64, %p: i64, %a: i64, %b: i64):
    %0 = ptx.mov "b128" %a, %b {groups = array<i32: 2>} : (i64, i64) -> i128
    %1 = ptx.mov "b128" %b, %a {groups = array<i32: 2>} : (i64, i64) -> i128
    %2 = ptx.atom "global.cas.b128" %p, %0, %1 : (i64, i128, i128) -> i128
    %3:2 = ptx.mov "b128" %2 : (i128) -> (i64, i64)
    ptx.ret %3#0, %3#1 : i64, i64
  }
  // The loop: the operand flushed once, then per try the memory's value
  // flushed, added, the sum flushed, swapped in if the memory still holds
  // the value read; the old value is returned as it was.
  // CHECK-LABEL: llvm.func internal @__zluda_atom_add_ftz_f32.monotonic.cta(
  // CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[V:.*]]: f32) -> f32
  // CHECK: %[[FIRST:.*]] = llvm.load %[[P]] atomic syncscope("workgroup") monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  // CHECK: llvm.br ^[[LOOP:.*]](%[[FIRST]] : i32)
  // CHECK: ^[[LOOP]](%[[OLD:.*]]: i32):
  // CHECK: %[[OF:.*]] = llvm.bitcast %[[OLD]] : i32 to f32
  // CHECK: llvm.intr.copysign
  // CHECK: %[[SUM:.*]] = llvm.fadd
  // CHECK: llvm.intr.copysign
  // CHECK: %[[CX:.*]] = llvm.cmpxchg %[[P]], %[[OLD]], %{{.*}} syncscope("workgroup") monotonic monotonic : !llvm.ptr, i32
  // CHECK: %[[SEEN:.*]] = llvm.extractvalue %[[CX]][0]
  // CHECK: %[[OK:.*]] = llvm.extractvalue %[[CX]][1]
  // CHECK: llvm.cond_br %[[OK]], ^[[DONE:.*]](%[[OLD]] : i32), ^[[LOOP]](%[[SEEN]] : i32)
  // CHECK: ^[[DONE]](%[[R:.*]]: i32):
  // CHECK: %[[RF:.*]] = llvm.bitcast %[[R]] : i32 to f32
  // CHECK: llvm.return %[[RF]] : f32
}
