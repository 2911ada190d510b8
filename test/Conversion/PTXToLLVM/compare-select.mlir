// The CompareSelect family (CompareSelectOpToLLVM.cpp) from ptx-dialect
// input: setp's comparisons (signed, unsigned, ordered and unordered float,
// .ftz) with a BoolOp combining both predicates (p = cmp op c, q = !cmp op
// c), packed halves (p the lower half, q the upper); set's all-ones or 1.0
// results; selp; slct (c >= 0 picks a); testp's classes (zeros normal).
// Target-independent: one target is enough.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-LABEL: llvm.func internal @setp_lt_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i1
  // Without `|q` no negation is made (sort.sm_80 had 4,029 dead ones for
  // the optimizer to remove).
  // CHECK: %[[P:.*]] = llvm.icmp "slt" %[[A]], %[[B]] : i32
  // CHECK-NOT: llvm.xor
  // CHECK: llvm.return %[[P]] : i1
  ptx.func @setp_lt_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: i32, %b: i32):
    %0 = ptx.setp "lt.s32" %a, %b : (i32, i32) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @setp_hi_u64(
  // CHECK: llvm.icmp "ugt" %{{.*}}, %{{.*}} : i64
  ptx.func @setp_hi_u64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>,
                #ptx.param<name = "b", space = reg, type = b64>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: i64, %b: i64):
    %0 = ptx.setp "hi.u64" %a, %b : (i64, i64) -> i1
    ptx.ret %0 : i1
  }
  // ltu is unordered (true on NaN); .and combines both results with c.
  // CHECK-LABEL: llvm.func internal @setp_ltu_and_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: i1) -> !llvm.struct<(i1, i1)>
  // CHECK: %[[CMP:.*]] = llvm.fcmp "ult" %[[A]], %[[B]] : f32
  // CHECK: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[NCMP:.*]] = llvm.xor %[[CMP]], %[[TRUE]] : i1
  // CHECK: %[[P:.*]] = llvm.and %[[CMP]], %[[C]] : i1
  // CHECK: %[[Q:.*]] = llvm.and %[[NCMP]], %[[C]] : i1
  // CHECK: %[[S:.*]] = llvm.insertvalue %[[P]], %{{.*}}[0] : !llvm.struct<(i1, i1)>
  // CHECK: llvm.insertvalue %[[Q]], %[[S]][1] : !llvm.struct<(i1, i1)>
  ptx.func @setp_ltu_and_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>,
                #ptx.param<name = "c", space = reg, type = pred>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>,
                 #ptx.param<name = "q", space = reg, type = pred>]} {
  ^bb0(%p: i1, %q: i1, %a: f32, %b: f32, %c: i1):
    %0:2 = ptx.setp "ltu.and.f32" %a, %b, %c : (f32, f32, i1) -> (i1, i1)
    ptx.ret %0#0, %0#1 : i1, i1
  }
  // CHECK-LABEL: llvm.func internal @setp_num_f64(
  // CHECK: llvm.fcmp "ord" %{{.*}}, %{{.*}} : f64
  ptx.func @setp_num_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>,
                #ptx.param<name = "b", space = reg, type = f64>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f64, %b: f64):
    %0 = ptx.setp "num.f64" %a, %b : (f64, f64) -> i1
    ptx.ret %0 : i1
  }
  // ne is ordered; .ftz flushes both operands first.
  // CHECK-LABEL: llvm.func internal @setp_ne_ftz_f32(
  // CHECK: %[[FA:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK: %[[FB:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK: llvm.fcmp "one" %[[FA]], %[[FB]] : f32
  ptx.func @setp_ne_ftz_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32, %b: f32):
    %0 = ptx.setp "ne.ftz.f32" %a, %b : (f32, f32) -> i1
    ptx.ret %0 : i1
  }
  // Packed halves: one vector compare, p from the lower half, q from the
  // upper, each combined with c (here negated by a separate `not`).
  // CHECK-LABEL: llvm.func internal @setp_gt_or_f16x2(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i1)
  // CHECK: %[[NC:.*]] = llvm.xor %[[C]], %{{.*}} : i1
  // CHECK: %[[X:.*]] = llvm.bitcast %[[A]] : i32 to vector<2xf16>
  // CHECK: %[[Y:.*]] = llvm.bitcast %[[B]] : i32 to vector<2xf16>
  // CHECK: %[[V:.*]] = llvm.fcmp "ogt" %[[X]], %[[Y]] : vector<2xf16>
  // CHECK: %[[I0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[LO:.*]] = llvm.extractelement %[[V]][%[[I0]] : i32] : vector<2xi1>
  // CHECK: %[[I1:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[HI:.*]] = llvm.extractelement %[[V]][%[[I1]] : i32] : vector<2xi1>
  // CHECK: %[[P:.*]] = llvm.or %[[LO]], %[[NC]] : i1
  // CHECK: %[[Q:.*]] = llvm.or %[[HI]], %[[NC]] : i1
  // CHECK: llvm.insertvalue %[[P]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[Q]], %{{.*}}[1]
  ptx.func @setp_gt_or_f16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = pred>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>,
                 #ptx.param<name = "q", space = reg, type = pred>]} {
  ^bb0(%p: i1, %q: i1, %a: i32, %b: i32, %c: i1):
    %0 = ptx.not "pred" %c : (i1) -> i1
    %1:2 = ptx.setp "gt.or.f16x2" %a, %b, %0 : (i32, i32, i1) -> (i1, i1)
    ptx.ret %1#0, %1#1 : i1, i1
  }
  // set into an integer: all ones or zero (the comparison by the source
  // type, signed here).
  // CHECK-LABEL: llvm.func internal @set_lt_u32_s32(
  // CHECK: %[[P:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.select %[[P]], %[[ONES]], %[[ZERO]] : i1, i32
  ptx.func @set_lt_u32_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.set "lt.u32.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // set into a float: 1.0 or 0.0.
  // CHECK-LABEL: llvm.func internal @set_ge_f32_f32(
  // CHECK: %[[P:.*]] = llvm.fcmp "oge" %{{.*}}, %{{.*}} : f32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK: llvm.select %[[P]], %[[ONE]], %[[ZERO]] : i1, f32
  ptx.func @set_ge_f32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.set "ge.f32.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @set_eq_f16x2(
  // CHECK: %[[P:.*]] = llvm.fcmp "oeq" %{{.*}}, %{{.*}} : vector<2xf16>
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<2xf16>) : vector<2xf16>
  // CHECK: llvm.select %[[P]], %[[ONE]], %{{.*}} : vector<2xi1>, vector<2xf16>
  ptx.func @set_eq_f16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.set "eq.f16x2.f16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // A packed compare into an integer word: 0xffff or 0 per half.
  // CHECK-LABEL: llvm.func internal @set_eq_u32_f16x2(
  // CHECK: %[[P:.*]] = llvm.fcmp "oeq" %{{.*}}, %{{.*}} : vector<2xf16>
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(dense<-1> : vector<2xi16>) : vector<2xi16>
  // CHECK: %[[R:.*]] = llvm.select %[[P]], %[[ONES]], %{{.*}} : vector<2xi1>, vector<2xi16>
  // CHECK: llvm.bitcast %[[R]] : vector<2xi16> to i32
  ptx.func @set_eq_u32_f16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.set "eq.u32.f16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @selp_b32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i1) -> i32
  // CHECK: %[[R:.*]] = llvm.select %[[C]], %[[A]], %[[B]] : i1, i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @selp_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i1):
    %0 = ptx.selp "b32" %a, %b, %c : (i32, i32, i1) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @selp_f64(
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f64
  ptx.func @selp_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>,
                #ptx.param<name = "b", space = reg, type = f64>,
                #ptx.param<name = "c", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = f64>]} {
  ^bb0(%d: f64, %a: f64, %b: f64, %c: i1):
    %0 = ptx.selp "f64" %a, %b, %c : (f64, f64, i1) -> f64
    ptx.ret %0 : f64
  }
  // slct: a where c >= 0, else b.
  // CHECK-LABEL: llvm.func internal @slct_s32_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[GE:.*]] = llvm.icmp "sge" %[[C]], %[[ZERO]] : i32
  // CHECK: llvm.select %[[GE]], %[[A]], %[[B]] : i1, i32
  ptx.func @slct_s32_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.slct "s32.s32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // A float c: ordered >= 0 (-0 picks a, NaN picks b).
  // CHECK-LABEL: llvm.func internal @slct_u32_f32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: f32) -> i32
  // CHECK: %[[GE:.*]] = llvm.fcmp "oge" %[[C]], %{{.*}} : f32
  // CHECK: llvm.select %[[GE]], %[[A]], %[[B]] : i1, i32
  ptx.func @slct_u32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: f32):
    %0 = ptx.slct "u32.f32" %a, %b, %c : (i32, i32, f32) -> i32
    ptx.ret %0 : i32
  }
  // normal: |a| >= FLT_MIN or a zero (NVIDIA counts both zeros), and finite.
  // CHECK-LABEL: llvm.func internal @testp_normal_f32(
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%{{.*}}) : (f32) -> f32
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(1.17549435E-38 : f32) : f32
  // CHECK: %[[BIG:.*]] = llvm.fcmp "oge" %[[M]], %[[MIN]] : f32
  // CHECK: %[[ZERO:.*]] = llvm.fcmp "oeq" %[[M]], %{{.*}} : f32
  // CHECK: %[[N:.*]] = llvm.or %[[BIG]], %[[ZERO]] : i1
  // CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
  // CHECK: %[[FIN:.*]] = llvm.fcmp "olt" %[[M]], %[[INF]] : f32
  // CHECK: llvm.and %[[N]], %[[FIN]] : i1
  ptx.func @testp_normal_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32):
    %0 = ptx.testp "normal.f32" %a : (f32) -> i1
    ptx.ret %0 : i1
  }
  // subnormal: below DBL_MIN and not zero.
  // CHECK-LABEL: llvm.func internal @testp_subnormal_f64(
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%{{.*}}) : (f64) -> f64
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(2.2250738585072014E-308 : f64) : f64
  // CHECK: %[[LT:.*]] = llvm.fcmp "olt" %[[M]], %[[MIN]] : f64
  // CHECK: %[[NZ:.*]] = llvm.fcmp "one" %[[M]], %{{.*}} : f64
  // CHECK: llvm.and %[[LT]], %[[NZ]] : i1
  ptx.func @testp_subnormal_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f64):
    %0 = ptx.testp "subnormal.f64" %a : (f64) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @testp_finite_f32(
  // CHECK: %[[M:.*]] = llvm.intr.fabs
  // CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
  // CHECK: llvm.fcmp "olt" %[[M]], %[[INF]] : f32
  ptx.func @testp_finite_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32):
    %0 = ptx.testp "finite.f32" %a : (f32) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @testp_infinite_f32(
  // CHECK: %[[M:.*]] = llvm.intr.fabs
  // CHECK: %[[INF:.*]] = llvm.mlir.constant(0x7F800000 : f32) : f32
  // CHECK: llvm.fcmp "oeq" %[[M]], %[[INF]] : f32
  ptx.func @testp_infinite_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32):
    %0 = ptx.testp "infinite.f32" %a : (f32) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @testp_number_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> i1
  // CHECK: llvm.fcmp "ord" %[[A]], %[[A]] : f32
  ptx.func @testp_number_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32):
    %0 = ptx.testp "number.f32" %a : (f32) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @testp_notanumber_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> i1
  // CHECK: llvm.fcmp "uno" %[[A]], %[[A]] : f32
  ptx.func @testp_notanumber_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%p: i1, %a: f32):
    %0 = ptx.testp "notanumber.f32" %a : (f32) -> i1
    ptx.ret %0 : i1
  }
}
