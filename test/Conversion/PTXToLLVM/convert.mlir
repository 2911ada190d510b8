// The Convert family (ConvertOpToLLVM.cpp) from ptx-dialect input: cvt
// between integers (.sat clamps to the destination), float to integer
// (.rni/.rzi rounding then a saturating conversion, NaN to 0), integer to
// float, float rounding to integral (.rmi), .sat and .ftz on floats, the
// directed roundings (.rz f64 to f32: one step on the bits), halves and
// packed halves (a to the upper half, .relu), tf32 (.rna ties away, .rn ties
// to even with NVIDIA's canonical NaN), FP8 pairs (integer emulation,
// saturating to the largest finite value); cvt.pack; mov between
// registers, packing and unpacking vectors (b128 included).
// Target-independent.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'

module {
  // CHECK-LABEL: llvm.func internal @cvt_u32_u64(
  // CHECK-SAME: %[[A:.*]]: i64) -> i32
  // CHECK: %[[R:.*]] = llvm.trunc %[[A]] : i64 to i32
  // CHECK: llvm.return %[[R]] : i32
  ptx.func @cvt_u32_u64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i64):
    %0 = ptx.cvt "u32.u64" %a : (i64) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @cvt_s64_s32(
  // CHECK: llvm.sext %{{.*}} : i32 to i64
  ptx.func @cvt_s64_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i32):
    %0 = ptx.cvt "s64.s32" %a : (i32) -> i64
    ptx.ret %0 : i64
  }
  // .sat to u8: clamped to [0, 255] in the source's signedness, then
  // truncated (the u8 in a 16-bit register, zero-extended).
  // CHECK-LABEL: llvm.func internal @cvt_sat_u8_s32(
  // CHECK-SAME: %[[A:.*]]: i32) -> i16
  // CHECK: %[[MAX:.*]] = llvm.mlir.constant(255 : i32) : i32
  // CHECK: %[[HI:.*]] = llvm.intr.smin(%[[A]], %[[MAX]]) : (i32, i32) -> i32
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[LO:.*]] = llvm.intr.smax(%[[HI]], %[[MIN]]) : (i32, i32) -> i32
  // CHECK: %[[B:.*]] = llvm.trunc %[[LO]] : i32 to i8
  // CHECK: llvm.zext %[[B]] : i8 to i16
  ptx.func @cvt_sat_u8_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b16>]} {
  ^bb0(%d: i16, %a: i32):
    %0 = ptx.cvt "sat.u8.s32" %a : (i32) -> i16
    ptx.ret %0 : i16
  }
  // Float to integer saturates (NaN gives 0) as PTX does: fptosi.sat.
  // CHECK-LABEL: llvm.func internal @cvt_rni_s32_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> i32
  // CHECK: %[[R:.*]] = llvm.intr.roundeven(%[[A]]) : (f32) -> f32
  // CHECK: llvm.call_intrinsic "llvm.fptosi.sat"(%[[R]]) : (f32) -> i32
  ptx.func @cvt_rni_s32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f32):
    %0 = ptx.cvt "rni.s32.f32" %a : (f32) -> i32
    ptx.ret %0 : i32
  }
  // .rzi is fptoui's own truncation.
  // CHECK-LABEL: llvm.func internal @cvt_rzi_u32_f64(
  // CHECK-SAME: %[[A:.*]]: f64) -> i32
  // CHECK-NOT: llvm.intr
  // CHECK: %[[R:.*]] = llvm.call_intrinsic "llvm.fptoui.sat"(%[[A]]) : (f64) -> i32
  // CHECK-NEXT: llvm.return %[[R]] : i32
  ptx.func @cvt_rzi_u32_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f64):
    %0 = ptx.cvt "rzi.u32.f64" %a : (f64) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @cvt_rn_f32_s32(
  // CHECK: llvm.sitofp %{{.*}} : i32 to f32
  ptx.func @cvt_rn_f32_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: i32):
    %0 = ptx.cvt "rn.f32.s32" %a : (i32) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @cvt_rmi_f32_f32(
  // CHECK: llvm.intr.floor(%{{.*}}) : (f32) -> f32
  ptx.func @cvt_rmi_f32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.cvt "rmi.f32.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // .sat on a float: clamped to [0, 1], NaN to 0 (the ordered compares).
  // CHECK-LABEL: llvm.func internal @cvt_sat_f32_f32(
  // CHECK-SAME: %[[A:.*]]: f32) -> f32
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
  // CHECK: %[[GT:.*]] = llvm.fcmp "ogt" %[[A]], %[[Z]] : f32
  // CHECK: %[[LO:.*]] = llvm.select %[[GT]], %[[A]], %[[Z]] : i1, f32
  // CHECK: %[[LT:.*]] = llvm.fcmp "olt" %[[LO]], %[[ONE]] : f32
  // CHECK: llvm.select %[[LT]], %[[LO]], %[[ONE]] : i1, f32
  ptx.func @cvt_sat_f32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f32):
    %0 = ptx.cvt "sat.f32.f32" %a : (f32) -> f32
    ptx.ret %0 : f32
  }
  // Halves live in 16-bit registers.
  // CHECK-LABEL: llvm.func internal @cvt_rn_f16_f32(
  // CHECK: %[[H:.*]] = llvm.fptrunc %{{.*}} : f32 to f16
  // CHECK: llvm.bitcast %[[H]] : f16 to i16
  ptx.func @cvt_rn_f16_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b16>]} {
  ^bb0(%d: i16, %a: f32):
    %0 = ptx.cvt "rn.f16.f32" %a : (f32) -> i16
    ptx.ret %0 : i16
  }
  // .ftz applies to the f32 result only: an f16 subnormal keeps its value
  // (it is normal in f32).
  // CHECK-LABEL: llvm.func internal @cvt_ftz_f32_f16(
  // CHECK: %[[H:.*]] = llvm.bitcast %{{.*}} : i16 to f16
  // CHECK: %[[F:.*]] = llvm.fpext %[[H]] : f16 to f32
  // CHECK: %[[M:.*]] = llvm.intr.fabs(%[[F]]) : (f32) -> f32
  // CHECK: llvm.mlir.constant(1.17549435E-38 : f32) : f32
  // CHECK-NOT: 6.1035156E-5
  ptx.func @cvt_ftz_f32_f16 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b16>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: i16):
    %0 = ptx.cvt "ftz.f32.f16" %a : (i16) -> f32
    ptx.ret %0 : f32
  }
  // CHECK-LABEL: llvm.func internal @cvt_f64_f32(
  // CHECK: llvm.fpext %{{.*}} : f32 to f64
  ptx.func @cvt_f64_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = f64>]} {
  ^bb0(%d: f64, %a: f32):
    %0 = ptx.cvt "f64.f32" %a : (f32) -> f64
    ptx.ret %0 : f64
  }
  // Directed f64 to f32: the nearest f32, compared with the exact value,
  // moved one step on its bits towards zero.
  // CHECK-LABEL: llvm.func internal @cvt_rz_f32_f64(
  // CHECK-SAME: %[[A:.*]]: f64) -> f32
  // CHECK: %[[C:.*]] = llvm.fptrunc %[[A]] : f64 to f32
  // CHECK: %[[CD:.*]] = llvm.fpext %[[C]] : f32 to f64
  // CHECK: llvm.fcmp "ogt" %[[A]], %[[CD]] : f64
  // CHECK: llvm.fcmp "olt" %[[A]], %[[CD]] : f64
  // CHECK: %[[BITS:.*]] = llvm.bitcast %[[C]] : f32 to i32
  // CHECK: llvm.sub %[[BITS]], %{{.*}} : i32
  // CHECK: llvm.add %[[BITS]], %{{.*}} : i32
  // CHECK: %[[R:.*]] = llvm.bitcast %{{.*}} : i32 to f32
  // CHECK: llvm.return %[[R]] : f32
  ptx.func @cvt_rz_f32_f64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f64>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: f64):
    %0 = ptx.cvt "rz.f32.f64" %a : (f64) -> f32
    ptx.ret %0 : f32
  }
  // cvt.rn.f16x2.f32 d, a, b: a in the upper half, b in the lower.
  // CHECK-LABEL: llvm.func internal @cvt_rn_f16x2_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> i32
  // CHECK: %[[HA:.*]] = llvm.fptrunc %[[A]] : f32 to f16
  // CHECK: %[[HB:.*]] = llvm.fptrunc %[[B]] : f32 to f16
  // CHECK: %[[IA:.*]] = llvm.bitcast %[[HA]] : f16 to i16
  // CHECK: %[[WA:.*]] = llvm.zext %[[IA]] : i16 to i32
  // CHECK: %[[IB:.*]] = llvm.bitcast %[[HB]] : f16 to i16
  // CHECK: %[[WB:.*]] = llvm.zext %[[IB]] : i16 to i32
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: %[[UP:.*]] = llvm.shl %[[WA]], %[[C16]] : i32
  // CHECK: llvm.or %[[UP]], %[[WB]] : i32
  ptx.func @cvt_rn_f16x2_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f32, %b: f32):
    %0 = ptx.cvt "rn.f16x2.f32" %a, %b : (f32, f32) -> i32
    ptx.ret %0 : i32
  }
  // .relu per half: <= 0 (-0 included) gives +0, NaN the canonical 0x7fff.
  // CHECK-LABEL: llvm.func internal @cvt_rn_relu_bf16x2_f32(
  // CHECK: %[[H:.*]] = llvm.fptrunc %{{.*}} : f32 to bf16
  // CHECK: llvm.fptrunc %{{.*}} : f32 to bf16
  // CHECK: %[[Z:.*]] = llvm.bitcast %{{.*}} : i16 to bf16
  // CHECK: %[[LE:.*]] = llvm.fcmp "ole" %[[H]], %[[Z]] : bf16
  // CHECK: %[[R:.*]] = llvm.select %[[LE]], %[[Z]], %[[H]] : i1, bf16
  // CHECK: llvm.fcmp "uno" %[[R]], %[[R]] : bf16
  // CHECK: llvm.mlir.constant(32767 : i16) : i16
  // CHECK: llvm.fcmp "ole"
  ptx.func @cvt_rn_relu_bf16x2_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f32, %b: f32):
    %0 = ptx.cvt "rn.relu.bf16x2.f32" %a, %b : (f32, f32) -> i32
    ptx.ret %0 : i32
  }
  // .rna: add half an ulp of tf32 and truncate to 10 mantissa bits;
  // infinities and NaNs are truncated (NVIDIA masks a NaN's payload).
  // CHECK-LABEL: llvm.func internal @cvt_rna_tf32_f32(
  // CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: %[[HALF:.*]] = llvm.mlir.constant(4096 : i32) : i32
  // CHECK: %[[UP:.*]] = llvm.add %[[BITS]], %[[HALF]] : i32
  // CHECK: %[[MASK:.*]] = llvm.mlir.constant(-8192 : i32) : i32
  // CHECK: %[[RND:.*]] = llvm.and %[[UP]], %[[MASK]] : i32
  // CHECK: %[[EXP:.*]] = llvm.mlir.constant(2139095040 : i32) : i32
  // CHECK: %[[E:.*]] = llvm.and %[[BITS]], %[[EXP]] : i32
  // CHECK: %[[SPECIAL:.*]] = llvm.icmp "eq" %[[E]], %{{.*}} : i32
  // CHECK: %[[TRUNC:.*]] = llvm.and %[[BITS]], %{{.*}} : i32
  // CHECK: llvm.select %[[SPECIAL]], %[[TRUNC]], %[[RND]] : i1, i32
  ptx.func @cvt_rna_tf32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f32):
    %0 = ptx.cvt "rna.tf32.f32" %a : (f32) -> i32
    ptx.ret %0 : i32
  }
  // .rn: ties to even (0xfff plus the kept lsb), every NaN the canonical
  // 0x7fffe000.
  // CHECK-LABEL: llvm.func internal @cvt_rn_tf32_f32(
  // CHECK: %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // CHECK: %[[C13:.*]] = llvm.mlir.constant(13 : i32) : i32
  // CHECK: %[[LSB:.*]] = llvm.lshr %[[BITS]], %[[C13]] : i32
  // CHECK: %[[NAN:.*]] = llvm.icmp "ugt" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[CANON:.*]] = llvm.mlir.constant(2147475456 : i32) : i32
  // CHECK: llvm.select %[[NAN]], %[[CANON]], %{{.*}} : i1, i32
  ptx.func @cvt_rn_tf32_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: f32):
    %0 = ptx.cvt "rn.tf32.f32" %a : (f32) -> i32
    ptx.ret %0 : i32
  }
  // FP8 pairs from integer operations: rounded to nearest even (roundeven
  // for the subnormal range), the largest finite 0x7e on overflow, NaN
  // 0x7f; a in the upper byte.
  // CHECK-LABEL: llvm.func internal @cvt_e4m3x2_f32(
  // CHECK-SAME: %[[A:.*]]: f32, %[[B:.*]]: f32) -> i16
  // CHECK: llvm.bitcast %[[A]] : f32 to i32
  // CHECK: llvm.mlir.constant(5.120000e+02 : f32) : f32
  // CHECK: llvm.intr.roundeven
  // CHECK: %[[MAXF:.*]] = llvm.mlir.constant(126 : i32) : i32
  // CHECK: %[[NAN:.*]] = llvm.mlir.constant(127 : i32) : i32
  // CHECK: %[[HIB:.*]] = llvm.select %{{.*}}, %[[NAN]], %{{.*}} : i1, i32
  // CHECK: llvm.bitcast %[[B]] : f32 to i32
  // CHECK: %[[C8:.*]] = llvm.mlir.constant(8 : i32) : i32
  // CHECK-NEXT: %[[UP:.*]] = llvm.shl %[[HIB]], %[[C8]] : i32
  // CHECK-NEXT: %[[P:.*]] = llvm.or %[[UP]], %{{.*}} : i32
  // CHECK-NEXT: llvm.trunc %[[P]] : i32 to i16
  ptx.func @cvt_e4m3x2_f32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = [#ptx.param<name = "d", space = reg, type = b16>]} {
  ^bb0(%d: i16, %a: f32, %b: f32):
    %0 = ptx.cvt "rn.satfinite.e4m3x2.f32" %a, %b : (f32, f32) -> i16
    ptx.ret %0 : i16
  }
  // e5m2 to f16 is exact (the byte is the f16's upper byte); any NaN gives
  // the canonical 0x7fff; the upper byte to the upper half.
  // CHECK-LABEL: llvm.func internal @cvt_f16x2_e5m2x2(
  // CHECK: %[[C127:.*]] = llvm.mlir.constant(127 : i32) : i32
  // CHECK: %[[MAG:.*]] = llvm.and %{{.*}}, %[[C127]] : i32
  // CHECK: %[[INF:.*]] = llvm.mlir.constant(124 : i32) : i32
  // CHECK: %[[NAN:.*]] = llvm.icmp "ugt" %[[MAG]], %[[INF]] : i32
  // CHECK: %[[CANON:.*]] = llvm.mlir.constant(32767 : i32) : i32
  // CHECK: llvm.select %[[NAN]], %[[CANON]], %{{.*}} : i1, i32
  // CHECK: %[[HI:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, i32
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: llvm.shl %[[HI]], %[[C16]] : i32
  ptx.func @cvt_f16x2_e5m2x2 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b16>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i16):
    %0 = ptx.cvt "rn.f16x2.e5m2x2" %a : (i16) -> i32
    ptx.ret %0 : i32
  }
  // cvt.pack.sat.s16.s32 d, a, b: each saturated, a in the upper half.
  // CHECK-LABEL: llvm.func internal @cvt_pack_s16(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[MIN:.*]] = llvm.mlir.constant(-32768 : i32) : i32
  // CHECK: %[[A1:.*]] = llvm.intr.smax(%[[A]], %[[MIN]]) : (i32, i32) -> i32
  // CHECK: %[[MAX:.*]] = llvm.mlir.constant(32767 : i32) : i32
  // CHECK: %[[A2:.*]] = llvm.intr.smin(%[[A1]], %[[MAX]]) : (i32, i32) -> i32
  // CHECK: %[[A3:.*]] = llvm.and %[[A2]], %{{.*}} : i32
  // CHECK: %[[AU:.*]] = llvm.shl %[[A3]], %{{.*}} : i32
  // CHECK: llvm.intr.smax(%[[B]], %{{.*}}) : (i32, i32) -> i32
  // CHECK: %[[B3:.*]] = llvm.and %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.or %[[AU]], %[[B3]] : i32
  ptx.func @cvt_pack_s16 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.cvt.pack "sat.s16.s32" %a, %b : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // With c: its low bits above both bytes.
  // CHECK-LABEL: llvm.func internal @cvt_pack_u8(
  // CHECK-SAME: %{{.*}}: i32, %{{.*}}: i32, %[[C:.*]]: i32) -> i32
  // CHECK: %[[AB:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
  // CHECK: %[[C16:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: %[[CU:.*]] = llvm.shl %[[C]], %[[C16]] : i32
  // CHECK: llvm.or %[[AB]], %[[CU]] : i32
  ptx.func @cvt_pack_u8 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32, %c: i32):
    %0 = ptx.cvt.pack "sat.u8.s32.b32" %a, %b, %c : (i32, i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // mov between a b32 and an f32 register is a bitcast.
  // CHECK-LABEL: llvm.func internal @mov_b32(
  // CHECK-SAME: %[[A:.*]]: i32) -> f32
  // CHECK: %[[R:.*]] = llvm.bitcast %[[A]] : i32 to f32
  // CHECK: llvm.return %[[R]] : f32
  ptx.func @mov_b32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %a: i32):
    %0 = ptx.mov "b32" %a : (i32) -> f32
    ptx.ret %0 : f32
  }
  // mov.b64 d, {a, b}: the first element is the low half.
  // CHECK-LABEL: llvm.func internal @mov_pack_b64(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i64
  // CHECK: llvm.zext %[[A]] : i32 to i64
  // CHECK: %[[WB:.*]] = llvm.zext %[[B]] : i32 to i64
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: llvm.shl %[[WB]], %[[C32]] : i64
  ptx.func @mov_pack_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %a: i32, %b: i32):
    %0 = ptx.mov "b64" %a, %b {groups = array<i32: 2>} : (i32, i32) -> i64
    ptx.ret %0 : i64
  }
  // CHECK-LABEL: llvm.func internal @mov_unpack_b64(
  // CHECK-SAME: %[[A:.*]]: i64) -> !llvm.struct<(i32, i32)>
  // CHECK: %[[LO:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: %[[H:.*]] = llvm.lshr %[[A]], %[[C32]] : i64
  // CHECK: %[[HI:.*]] = llvm.trunc %[[H]] : i64 to i32
  // CHECK: llvm.insertvalue %[[LO]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[HI]], %{{.*}}[1]
  ptx.func @mov_unpack_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "e", space = reg, type = b32>]} {
  ^bb0(%d: i32, %e: i32, %a: i64):
    %0:2 = ptx.mov "b64" %a : (i64) -> (i32, i32)
    ptx.ret %0#0, %0#1 : i32, i32
  }
  // 128-bit registers pack and unpack two 64-bit halves (the first low).
  // CHECK-LABEL: llvm.func internal @mov_b128(
  // CHECK-SAME: %[[A:.*]]: i64, %[[B:.*]]: i64) -> !llvm.struct<(i64, i64)>
  // CHECK: llvm.zext %[[A]] : i64 to i128
  // CHECK: %[[WB:.*]] = llvm.zext %[[B]] : i64 to i128
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i128) : i128
  // CHECK: llvm.shl %[[WB]], %[[C64]] : i128
  // CHECK: %[[Q:.*]] = llvm.or %{{.*}}, %{{.*}} : i128
  // CHECK: llvm.trunc %{{.*}} : i128 to i64
  // CHECK: llvm.lshr %[[Q]], %{{.*}} : i128
  // CHECK: llvm.trunc %{{.*}} : i128 to i64
  ptx.func @mov_b128 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>,
                #ptx.param<name = "b", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>,
                 #ptx.param<name = "e", space = reg, type = b64>]} {
  ^bb0(%d: i64, %e: i64, %a: i64, %b: i64):
    %0 = ptx.mov "b128" %a, %b {groups = array<i32: 2>} : (i64, i64) -> i128
    %1:2 = ptx.mov "b128" %0 : (i128) -> (i64, i64)
    ptx.ret %1#0, %1#1 : i64, i64
  }
}
