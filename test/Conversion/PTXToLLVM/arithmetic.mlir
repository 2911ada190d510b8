// The Arithmetic family (ArithmeticOpToLLVM.cpp) from ptx-dialect input:
// integer add/sub (.sat), carry chains through the CC.CF slot, mul/mad
// (.hi/.wide), div/rem without undefined behaviour on zero, neg/abs, min/max
// (.relu, packed 16-bit, .NaN, .xorsign.abs), float arithmetic (`contract`
// unless rounded, .ftz, .sat, directed rounding, packed halves), the math
// functions, copysign, mul24/mad24, sad, dp4a/dp2a and the video
// instructions. AMDGPU keeps generic LLVM math; the NVPTX seam emits
// NVIDIA's own .approx and contractible instructions.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-LABEL: llvm.func internal @add_sat_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[R:.*]] = llvm.intr.sadd.sat(%[[A]], %[[B]]) : (i32, i32) -> i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @add_sat_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.add "sat.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @sub_u32(
  // CHECK: llvm.sub %{{.*}}, %{{.*}} : i32
  ptx.func @sub_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.sub "u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // Packed 16-bit integers: elementwise on vector<2xi16>, each half wrapping.
  // CHECK-LABEL: llvm.func internal @add_u16x2(
  // CHECK: %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xi16>
  // CHECK: %[[Y:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xi16>
  // CHECK: %[[S:.*]] = llvm.add %[[X]], %[[Y]] : vector<2xi16>
  // CHECK: llvm.bitcast %[[S]] : vector<2xi16> to i32
  ptx.func @add_u16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.add "u16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // add.cc stores its carry out into the function's CC.CF slot (zeroed at
  // entry), addc.cc loads it, adds it and stores the new carry; subc takes
  // the borrow in as the complement of CF (CF holds a carry after a
  // subtraction too, as on NVIDIA GPUs).
  // CHECK-LABEL: llvm.func internal @carry(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr<5>
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.store %[[ZERO]], %[[SLOT]] : i32, !llvm.ptr<5>
  // add.cc.u32 d, a, b
  // CHECK: %[[D:.*]] = llvm.add %[[A]], %[[B]] : i32
  // CHECK: %[[CO:.*]] = llvm.icmp "ult" %[[D]], %[[A]] : i32
  // CHECK: %[[COZ:.*]] = llvm.zext %[[CO]] : i1 to i32
  // CHECK: llvm.store %[[COZ]], %[[SLOT]] : i32, !llvm.ptr<5>
  // addc.cc.u32 e, b, c
  // CHECK: %[[BC:.*]] = llvm.add %[[B]], %[[C]] : i32
  // CHECK: %[[CI:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<5> -> i32
  // CHECK: %[[E:.*]] = llvm.add %[[BC]], %[[CI]] : i32
  // CHECK: llvm.store %{{.*}}, %[[SLOT]] : i32, !llvm.ptr<5>
  // subc.u32 e, e, a: e - a - (1 - CF), no carry out.
  // CHECK: %[[EA:.*]] = llvm.sub %[[E]], %[[A]] : i32
  // CHECK: %[[CF:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<5> -> i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[BORROW:.*]] = llvm.xor %[[CF]], %[[ONE]] : i32
  // CHECK: %[[E2:.*]] = llvm.sub %[[EA]], %[[BORROW]] : i32
  // CHECK-NOT: llvm.store
  // CHECK: llvm.insertvalue %[[D]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[E2]], %{{.*}}[1]
  ptx.func @carry attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "e", space = reg, type = b32>]} {
  ^bb0(%d: i32, %e: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.add "cc.u32" %a, %b : (i32, i32) -> i32
    %1 = ptx.addc "cc.u32" %b, %c : (i32, i32) -> i32
    %2 = ptx.subc "u32" %1, %a : (i32, i32) -> i32
    ptx.ret %0, %2 : i32, i32
  }
  // mad.lo.cc: carry of the low product plus c; madc.hi adds the high half,
  // the addend and CF.
  // CHECK-LABEL: llvm.func internal @madc_hi(
  // CHECK: %[[SLOT:.*]] = llvm.alloca
  // CHECK: %[[LO:.*]] = llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK: %[[D:.*]] = llvm.add %[[LO]], %{{.*}} : i32
  // CHECK: llvm.store %{{.*}}, %[[SLOT]]
  // CHECK: llvm.mul %{{.*}}, %{{.*}} : i64
  // CHECK: %[[HI:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: %[[HD:.*]] = llvm.add %[[HI]], %[[D]] : i32
  // CHECK: %[[CF:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<5> -> i32
  // CHECK: %[[R:.*]] = llvm.add %[[HD]], %[[CF]] : i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @madc_hi attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.mad "lo.cc.u32" %a, %b, %c : (i32, i32, i32) -> i32
    %1 = ptx.madc "hi.u32" %a, %b, %0 : (i32, i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @mul_hi_u32(
  // CHECK: %[[X:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[Y:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[P:.*]] = llvm.mul %[[X]], %[[Y]] : i64
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[H:.*]] = llvm.lshr %[[P]], %[[C32]] : i64
  // CHECK: llvm.trunc %[[H]] : i64 to i32
  ptx.func @mul_hi_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.mul "hi.u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @mul_wide_s32(
  // CHECK: %[[X:.*]] = llvm.sext %{{.*}} : i32 to i64
  // CHECK: %[[Y:.*]] = llvm.sext %{{.*}} : i32 to i64
  // CHECK: %[[P:.*]] = llvm.mul %[[X]], %[[Y]] : i64
  // CHECK: llvm.return %[[P]] : i64
  ptx.func @mul_wide_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i32, %b: i32):
    %0 = ptx.mul "wide.s32" %a, %b : (i32, i32) -> i64
    ptx.ret %0 : i64
  }
  // mad.wide's addend is 64 bits.
  // CHECK-LABEL: llvm.func internal @mad_wide_u32(
  // CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %[[C:.*]]: i64) -> i64
  // CHECK: %[[P:.*]] = llvm.mul %{{.*}}, %{{.*}} : i64
  // CHECK: llvm.add %[[P]], %[[C]] : i64
  ptx.func @mad_wide_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i32, %b: i32, %c: i64):
    %0 = ptx.mad "wide.u32" %a, %b, %c : (i32, i32, i64) -> i64
    ptx.ret %0 : i64
  }
  // A zero divisor is replaced by 1 and the result is all ones (as on
  // NVIDIA); INT_MIN / -1 is computed as the negation, without sdiv's
  // overflow.
  // CHECK-LABEL: llvm.func internal @div_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: %[[BZ:.*]] = llvm.icmp "eq" %[[B]], %[[ZERO]] : i32
  // CHECK: %[[D:.*]] = llvm.select %[[BZ]], %[[ONE]], %[[B]] : i1, i32
  // CHECK: %[[M1:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[ISM1:.*]] = llvm.icmp "eq" %[[D]], %[[M1]] : i32
  // CHECK: %[[SAFE:.*]] = llvm.select %[[ISM1]], %[[ONE]], %[[D]] : i1, i32
  // CHECK: %[[NEG:.*]] = llvm.sub %[[ZERO]], %[[A]] : i32
  // CHECK: %[[Q:.*]] = llvm.sdiv %[[A]], %[[SAFE]] : i32
  // CHECK: %[[QQ:.*]] = llvm.select %[[ISM1]], %[[NEG]], %[[Q]] : i1, i32
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[R:.*]] = llvm.select %[[BZ]], %[[ONES]], %[[QQ]] : i1, i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @div_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.div "s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // rem by zero gives all ones too.
  // CHECK-LABEL: llvm.func internal @rem_u32(
  // CHECK: %[[BZ:.*]] = llvm.icmp "eq"
  // CHECK: %[[D:.*]] = llvm.select %[[BZ]]
  // CHECK: %[[Q:.*]] = llvm.urem %{{.*}}, %[[D]] : i32
  // CHECK: %[[ONES:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: llvm.select %[[BZ]], %[[ONES]], %[[Q]] : i1, i32
  ptx.func @rem_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.rem "u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @abs_s32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // One llvm.abs whose most negative input is defined (itself, as PTX
  // says), not a compare, a negation and a select for InstCombine to fold.
  // CHECK: "llvm.intr.abs"(%[[A]]) <{is_int_min_poison = false}> : (i32) -> i32
  ptx.func @abs_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.abs "s32" %a : (i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @max_relu_s32(
  // CHECK: %[[M:.*]] = llvm.intr.smax(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.intr.smax(%[[M]], %[[Z]]) : (i32, i32) -> i32
  ptx.func @max_relu_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.max "relu.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @min_u16x2(
  // CHECK: llvm.intr.umin(%{{.*}}, %{{.*}}) : (vector<2xi16>, vector<2xi16>) -> vector<2xi16>
  ptx.func @min_u16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.min "u16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // Without a rounding modifier the fusable operations carry `contract`
  // (ptxas fuses them); NVPTX emits the instruction itself for ptxas to fuse.
  // CHECK-LABEL: llvm.func internal @add_f32(
  // CHECK: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<contract>} : f32
  // NV-LABEL: llvm.func internal @add_f32(
  // NV: llvm.inline_asm "add.f32 $0, $1, $2;", "=f,f,f"
  // NV-NOT: llvm.fadd
  ptx.func @add_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.add "f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @add_rn_f32(
  // CHECK: llvm.fadd %{{.*}}, %{{.*}} : f32
  // CHECK-NOT: fastmath
  // NV-LABEL: llvm.func internal @add_rn_f32(
  // NV: llvm.fadd %{{.*}}, %{{.*}} : f32
  ptx.func @add_rn_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.add "rn.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // .ftz flushes subnormal inputs and result to a zero of their sign; .sat
  // clamps to [0, 1] (NaN to 0).
  // CHECK-LABEL: llvm.func internal @add_ftz_sat_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32
  // CHECK: %[[AA:.*]] = llvm.intr.fabs(%[[A]]) : (f32) -> f32
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(1.17549435E-38 : f32) : f32
  // CHECK: %[[TINY:.*]] = llvm.fcmp "olt" %[[AA]], %[[MIN]] : f32
  // CHECK: %[[Z:.*]] = llvm.intr.copysign(%{{.*}}, %[[A]]) : (f32, f32) -> f32
  // CHECK: %[[FA:.*]] = llvm.select %[[TINY]], %[[Z]], %[[A]] : i1, f32
  // CHECK: %[[FB:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[B]] : i1, f32
  // CHECK: %[[S:.*]] = llvm.fadd %[[FA]], %[[FB]] : f32
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: %[[GT:.*]] = llvm.fcmp "ogt" %[[S]], %[[ZERO]] : f32
  // CHECK: %[[LO:.*]] = llvm.select %[[GT]], %[[S]], %[[ZERO]] : i1, f32
  // CHECK: %[[LT:.*]] = llvm.fcmp "olt" %[[LO]], %[[ONE]] : f32
  // CHECK: %[[SAT:.*]] = llvm.select %[[LT]], %[[LO]], %[[ONE]] : i1, f32
  // CHECK: llvm.intr.fabs(%[[SAT]]) : (f32) -> f32
  ptx.func @add_ftz_sat_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.add "ftz.sat.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // Directed rounding: the sum in f64 with its TwoSum error, rounded to f32,
  // then one step on the bits towards zero where the exact sum lies beyond;
  // a NaN gives the canonical NaN.
  // CHECK-LABEL: llvm.func internal @add_rz_f32(
  // CHECK: %[[X:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK: %[[Y:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK: %[[S:.*]] = llvm.fadd %[[X]], %[[Y]] : f64
  // CHECK: %[[C:.*]] = llvm.fptrunc %[[S]] : f64 to f32
  // CHECK: %[[BITS:.*]] = llvm.bitcast %[[C]] : f32 to i32
  // CHECK: llvm.sub %[[BITS]], %{{.*}} : i32
  // CHECK: %[[CANON:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
  // CHECK: %[[NAN:.*]] = llvm.fcmp "uno" %[[S]], %[[S]] : f64
  // CHECK: llvm.select %[[NAN]], %{{.*}}, %{{.*}} : i1, f32
  ptx.func @add_rz_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.add "rz.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @add_f16x2(
  // CHECK: %[[X:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xf16>
  // CHECK: %[[Y:.*]] = llvm.bitcast %{{.*}} : i32 to vector<2xf16>
  // CHECK: %[[S:.*]] = llvm.fadd %[[X]], %[[Y]] : vector<2xf16>
  // CHECK: llvm.bitcast %[[S]] : vector<2xf16> to i32
  ptx.func @add_f16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.add "rn.f16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // mul.ftz: a result tiny before rounding (below FLT_MIN - 2^-151, taken
  // from the exact f64 product) is flushed too, as NVIDIA does.
  // CHECK-LABEL: llvm.func internal @mul_ftz_f32(
  // CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} : f32
  // CHECK: %[[X:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK: %[[Y:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK: %[[E:.*]] = llvm.fmul %[[X]], %[[Y]] : f64
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%[[E]]) : (f64) -> f64
  // CHECK: %[[MID:.*]] = llvm.mlir.constant(1.1754943157898259E-38 : f64) : f64
  // CHECK: %[[TINY:.*]] = llvm.fcmp "olt" %[[M]], %[[MID]] : f64
  // CHECK: %[[Z:.*]] = llvm.intr.copysign(%{{.*}}, %[[P]]) : (f32, f32) -> f32
  // CHECK: llvm.select %[[TINY]], %[[Z]], %[[P]] : i1, f32
  // NV-LABEL: llvm.func internal @mul_ftz_f32(
  // NV: llvm.inline_asm "mul.ftz.f32 $0, $1, $2;", "=f,f,f"
  ptx.func @mul_ftz_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.mul "ftz.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @fma_rn_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32) -> f32
  // CHECK: llvm.intr.fma(%[[A]], %[[B]], %[[C]]) : (f32, f32, f32) -> f32
  ptx.func @fma_rn_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>,
                #ptx.param<name = "c", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32, %c: f32):
    %0 = ptx.fma "rn.f32" %a, %b, %c : (f32, f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // .relu: negative results and -0 become +0, NaN the canonical 0x7fff.
  // CHECK-LABEL: llvm.func internal @fma_relu_f16(
  // CHECK: %[[F:.*]] = llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f16, f16, f16) -> f16
  // CHECK: %[[Z:.*]] = llvm.bitcast %{{.*}} : i16 to f16
  // CHECK: %[[LE:.*]] = llvm.fcmp "ole" %[[F]], %[[Z]] : f16
  // CHECK: %[[R:.*]] = llvm.select %[[LE]], %[[Z]], %[[F]] : i1, f16
  // CHECK: %[[NAN:.*]] = llvm.fcmp "uno" %[[R]], %[[R]] : f16
  // CHECK: llvm.mlir.constant(32767 : i16) : i16
  ptx.func @fma_relu_f16 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b16>,
                #ptx.param<name = "b", space = reg, type = b16>,
                #ptx.param<name = "c", space = reg, type = b16>],
      returns = [#ptx.param<name = "d", space = reg, type = b16>]} {
  ^bb0(%d: i16, %a: i16, %b: i16, %c: i16):
    %0 = ptx.fma "rn.relu.f16" %a, %b, %c : (i16, i16, i16) -> i16
    ptx.ret %0 : i16
  }
  // CHECK-LABEL: llvm.func internal @div_rn_f32(
  // CHECK: llvm.fdiv %{{.*}}, %{{.*}} : f32
  // NV-LABEL: llvm.func internal @div_rn_f32(
  // NV: llvm.fdiv %{{.*}}, %{{.*}} : f32
  ptx.func @div_rn_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.div "rn.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // neg and abs of a NaN give the canonical NaN 0x7fffffff.
  // CHECK-LABEL: llvm.func internal @neg_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> f32
  // CHECK: %[[N:.*]] = llvm.fneg %[[A]] : f32
  // CHECK: %[[NAN:.*]] = llvm.fcmp "uno" %[[A]], %[[A]] : f32
  // CHECK: %[[CANON:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
  // CHECK: %[[CF:.*]] = llvm.bitcast %[[CANON]] : i32 to f32
  // CHECK: llvm.select %[[NAN]], %[[CF]], %[[N]] : i1, f32
  ptx.func @neg_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.neg "f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // div.approx.f32 beyond its bounded range (2^126 < |b| < 2^128): NaN for
  // an infinite a, else a zero with the sign of a / b (PTX ISA); the AMD
  // emulator run found the exact quotient there. NVPTX: NVIDIA's own.
  // CHECK-LABEL: llvm.func internal @div_approx_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32
  // CHECK: %[[Q:.*]] = llvm.fdiv %[[A]], %[[B]] : f32
  // CHECK: %[[MB:.*]] = llvm.intr.fabs(%[[B]])
  // CHECK: %[[LIM:.*]] = llvm.mlir.constant(8.50705917E+37 : f32) : f32
  // CHECK: llvm.fcmp "ogt" %[[MB]], %[[LIM]] : f32
  // CHECK: %[[M:.*]] = llvm.fmul %{{.*}}, %[[B]] : f32
  // CHECK: %[[Z:.*]] = llvm.intr.copysign(%{{.*}}, %[[M]]) : (f32, f32) -> f32
  // CHECK: %[[S:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[Z]] : i1, f32
  // CHECK: %[[R:.*]] = llvm.select %{{.*}}, %[[S]], %[[Q]] : i1, f32
  // CHECK: llvm.return %[[R]] : f32
  // NV-LABEL: llvm.func internal @div_approx_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.div.approx.f"
  ptx.func @div_approx_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.div "approx.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // rcp.approx.ftz.f64 flushes a subnormal operand (and result) to zero of
  // its sign: 1/subnormal is infinite, as on NVIDIA (the AMD emulator run's
  // rcp_approx_ftz_f64 gave 1/x of the subnormal).
  // CHECK-LABEL: llvm.func internal @rcp_approx_ftz_f64(
  // CHECK-SAME: %[[A:.*]]: f64) -> f64
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%[[A]]) : (f64) -> f64
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(2.2250738585072014E-308 : f64) : f64
  // CHECK: llvm.fcmp "olt" %[[M]], %[[MIN]] : f64
  // CHECK: llvm.intr.copysign
  ptx.func @rcp_approx_ftz_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>],
      returns = [#ptx.param<name = "d", space = reg, type = f64>]} {
  ^bb0(%d: f64, %a: f64):
    %0 = ptx.rcp "approx.ftz.f64" %a : (f64) -> f64
    ptx.ret %0 : f64
  }
  // fma.rn on bf16: LLVM's promotion through f32 rounds twice (a product on
  // a bf16 midpoint plus a tiny addend came out 1 ulp low: the AMD emulator
  // run's fma_rn_relu_bf16x2). Rounded once: exact product in f64, the sum
  // rounded to odd in f64 (TwoSum's error) and f32, then to nearest bf16.
  // NVPTX has fma.rn.bf16x2.
  // CHECK-LABEL: llvm.func internal @fma_bf16x2(
  // CHECK: %[[C:.*]] = llvm.fpext %{{.*}} : vector<2xbf16> to vector<2xf64>
  // CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} : vector<2xf64>
  // CHECK: %[[S:.*]] = llvm.fadd %[[P]], %[[C]] : vector<2xf64>
  // CHECK: %[[BB:.*]] = llvm.fsub %[[S]], %[[P]] : vector<2xf64>
  // CHECK: llvm.fcmp "one"
  // From a zero sum, the odd neighbour is the smallest subnormal of the
  // error's sign (a product of two subnormals gave NaN before).
  // CHECK: llvm.fcmp "oeq" %[[S]], %{{.*}} : vector<2xf64>
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<2xi1>, vector<2xi64>
  // CHECK: %[[N:.*]] = llvm.fptrunc %{{.*}} : vector<2xf64> to vector<2xf32>
  // CHECK: llvm.select %{{.*}}, %{{.*}}, %{{.*}} : vector<2xi1>, vector<2xi32>
  // CHECK: llvm.fptrunc %{{.*}} : vector<2xf32> to vector<2xbf16>
  // CHECK-NOT: llvm.intr.fma
  // CHECK: llvm.return
  // NV-LABEL: llvm.func internal @fma_bf16x2(
  // NV: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<2xbf16>, vector<2xbf16>, vector<2xbf16>) -> vector<2xbf16>
  ptx.func @fma_bf16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.fma "rn.bf16x2" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // min: IEEE 754-2019 minimumNumber (a signalling NaN operand gives the
  // other one, -0 < +0), not minnum (either zero, a quieted sNaN: the AMD
  // emulator run's min_f32 / min_ftz_f16x2 mismatches).
  // CHECK-LABEL: llvm.func internal @min_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32
  // CHECK: %[[M:.*]] = llvm.call_intrinsic "llvm.minimumnum"(%[[A]], %[[B]]) : (f32, f32) -> f32
  // CHECK-NEXT: llvm.return %[[M]] : f32
  ptx.func @min_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.min "f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @max_f16x2(
  // CHECK: llvm.call_intrinsic "llvm.maximumnum"(%{{.*}}, %{{.*}}) : (vector<2xf16>, vector<2xf16>) -> vector<2xf16>
  ptx.func @max_f16x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.max "f16x2" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // min.NaN: minimumNumber, but a NaN operand gives the canonical NaN.
  // CHECK-LABEL: llvm.func internal @min_nan_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32
  // CHECK: %[[M:.*]] = llvm.call_intrinsic "llvm.minimumnum"(%[[A]], %[[B]]) : (f32, f32) -> f32
  // CHECK: %[[NAN:.*]] = llvm.fcmp "uno" %[[A]], %[[B]] : f32
  // CHECK: llvm.select %[[NAN]], %{{.*}}, %[[M]] : i1, f32
  ptx.func @min_nan_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.min "NaN.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // max.xorsign.abs: the magnitudes' max with the XOR of the signs.
  // CHECK-LABEL: llvm.func internal @max_xorsign_f32(
  // CHECK: %[[AA:.*]] = llvm.intr.fabs
  // CHECK: %[[AB:.*]] = llvm.intr.fabs
  // CHECK: %[[M:.*]] = llvm.call_intrinsic "llvm.maximumnum"(%[[AA]], %[[AB]]) : (f32, f32) -> f32
  // CHECK: %[[X:.*]] = llvm.xor %{{.*}}, %{{.*}} : i32
  // CHECK: %[[SIGN:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
  // CHECK: %[[S:.*]] = llvm.and %[[X]], %[[SIGN]] : i32
  // CHECK: %[[MB:.*]] = llvm.bitcast %[[M]] : f32 to i32
  // CHECK: llvm.or %[[MB]], %[[S]] : i32
  ptx.func @max_xorsign_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.max "xorsign.abs.f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @rcp_rn_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> f32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: llvm.fdiv %[[ONE]], %[[A]] : f32
  ptx.func @rcp_rn_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.rcp "rn.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @sqrt_rn_f32(
  // CHECK: llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  ptx.func @sqrt_rn_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.sqrt "rn.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @rsqrt_f32(
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: %[[S:.*]] = llvm.intr.sqrt(%{{.*}}) : (f32) -> f32
  // CHECK: llvm.fdiv %[[ONE]], %[[S]] : f32
  // NV-LABEL: llvm.func internal @rsqrt_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.rsqrt.approx.f"
  ptx.func @rsqrt_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.rsqrt "approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @sin_f32(
  // CHECK: llvm.intr.sin(%{{.*}}) : (f32) -> f32
  // NV-LABEL: llvm.func internal @sin_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.sin.approx.f"(%{{.*}}) : (f32) -> f32
  ptx.func @sin_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.sin "approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // .ftz: the operand flushed, then the function, then the result flushed.
  // CHECK-LABEL: llvm.func internal @cos_f32(
  // CHECK: %[[FA:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, f32
  // CHECK: %[[R:.*]] = llvm.intr.cos(%[[FA]]) : (f32) -> f32
  // CHECK: llvm.intr.fabs(%[[R]]) : (f32) -> f32
  // NV-LABEL: llvm.func internal @cos_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.cos.approx.f"
  ptx.func @cos_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.cos "ftz.approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @ex2_f32(
  // CHECK: llvm.intr.exp2(%{{.*}}) : (f32) -> f32
  // NV-LABEL: llvm.func internal @ex2_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.ex2.approx.f32"
  ptx.func @ex2_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.ex2 "approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @lg2_f32(
  // CHECK: llvm.intr.log2(%{{.*}}) : (f32) -> f32
  // NV-LABEL: llvm.func internal @lg2_f32(
  // NV: llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"
  ptx.func @lg2_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.lg2 "approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // tanh.approx: the series below 0.1, (e^2|x| - 1)/(e^2|x| + 1) above, 1
  // beyond 10, with x's sign; NVIDIA's instruction on NVPTX.
  // CHECK-LABEL: llvm.func internal @tanh_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> f32
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%[[A]]) : (f32) -> f32
  // CHECK: llvm.intr.exp2
  // CHECK: llvm.mlir.constant(1.000000e-01 : f32) : f32
  // CHECK: llvm.mlir.constant(1.000000e+01 : f32) : f32
  // CHECK: llvm.intr.copysign(%{{.*}}, %[[A]]) : (f32, f32) -> f32
  // NV-LABEL: llvm.func internal @tanh_f32(
  // NV: llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f"
  ptx.func @tanh_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.tanh "approx.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // copysign d, a, b: b's magnitude with a's sign.
  // CHECK-LABEL: llvm.func internal @copysign_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> f32
  // CHECK: llvm.intr.copysign(%[[B]], %[[A]]) : (f32, f32) -> f32
  ptx.func @copysign_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32, %b: f32):
    %0 = ptx.copysign "f32" %a, %b : (f32, f32) -> f32
    ptx.ret %0 : f32
  }
  // mul24: the low 24 bits extended by the type, bits 47..16 for .hi.
  // CHECK-LABEL: llvm.func internal @mul24_hi_s32(
  // CHECK: %[[A24:.*]] = llvm.trunc %{{.*}} : i32 to i24
  // CHECK: %[[A64:.*]] = llvm.sext %[[A24]] : i24 to i64
  // CHECK: %[[P:.*]] = llvm.mul %[[A64]], %{{.*}} : i64
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[H:.*]] = llvm.ashr %[[P]], %[[C16]] : i64
  // CHECK: llvm.trunc %[[H]] : i64 to i32
  ptx.func @mul24_hi_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.mul24 "hi.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // mad24.hi.sat.s32: the sum clamped to the s32 range.
  // CHECK-LABEL: llvm.func internal @mad24_hi_sat_s32(
  // CHECK: %[[S:.*]] = llvm.add %{{.*}}, %{{.*}} : i64
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(-2147483648 : i64) : i64
  // CHECK: %[[LO:.*]] = llvm.intr.smax(%[[S]], %[[MIN]]) : (i64, i64) -> i64
  // CHECK: %[[MAX:.*]] = llvm.mlir.constant(2147483647 : i64) : i64
  // CHECK: llvm.intr.smin(%[[LO]], %[[MAX]]) : (i64, i64) -> i64
  ptx.func @mad24_hi_sat_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.mad24 "hi.sat.s32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // sad: c + |a - b|, compared in the type's signedness.
  // CHECK-LABEL: llvm.func internal @sad_u32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[LT:.*]] = llvm.icmp "ult" %[[A]], %[[B]] : i32
  // CHECK: %[[BA:.*]] = llvm.sub %[[B]], %[[A]] : i32
  // CHECK: %[[AB:.*]] = llvm.sub %[[A]], %[[B]] : i32
  // CHECK: %[[D:.*]] = llvm.select %[[LT]], %[[BA]], %[[AB]] : i1, i32
  // CHECK: llvm.add %[[C]], %[[D]] : i32
  ptx.func @sad_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.sad "u32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // dp4a.s32.u32: a's bytes sign-extended, b's zero-extended, four products
  // added to c.
  // CHECK-LABEL: llvm.func internal @dp4a_s32_u32(
  // CHECK: %[[A0:.*]] = llvm.trunc %{{.*}} : i32 to i8
  // CHECK: llvm.sext %[[A0]] : i8 to i32
  // CHECK: %[[B0:.*]] = llvm.trunc %{{.*}} : i32 to i8
  // CHECK: llvm.zext %[[B0]] : i8 to i32
  // CHECK-COUNT-4: llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK-NOT: llvm.mul
  ptx.func @dp4a_s32_u32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.dp4a "s32.u32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // dp2a.lo: a's two halves times bytes 0 and 1 of b.
  // CHECK-LABEL: llvm.func internal @dp2a_lo_u32_s32(
  // CHECK: llvm.trunc %{{.*}} : i32 to i16
  // CHECK: llvm.zext %{{.*}} : i16 to i32
  // CHECK: llvm.sext %{{.*}} : i8 to i32
  // CHECK: llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK: llvm.lshr %{{.*}}, %[[C8]] : i32
  // CHECK: llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK-NOT: llvm.mul
  ptx.func @dp2a_lo_u32_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.dp2a "lo.u32.s32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // Video instructions: operands extended to i64 by their types, the
  // operation exact; .sat on a u32 word clamps at 0 only (as measured).
  // CHECK-LABEL: llvm.func internal @vadd_sat(
  // CHECK: %[[A:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[B:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[S:.*]] = llvm.add %[[A]], %[[B]] : i64
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[C:.*]] = llvm.intr.smax(%[[S]], %[[Z]]) : (i64, i64) -> i64
  // CHECK-NOT: llvm.intr.smin
  // CHECK: llvm.trunc %[[C]] : i64 to i32
  ptx.func @vadd_sat attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vadd "sat.u32.u32.u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // The secondary .add adds c (sign-extended).
  // CHECK-LABEL: llvm.func internal @vsub_add(
  // CHECK: %[[D:.*]] = llvm.sub %{{.*}}, %{{.*}} : i64
  // CHECK: %[[C:.*]] = llvm.sext %{{.*}} : i32 to i64
  // CHECK: llvm.add %[[D]], %[[C]] : i64
  ptx.func @vsub_add attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.vsub "add.s32.s32.s32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @vabsdiff(
  // CHECK: %[[D:.*]] = llvm.sub %{{.*}}, %{{.*}} : i64
  // CHECK: %[[N:.*]] = llvm.sub %{{.*}}, %[[D]] : i64
  // CHECK: llvm.intr.smax(%[[D]], %[[N]]) : (i64, i64) -> i64
  ptx.func @vabsdiff attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vabsdiff "u32.s32.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // vmin.s32.u32.s32: a zero-extended, b sign-extended, compared exactly.
  // CHECK-LABEL: llvm.func internal @vmin(
  // CHECK: %[[A:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[B:.*]] = llvm.sext %{{.*}} : i32 to i64
  // CHECK: llvm.intr.smin(%[[A]], %[[B]]) : (i64, i64) -> i64
  ptx.func @vmin attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vmin "s32.u32.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @vmax(
  // CHECK: llvm.intr.smax(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
  ptx.func @vmax attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vmax "u32.u32.u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // vshl .wrap: the shift amount modulo 32.
  // CHECK-LABEL: llvm.func internal @vshl_wrap(
  // CHECK: llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[B:.*]] = llvm.zext %{{.*}} : i32 to i64
  // CHECK: %[[C31:.*]] = llvm.mlir.constant(31 : i64) : i64
  // CHECK: %[[S:.*]] = llvm.and %[[B]], %[[C31]] : i64
  // CHECK: llvm.shl %{{.*}}, %[[S]] : i64
  ptx.func @vshl_wrap attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vshl "wrap.u32.u32.u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // vshr .clamp: the shift amount clamped to 32, an arithmetic shift of the
  // sign-extended a.
  // CHECK-LABEL: llvm.func internal @vshr_clamp(
  // CHECK: %[[A:.*]] = llvm.sext %{{.*}} : i32 to i64
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[S:.*]] = llvm.intr.umin(%{{.*}}, %[[C32]]) : (i64, i64) -> i64
  // CHECK: llvm.ashr %[[A]], %[[S]] : i64
  ptx.func @vshr_clamp attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.vshr "clamp.s32.s32.u32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // SIMD with .add: c plus the two half lanes' differences.
  // CHECK-LABEL: llvm.func internal @vabsdiff2_add(
  // CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %[[C:.*]]: i32) -> i32
  // CHECK: llvm.trunc %{{.*}} : i32 to i16
  // CHECK: %[[L0:.*]] = llvm.intr.smax
  // CHECK: %[[L1:.*]] = llvm.intr.smax
  // CHECK: %[[T0:.*]] = llvm.trunc %[[L0]] : i64 to i32
  // CHECK: %[[S:.*]] = llvm.add %[[C]], %[[T0]] : i32
  // CHECK: %[[T1:.*]] = llvm.trunc %[[L1]] : i64 to i32
  // CHECK: llvm.add %[[S]], %[[T1]] : i32
  ptx.func @vabsdiff2_add attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.vabsdiff2 "add.u32.u32.u32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // SIMD without a secondary op: four byte lanes packed back into the word.
  // CHECK-LABEL: llvm.func internal @vabsdiff4(
  // CHECK-COUNT-4: llvm.intr.smax
  // CHECK: %[[M:.*]] = llvm.mlir.constant(255 : i32) : i32
  // CHECK: llvm.and %{{.*}}, %[[M]] : i32
  // CHECK: %[[C24:.*]] = llvm.mlir.constant(24 : i32) : i32
  // CHECK: llvm.shl %{{.*}}, %[[C24]] : i32
  ptx.func @vabsdiff4 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.vabsdiff4 "u32.u32.u32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
}
