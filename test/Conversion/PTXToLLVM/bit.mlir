// The Bit family (BitOpToLLVM.cpp) from ptx-dialect input: logic on
// integers and predicates, cnot, popc/clz/brev, shifts clamped (PTX shifts
// by the width or more give 0 or the sign fill, LLVM's are poison), funnel
// shifts (.clamp/.wrap), bfe/bfi/bmsk guarded the same way, bfind, fns, lop3
// as a sum of minterms of its constant table, and prmt (default mode with
// sign replication, and the fixed modes). Target-independent.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-LABEL: llvm.func internal @and_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[R:.*]] = llvm.and %[[A]], %[[B]] : i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @and_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.and "b32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @or_pred(
  // CHECK: llvm.or %{{.*}}, %{{.*}} : i1
  ptx.func @or_pred attributes {
      params = [#ptx.param<name = "a", space = reg, type = pred>,
                #ptx.param<name = "b", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %a: i1, %b: i1):
    %0 = ptx.or "pred" %a, %b : (i1, i1) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @xor_b64(
  // CHECK: llvm.xor %{{.*}}, %{{.*}} : i64
  ptx.func @xor_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>,
                #ptx.param<name = "b", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i64, %b: i64):
    %0 = ptx.xor "b64" %a, %b : (i64, i64) -> i64
    ptx.ret %0 : i64
  }
  // CHECK-LABEL: llvm.func internal @not_b32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: llvm.xor %[[A]], %[[ONES]] : i32
  ptx.func @not_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.not "b32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // cnot: 1 if a is zero, else 0.
  // CHECK-LABEL: llvm.func internal @cnot_b32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[Z:.*]] = llvm.icmp "eq" %[[A]], %{{.*}} : i32
  // CHECK: llvm.zext %[[Z]] : i1 to i32
  ptx.func @cnot_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.cnot "b32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // popc.b64 counts into a 32-bit result.
  // CHECK-LABEL: llvm.func internal @popc_b64(
  // CHECK: %[[N:.*]] = llvm.intr.ctpop(%{{.*}}) : (i64) -> i64
  // CHECK: llvm.trunc %[[N]] : i64 to i32
  ptx.func @popc_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i64):
    %0 = ptx.popc "b64" %a : (i64) -> i32
    ptx.ret %0 : i32
  }
  // clz of 0 is 32: not poison.
  // CHECK-LABEL: llvm.func internal @clz_b32(
  // CHECK: "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
  ptx.func @clz_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.clz "b32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @brev_b32(
  // CHECK: llvm.intr.bitreverse(%{{.*}}) : (i32) -> i32
  ptx.func @brev_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.brev "b32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // shl: the amount clamped to 31 for LLVM, the result 0 from 32 on.
  // CHECK-LABEL: llvm.func internal @shl_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: %[[N:.*]] = llvm.intr.umin(%[[B]], %[[C31]]) : (i32, i32) -> i32
  // CHECK: %[[BIG:.*]] = llvm.icmp "ugt" %[[B]], %[[C31]] : i32
  // CHECK: %[[S:.*]] = llvm.shl %[[A]], %[[N]] : i32
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[R:.*]] = llvm.select %[[BIG]], %[[Z]], %[[S]] : i1, i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @shl_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.shl "b32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @shr_u32(
  // CHECK: %[[N:.*]] = llvm.intr.umin
  // CHECK: %[[BIG:.*]] = llvm.icmp "ugt"
  // CHECK: %[[S:.*]] = llvm.lshr %{{.*}}, %[[N]] : i32
  // CHECK: llvm.select %[[BIG]], %{{.*}}, %[[S]] : i1, i32
  ptx.func @shr_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.shr "u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // shr.s: a shift by 31 already is the sign fill.
  // CHECK-LABEL: llvm.func internal @shr_s32(
  // CHECK: %[[N:.*]] = llvm.intr.umin
  // CHECK: %[[S:.*]] = llvm.ashr %{{.*}}, %[[N]] : i32
  // CHECK-NEXT: llvm.return %[[S]] : i32
  ptx.func @shr_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.shr "s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // A 64-bit value shifted by a 32-bit amount, clamped to 63.
  // CHECK-LABEL: llvm.func internal @shl_b64(
  // CHECK: %[[C63:.*]] = llvm.mlir.constant(63 : i32) : i32
  // CHECK: %[[N:.*]] = llvm.intr.umin(%{{.*}}, %[[C63]]) : (i32, i32) -> i32
  // CHECK: %[[N64:.*]] = llvm.zext %[[N]] : i32 to i64
  // CHECK: %[[S:.*]] = llvm.shl %{{.*}}, %[[N64]] : i64
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: llvm.select %{{.*}}, %[[Z]], %[[S]] : i1, i64
  ptx.func @shl_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i64, %b: i32):
    %0 = ptx.shl "b64" %a, %b : (i64, i32) -> i64
    ptx.ret %0 : i64
  }
  // shf.l d, a, b, c: the upper word of (b:a) << c; .clamp: from 32 on, b.
  // (LLVM's fshl takes the high word first and the amount modulo 32.)
  // CHECK-LABEL: llvm.func internal @shf_l_clamp(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[F:.*]] = llvm.intr.fshl(%[[B]], %[[A]], %[[C]]) : (i32, i32, i32) -> i32
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[BIG:.*]] = llvm.icmp "uge" %[[C]], %[[C32]] : i32
  // CHECK: llvm.select %[[BIG]], %[[A]], %[[F]] : i1, i32
  ptx.func @shf_l_clamp attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.shf "l.clamp.b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // .wrap: the amount modulo 32, as fshr has it.
  // CHECK-LABEL: llvm.func internal @shf_r_wrap(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[F:.*]] = llvm.intr.fshr(%[[B]], %[[A]], %[[C]]) : (i32, i32, i32) -> i32
  // CHECK-NEXT: llvm.return %[[F]] : i32
  ptx.func @shf_r_wrap attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.shf "r.wrap.b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bfe: pos and len from their low bytes, len clamped to the bits left
  // above pos, every shift guarded against 32.
  // CHECK-LABEL: llvm.func internal @bfe_u32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[FF:.*]] = llvm.mlir.constant(255 : i32) : i32
  // CHECK: %[[POS:.*]] = llvm.and %[[B]], %[[FF]] : i32
  // CHECK: %[[LEN0:.*]] = llvm.and %[[C]], %{{.*}} : i32
  // CHECK: %[[P:.*]] = llvm.intr.umin(%[[POS]], %{{.*}}) : (i32, i32) -> i32
  // CHECK: %[[LEFT:.*]] = llvm.sub %{{.*}}, %[[P]] : i32
  // CHECK: %[[LEN:.*]] = llvm.intr.umin(%[[LEN0]], %[[LEFT]]) : (i32, i32) -> i32
  // CHECK: llvm.icmp "uge" %[[LEN]], %{{.*}} : i32
  // CHECK: %[[MASK:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: %[[SH:.*]] = llvm.lshr %[[A]], %{{.*}} : i32
  // CHECK: %[[F:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[SH]] : i1, i32
  // CHECK: %[[R:.*]] = llvm.and %[[F]], %[[MASK]] : i32
  // CHECK-NEXT: llvm.return %[[R]] : i32
  ptx.func @bfe_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.bfe "u32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bfe.s32: the bits above the field filled with its top bit (bit
  // pos+len-1, clamped to 31; none for len 0).
  // CHECK-LABEL: llvm.func internal @bfe_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32) -> i32
  // CHECK: %[[MASK:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: %[[F:.*]] = llvm.and %{{.*}}, %[[MASK]] : i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[END:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: %[[TOP:.*]] = llvm.sub %[[END]], %[[ONE]] : i32
  // CHECK: %[[T:.*]] = llvm.intr.umin(%[[TOP]], %{{.*}}) : (i32, i32) -> i32
  // CHECK: %[[SB:.*]] = llvm.lshr %[[A]], %[[T]] : i32
  // CHECK: %[[BIT:.*]] = llvm.and %[[SB]], %[[ONE]] : i32
  // CHECK: %[[LEN0:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[S:.*]] = llvm.select %[[LEN0]], %{{.*}}, %[[BIT]] : i1, i32
  // CHECK: %[[FILL:.*]] = llvm.sub %{{.*}}, %[[S]] : i32
  // CHECK: %[[NMASK:.*]] = llvm.xor %[[MASK]], %{{.*}} : i32
  // CHECK: %[[HI:.*]] = llvm.and %[[FILL]], %[[NMASK]] : i32
  // CHECK: llvm.or %[[F]], %[[HI]] : i32
  ptx.func @bfe_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.bfe "s32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bfi d, a, b, c, e: a's low e bits into b at c.
  // CHECK-LABEL: llvm.func internal @bfi_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %{{.*}}: i32, %{{.*}}: i32) -> i32
  // CHECK: %[[LM:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.shl %[[LM]], %{{.*}} : i32
  // CHECK: %[[M:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // CHECK: %[[NM:.*]] = llvm.xor %[[M]], %{{.*}} : i32
  // CHECK: %[[SA:.*]] = llvm.shl %[[A]], %{{.*}} : i32
  // CHECK: %[[GA:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[SA]] : i1, i32
  // CHECK: %[[IN:.*]] = llvm.and %[[GA]], %[[M]] : i32
  // CHECK: %[[KEEP:.*]] = llvm.and %[[B]], %[[NM]] : i32
  // CHECK: llvm.or %[[KEEP]], %[[IN]] : i32
  ptx.func @bfi_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>,
                #ptx.param<name = "e", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32, %e: i32):
    %0 = ptx.bfi "b32" %a, %b, %c, %e : (i32, i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bmsk.clamp: a mask of b bits from bit a; a or a + b of 32 and more
  // clamp (no bits from a >= 32, all bits to the top from a + b >= 32).
  // CHECK-LABEL: llvm.func internal @bmsk_clamp(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[LOW:.*]] = llvm.shl %[[ONES]], %{{.*}} : i32
  // CHECK: %[[END:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: %[[OVER:.*]] = llvm.icmp "uge" %[[END]], %[[C32]] : i32
  // CHECK: %[[ABIG:.*]] = llvm.icmp "uge" %[[A]], %[[C32]] : i32
  // CHECK: %[[BBIG:.*]] = llvm.icmp "uge" %[[B]], %[[C32]] : i32
  // CHECK: llvm.select %[[ABIG]], %{{.*}}, %[[LOW]] : i1, i32
  // CHECK: %[[ANY:.*]] = llvm.or %[[ABIG]], %[[BBIG]] : i1
  // CHECK: llvm.or %[[OVER]], %[[ANY]] : i1
  ptx.func @bmsk_clamp attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.bmsk "clamp.b32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bmsk.wrap: a and b modulo 32.
  // CHECK-LABEL: llvm.func internal @bmsk_wrap(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: %[[WA:.*]] = llvm.and %[[A]], %[[C31]] : i32
  // CHECK: %[[WB:.*]] = llvm.and %[[B]], %[[C31]] : i32
  // CHECK: llvm.shl %{{.*}}, %[[WA]] : i32
  // CHECK-NOT: "uge" %[[A]]
  ptx.func @bmsk_wrap attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.bmsk "wrap.b32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // bfind: 31 - clz, and 0xffffffff when no bit is set.
  // CHECK-LABEL: llvm.func internal @bfind_u32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[CLZ:.*]] = "llvm.intr.ctlz"(%[[A]]) <{is_zero_poison = false}> : (i32) -> i32
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK: %[[MSB:.*]] = llvm.sub %[[C31]], %[[CLZ]] : i32
  // CHECK: %[[Z:.*]] = llvm.icmp "eq" %[[A]], %{{.*}} : i32
  // CHECK: %[[NONE:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: llvm.select %[[Z]], %[[NONE]], %[[MSB]] : i1, i32
  ptx.func @bfind_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.bfind "u32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // A negative value searches for its top 0 bit; .shiftamt is the count.
  // CHECK-LABEL: llvm.func internal @bfind_shiftamt_s32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[NEG:.*]] = llvm.icmp "slt" %[[A]], %{{.*}} : i32
  // CHECK: %[[INV:.*]] = llvm.xor %[[A]], %{{.*}} : i32
  // CHECK: %[[X:.*]] = llvm.select %[[NEG]], %[[INV]], %[[A]] : i1, i32
  // CHECK: %[[CLZ:.*]] = "llvm.intr.ctlz"(%[[X]]) <{is_zero_poison = false}> : (i32) -> i32
  // CHECK-NOT: llvm.sub
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %[[CLZ]] : i1, i32
  ptx.func @bfind_shiftamt_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.bfind "shiftamt.s32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // fns: the |c|-th set bit from b upward (cttz after clearing the lowest
  // bits) or downward (ctlz), 32 steps unrolled; c = 0 tests bit b itself,
  // b above 31 finds nothing (-1) and c = INT_MIN gives 0 (as measured).
  // CHECK-LABEL: llvm.func internal @fns_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK-COUNT-32: "llvm.intr.ctlz"
  // CHECK: "llvm.intr.cttz"
  // CHECK: "llvm.intr.ctlz"
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i32) : i32
  // CHECK-NEXT: %[[BIG:.*]] = llvm.icmp "ugt" %[[B]], %[[C31]] : i32
  // CHECK: %[[NONE:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[R:.*]] = llvm.select %[[BIG]], %[[NONE]], %{{.*}} : i1, i32
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
  // CHECK: %[[ISMIN:.*]] = llvm.icmp "eq" %[[C]], %[[MIN]] : i32
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[R2:.*]] = llvm.select %[[ISMIN]], %[[Z]], %[[R]] : i1, i32
  // CHECK: llvm.return %[[R2]] : i32
  ptx.func @fns_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.fns "b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // 0x96 = a ^ b ^ c: four minterms of the complemented operands.
  // CHECK-LABEL: llvm.func internal @lop3_xor3(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[NA:.*]] = llvm.xor %[[A]], %{{.*}} : i32
  // CHECK: %[[NB:.*]] = llvm.xor %[[B]], %{{.*}} : i32
  // CHECK: %[[NC:.*]] = llvm.xor %[[C]], %{{.*}} : i32
  // CHECK: %[[M1:.*]] = llvm.and %[[NA]], %[[NB]] : i32
  // CHECK: llvm.and %[[M1]], %[[C]] : i32
  // CHECK-COUNT-4: llvm.or
  // CHECK-NOT: llvm.or
  ptx.func @lop3_xor3 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.constant 150 : i32
    %1 = ptx.lop3 "b32" %a, %b, %c, %0 : (i32, i32, i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // 0x80 = a & b & c: one minterm.
  // CHECK-LABEL: llvm.func internal @lop3_and(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[AB:.*]] = llvm.and %[[A]], %[[B]] : i32
  // CHECK: %[[ABC:.*]] = llvm.and %[[AB]], %[[C]] : i32
  // CHECK: %[[R:.*]] = llvm.or %{{.*}}, %[[ABC]] : i32
  // CHECK-NEXT: llvm.return %[[R]] : i32
  ptx.func @lop3_and attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.constant 128 : i32
    %1 = ptx.lop3 "b32" %a, %b, %c, %0 : (i32, i32, i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // prmt: {b, a} as a 64-bit value, each result byte picked by a selector
  // nibble (bit 3: the byte's sign replicated).
  // CHECK-LABEL: llvm.func internal @prmt_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[LO:.*]] = llvm.zext %[[A]] : i32 to i64
  // CHECK: %[[HI:.*]] = llvm.zext %[[B]] : i32 to i64
  // CHECK: %[[HS:.*]] = llvm.shl %[[HI]], %{{.*}} : i64
  // CHECK: %[[V:.*]] = llvm.or %[[LO]], %[[HS]] : i64
  // CHECK: llvm.lshr %[[C]], %{{.*}} : i32
  // CHECK: llvm.lshr %[[V]], %{{.*}} : i64
  // CHECK: %[[SIGN:.*]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK: llvm.and %{{.*}}, %[[SIGN]] : i32
  ptx.func @prmt_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.prmt "b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // The fixed modes: .f4e's selectors by c's low two bits (0x3210, 0x4321,
  // 0x5432, 0x6543).
  // CHECK-LABEL: llvm.func internal @prmt_f4e(
  // CHECK: llvm.mlir.constant(12816 : i32) : i32
  // CHECK: llvm.mlir.constant(17185 : i32) : i32
  // CHECK: llvm.mlir.constant(21554 : i32) : i32
  // CHECK: llvm.mlir.constant(25923 : i32) : i32
  ptx.func @prmt_f4e attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.prmt "f4e.b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
}
