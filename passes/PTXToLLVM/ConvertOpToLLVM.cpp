//===- ConvertOpToLLVM.cpp - Conversions and moves ------------------------===//
//
// cvt between every pair of integer and float types with PTX's rounding,
// saturation, .ftz and .relu (directed modes through DirectedRounding),
// tf32 and the FP8 pairs; cvt.pack; mov, packing and unpacking
// (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// The FP8 conversions lowered: to an e4m3x2/e5m2x2 pair from two f32 or
/// an f16x2 with .rn.satfinite, and from a pair to f16x2 with .rn; each
/// with or without .relu.
bool isFp8Convert(ModifiersAttr mods) {
  if (!mods || mods.getTypes().size() != 2 ||
      mods.getRounding() != RoundingMode::rn)
    return false;
  TypeKind d = *mods.getType(0), s = *mods.getType(1);
  auto fp8 = [](TypeKind k) {
    return k == TypeKind::e4m3x2 || k == TypeKind::e5m2x2;
  };
  if (fp8(d) && (s == TypeKind::f32 || s == TypeKind::f16x2))
    return hasFlag(mods, Flag::satfinite);
  return d == TypeKind::f16x2 && fp8(s) && !hasFlag(mods, Flag::satfinite);
}

template <typename OpTy>
Results lowerMov(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  // The address of a device function's parameter is a `.local` address (the
  // PTX ISA: the parameter is copied to the stack; LLVM's NVPTX back end
  // then `cvta.local`s it or uses `ld.local` on it), not a generic one.
  if (l.state.localParamAddresses.contains(op.getOperation())) {
    Value local = LLVM::AddrSpaceCastOp::create(
        b, loc,
        LLVM::LLVMPointerType::get(b.getContext(),
                                   l.target.getAddressSpace(StateSpace::local)),
        args[0]);
    return one(castTo(b, loc, local, op->getResult(0).getType()));
  }
  // Pack `{a, b}` into one register, unpack one into `{a, b}`, or move.
  if (args.size() == 1 && op->getNumResults() == 1)
    return one(castTo(b, loc, args[0], op->getResult(0).getType()));
  if (op->getNumResults() == 1) {
    Type rt = op->getResult(0).getType();
    unsigned total = bitWidth(rt), part = total / args.size();
    Type it = b.getIntegerType(total);
    Value acc = constInt(b, loc, it, 0);
    for (auto [i, a] : llvm::enumerate(args)) {
      Value bits =
          castTo(b, loc, castTo(b, loc, a, b.getIntegerType(part)), it);
      Value sh =
          LLVM::ShlOp::create(b, loc, bits, constInt(b, loc, it, i * part));
      acc = LLVM::OrOp::create(b, loc, acc, sh);
    }
    return one(castTo(b, loc, acc, rt));
  }
  Value src = args[0];
  unsigned total = bitWidth(src.getType());
  unsigned part = total / op->getNumResults();
  Type it = b.getIntegerType(total);
  Value bits = castTo(b, loc, src, it);
  SmallVector<Value> results;
  for (unsigned i = 0; i < op->getNumResults(); ++i) {
    Value sh =
        LLVM::LShrOp::create(b, loc, bits, constInt(b, loc, it, i * part));
    Value p = LLVM::TruncOp::create(b, loc, b.getIntegerType(part), sh);
    results.push_back(castTo(b, loc, p, op->getResult(i).getType()));
  }
  return results;
}

/// cvt.sat between integers: `x` (signed if `fromSigned`) clamped to the
/// range of a `toWidth`-bit integer (signed if `toSigned`), in x's type.
Value clampToIntType(OpBuilder &b, Location loc, Value x, bool fromSigned,
                     unsigned toWidth, bool toSigned) {
  Type t = x.getType();
  unsigned w = bitWidth(t);
  llvm::APInt hi = toSigned ? llvm::APInt::getSignedMaxValue(toWidth)
                            : llvm::APInt::getMaxValue(toWidth);
  // Bounds outside x's range clamp nothing.
  if (hi.getActiveBits() < w) {
    Value h = LLVM::ConstantOp::create(b, loc, t,
                                       b.getIntegerAttr(t, hi.zextOrTrunc(w)));
    x = fromSigned ? Value(LLVM::SMinOp::create(b, loc, x, h))
                   : Value(LLVM::UMinOp::create(b, loc, x, h));
  }
  if (fromSigned) {
    llvm::APInt lo = toSigned ? llvm::APInt::getSignedMinValue(toWidth)
                              : llvm::APInt::getZero(toWidth);
    if (lo.getSignificantBits() <= w)
      x = LLVM::SMaxOp::create(
          b, loc, x,
          LLVM::ConstantOp::create(b, loc, t,
                                   b.getIntegerAttr(t, lo.sextOrTrunc(w))));
  }
  return x;
}

/// FP8 formats (OCP): e4m3 (bias 7, no infinities, S.1111.111 is NaN, max
/// 448) and e5m2 (bias 15, IEEE-like, max 57344).
struct Fp8Format {
  unsigned mantBits, bias;
  unsigned maxExpField; ///< the largest exponent field of finite values
  uint32_t maxCode;     ///< the largest finite magnitude's code
  uint32_t nanCode;
};

constexpr Fp8Format e4m3Format{3, 7, 15, 0x7e, 0x7f};

constexpr Fp8Format e5m2Format{2, 15, 30, 0x7b, 0x7f};

/// One f32 to an FP8 code (i32 holding the byte), rounding to nearest even
/// and saturating to the largest finite value (.satfinite, infinities too);
/// NaN gives the format's positive NaN (0x7f), as NVIDIA does.
Value f32ToFp8(OpBuilder &b, Location loc, Value x, const Fp8Format &f) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  Value bits = castTo(b, loc, x, i32);
  Value sign = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, bits, c(24)), c(0x80));
  Value mag = LLVM::AndOp::create(b, loc, bits, c(0x7fffffff));
  // Normal codes: the f32 bits rebased to the FP8 exponent, rounded to
  // nearest even at the FP8 mantissa (a carry moves into the exponent).
  unsigned shift = 23 - f.mantBits;
  Value rebased =
      LLVM::SubOp::create(b, loc, mag, c(int64_t(127 - f.bias) << 23));
  Value half = c(int64_t(1) << (shift - 1));
  Value odd = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, rebased, c(shift)), c(1));
  Value rounded = LLVM::AddOp::create(
      b, loc, rebased,
      LLVM::SubOp::create(b, loc, LLVM::AddOp::create(b, loc, half, odd),
                          c(1)));
  Value normal = LLVM::LShrOp::create(b, loc, rounded, c(shift));
  // Subnormal codes (below the smallest normal): the magnitude in units of
  // the smallest subnormal, rounded to nearest even (exact in f32).
  double unit = std::ldexp(1.0, int(f.bias) - 1 + int(f.mantBits));
  Value scaled = LLVM::FMulOp::create(b, loc, castTo(b, loc, mag, f32),
                                      constFloat(b, loc, f32, unit));
  Value sub = LLVM::FPToUIOp::create(b, loc, i32,
                                     LLVM::RoundEvenOp::create(b, loc, scaled));
  Value minNormal = c(int64_t(128 - f.bias) << 23); // 2^(1-bias) as f32 bits
  Value isSub =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, mag, minNormal);
  Value code = LLVM::SelectOp::create(b, loc, isSub, sub, normal);
  // Too large (rounding past the largest finite, or beyond the format's
  // exponents, or infinite): the largest finite value.
  Value maxF32 = c(0x7f800000);
  Value huge = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::uge, mag,
      c(int64_t(f.maxExpField - f.bias + 1 + 127) << 23)); // past every code
  Value big =
      LLVM::OrOp::create(b, loc, huge,
                         LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt,
                                              code, c(f.maxCode)));
  code = LLVM::SelectOp::create(b, loc, big, c(f.maxCode), code);
  Value isNaN =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, mag, maxF32);
  return LLVM::SelectOp::create(b, loc, isNaN, c(f.nanCode),
                                LLVM::OrOp::create(b, loc, code, sign));
}

/// One FP8 code (i32 holding the byte) to f16 bits (i32), exactly; any NaN
/// gives f16's canonical NaN 0x7fff (sign and payload dropped, as NVIDIA
/// does).
Value fp8ToF16(OpBuilder &b, Location loc, Value code, const Fp8Format &f) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  Value sign = LLVM::ShlOp::create(
      b, loc, LLVM::AndOp::create(b, loc, code, c(0x80)), c(8));
  Value mag = LLVM::AndOp::create(b, loc, code, c(0x7f));
  if (f.mantBits == 2) {
    // e5m2 is the upper byte of an f16 (infinities included); a NaN gives
    // the canonical one.
    Value isNaN =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, mag, c(0x7c));
    return LLVM::SelectOp::create(
        b, loc, isNaN, c(0x7fff),
        LLVM::OrOp::create(b, loc, sign,
                           LLVM::ShlOp::create(b, loc, mag, c(8))));
  }
  // e4m3: the value (mag as exponent|mantissa) times 2^(1-bias-mantBits)
  // for subnormals, or rebased bits for normals, through f32 (exact).
  Value expField = LLVM::LShrOp::create(b, loc, mag, c(f.mantBits));
  Value normalBits = LLVM::ShlOp::create(
      b, loc,
      LLVM::AddOp::create(b, loc, mag, c(int64_t(127 - f.bias) << f.mantBits)),
      c(23 - f.mantBits));
  double unit = std::ldexp(1.0, 1 - int(f.bias) - int(f.mantBits));
  Value subValue =
      LLVM::FMulOp::create(b, loc, LLVM::UIToFPOp::create(b, loc, f32, mag),
                           constFloat(b, loc, f32, unit));
  Value isSub =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, expField, c(0));
  Value value = LLVM::SelectOp::create(b, loc, isSub, subValue,
                                       castTo(b, loc, normalBits, f32));
  Value h =
      castTo(b, loc, LLVM::FPTruncOp::create(b, loc, b.getF16Type(), value),
             b.getIntegerType(16));
  Value bits = LLVM::ZExtOp::create(b, loc, i32, h);
  Value isNaN =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, mag, c(f.nanCode));
  bits = LLVM::SelectOp::create(b, loc, isNaN, c(0x7fff), bits);
  return LLVM::SelectOp::create(b, loc, isNaN, bits,
                                LLVM::OrOp::create(b, loc, bits, sign));
}

/// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper
/// byte, b to the lower), the same from one f16x2 (its upper half to the
/// upper byte; an f16 is exact in f32, so converting through f32 rounds
/// once), and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (each byte to the
/// f16 half in the same place). `.relu`: negative values and -0 give +0,
/// NaN stays the canonical NaN.
Value lowerFp8Pair(OpBuilder &b, Location loc, TypeKind dk, TypeKind sk,
                   ValueRange args, bool relu) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  if (dk == TypeKind::e4m3x2 || dk == TypeKind::e5m2x2) {
    const Fp8Format &f = dk == TypeKind::e4m3x2 ? e4m3Format : e5m2Format;
    Value a, bv;
    if (sk == TypeKind::f16x2) {
      Value pair = castTo(b, loc, args[0], i32);
      auto half = [&](Value bits) {
        return LLVM::FPExtOp::create(
            b, loc, f32,
            LLVM::BitcastOp::create(
                b, loc, b.getF16Type(),
                LLVM::TruncOp::create(b, loc, b.getIntegerType(16), bits)));
      };
      a = half(LLVM::LShrOp::create(b, loc, pair, c(16)));
      bv = half(pair);
    } else {
      a = castTo(b, loc, args[0], f32);
      bv = castTo(b, loc, args[1], f32);
    }
    if (relu) {
      a = floatRelu(b, loc, a);
      bv = floatRelu(b, loc, bv);
    }
    Value hi = f32ToFp8(b, loc, a, f);
    Value lo = f32ToFp8(b, loc, bv, f);
    Value pair =
        LLVM::OrOp::create(b, loc, LLVM::ShlOp::create(b, loc, hi, c(8)), lo);
    return LLVM::TruncOp::create(b, loc, b.getIntegerType(16), pair);
  }
  const Fp8Format &f = sk == TypeKind::e4m3x2 ? e4m3Format : e5m2Format;
  Value pair = LLVM::ZExtOp::create(
      b, loc, i32, castTo(b, loc, args[0], b.getIntegerType(16)));
  auto code = [&](Value byte) -> Value {
    if (!relu)
      return byte;
    // A negative code (sign bit, not NaN) is +0. The largest magnitude
    // that is a number: e5m2's infinity, e4m3's largest finite value.
    int64_t lastNumber = f.mantBits == 2 ? f.maxCode + 1 : f.maxCode;
    Value negative = LLVM::AndOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, byte, c(0x80)),
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule,
                             LLVM::AndOp::create(b, loc, byte, c(0x7f)),
                             c(lastNumber)));
    return LLVM::SelectOp::create(b, loc, negative, c(0), byte);
  };
  Value lo =
      fp8ToF16(b, loc, code(LLVM::AndOp::create(b, loc, pair, c(0xff))), f);
  Value hi =
      fp8ToF16(b, loc, code(LLVM::LShrOp::create(b, loc, pair, c(8))), f);
  return LLVM::OrOp::create(b, loc, LLVM::ShlOp::create(b, loc, hi, c(16)), lo);
}

template <typename OpTy>
Results lowerCvt(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  TypeKind dk = *mods.getType(0), sk = *mods.getType(1);
  Type dt = semanticType(op.getContext(), dk),
       st = semanticType(op.getContext(), sk);
  bool ftz = hasFlag(mods, Flag::ftz);
  if (sk == TypeKind::e4m3x2 || sk == TypeKind::e5m2x2 ||
      dk == TypeKind::e4m3x2 || dk == TypeKind::e5m2x2)
    return one(castTo(
        b, loc, lowerFp8Pair(b, loc, dk, sk, args, hasFlag(mods, Flag::relu)),
        op->getResult(0).getType()));
  if (auto vt = dyn_cast<VectorType>(dt)) {
    // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower.
    Type et = vt.getElementType();
    Value hi = LLVM::FPTruncOp::create(b, loc, et, castTo(b, loc, args[0], st));
    Value lo = LLVM::FPTruncOp::create(b, loc, et, castTo(b, loc, args[1], st));
    if (hasFlag(mods, Flag::relu)) {
      hi = floatRelu(b, loc, hi);
      lo = floatRelu(b, loc, lo);
    }
    Type i16 = b.getIntegerType(16), i32 = b.getI32Type();
    Value h = LLVM::ZExtOp::create(b, loc, i32, castTo(b, loc, hi, i16));
    Value l = LLVM::ZExtOp::create(b, loc, i32, castTo(b, loc, lo, i16));
    Value packed = LLVM::OrOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, h, constInt(b, loc, i32, 16)), l);
    return one(castTo(b, loc, packed, op->getResult(0).getType()));
  }
  if (dk == TypeKind::tf32) {
    // cvt.rna.tf32.f32: round the magnitude to 10 mantissa bits, ties away
    // from zero, as an f32 bit pattern; NaN and infinity are truncated
    // (NVIDIA turns 0x7fffffff into 0x7fffe000: measured).
    // cvt.rn.tf32.f32 (sm_90) rounds ties to even instead: 0xfff plus the
    // kept part's lowest bit; every NaN gives the canonical 0x7fffe000
    // (measured on the H200 over all 2^32 inputs).
    if (Value native = l.target.createTf32Conversion(
            b, loc, castTo(b, loc, args[0], b.getF32Type()),
            *mods.getRounding()))
      return one(castTo(b, loc, native, op->getResult(0).getType()));
    Type i32 = b.getI32Type();
    Value x = castTo(b, loc, args[0], i32);
    Value increment = constInt(b, loc, i32, 0x1000);
    if (mods.getRounding() == RoundingMode::rn)
      increment = LLVM::AddOp::create(
          b, loc, constInt(b, loc, i32, 0xfff),
          LLVM::AndOp::create(
              b, loc,
              LLVM::LShrOp::create(b, loc, x, constInt(b, loc, i32, 13)),
              constInt(b, loc, i32, 1)));
    Value rounded = LLVM::AndOp::create(
        b, loc, LLVM::AddOp::create(b, loc, x, increment),
        constInt(b, loc, i32, static_cast<int32_t>(0xffffe000u)));
    Value expAll = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::eq,
        LLVM::AndOp::create(b, loc, x, constInt(b, loc, i32, 0x7f800000)),
        constInt(b, loc, i32, 0x7f800000));
    Value truncated = LLVM::AndOp::create(
        b, loc, x, constInt(b, loc, i32, static_cast<int32_t>(0xffffe000u)));
    Value r = LLVM::SelectOp::create(b, loc, expAll, truncated, rounded);
    if (mods.getRounding() == RoundingMode::rn)
      r = LLVM::SelectOp::create(
          b, loc,
          LLVM::ICmpOp::create(
              b, loc, LLVM::ICmpPredicate::ugt,
              LLVM::AndOp::create(b, loc, x, constInt(b, loc, i32, INT32_MAX)),
              constInt(b, loc, i32, 0x7f800000)),
          constInt(b, loc, i32, 0x7fffe000), r);
    return one(castTo(b, loc, r, op->getResult(0).getType()));
  }
  Value x = castTo(b, loc, args[0], st, isSignedIntType(sk));
  // cvt's .ftz flushes f32 sources and results only: an f16 subnormal
  // converts to its f32 value (measured over all f16 inputs on the H200).
  if (st.isF32() && ftz)
    x = flushDenormal(b, loc, x);
  Value r;
  std::optional<RoundingMode> rnd = mods.getRounding();
  if (isFloatType(sk) && isFloatType(dk)) {
    if (bitWidth(dt) > bitWidth(st))
      r = LLVM::FPExtOp::create(b, loc, dt, x);
    else if (bitWidth(dt) < bitWidth(st))
      r = directedMode(rnd)
              ? directedConvert(b, loc, x, false, dt, *directedMode(rnd))
              : Value(LLVM::FPTruncOp::create(b, loc, dt, x)); // nearest even
    else if (rnd == RoundingMode::rni)
      r = LLVM::RoundEvenOp::create(b, loc, x);
    else if (rnd == RoundingMode::rzi)
      r = LLVM::FTruncOp::create(b, loc, x);
    else if (rnd == RoundingMode::rmi)
      r = LLVM::FFloorOp::create(b, loc, x);
    else if (rnd == RoundingMode::rpi)
      r = LLVM::FCeilOp::create(b, loc, x);
    else
      r = x;
    if (ftz && dt.isF32())
      r = flushDenormal(b, loc, r);
  } else if (isFloatType(sk)) {
    // Float to integer rounds as asked and saturates; NaN gives 0.
    Value rounded = x;
    if (rnd == RoundingMode::rni)
      rounded = LLVM::RoundEvenOp::create(b, loc, x);
    else if (rnd == RoundingMode::rmi)
      rounded = LLVM::FFloorOp::create(b, loc, x);
    else if (rnd == RoundingMode::rpi)
      rounded = LLVM::FCeilOp::create(b, loc, x);
    bool s = isSignedIntType(dk);
    StringRef intr = s ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    r = LLVM::CallIntrinsicOp::create(b, loc, dt, b.getStringAttr(intr),
                                      ValueRange{rounded})
            .getResult(0);
  } else if (isFloatType(dk)) {
    // Integer to float: round to nearest even (the default .rn) or as asked.
    if (std::optional<Directed> d = directedMode(rnd))
      r = directedConvert(b, loc, x, isSignedIntType(sk), dt, *d);
    else
      r = isSignedIntType(sk) ? Value(LLVM::SIToFPOp::create(b, loc, dt, x))
                              : Value(LLVM::UIToFPOp::create(b, loc, dt, x));
  } else {
    unsigned dw = bitWidth(dt), sw = bitWidth(st);
    if (hasFlag(mods, Flag::sat))
      x = clampToIntType(b, loc, x, isSignedIntType(sk), dw,
                         isSignedIntType(dk));
    r = dw == sw              ? x
        : dw < sw             ? Value(LLVM::TruncOp::create(b, loc, dt, x))
        : isSignedIntType(sk) ? Value(LLVM::SExtOp::create(b, loc, dt, x))
                              : Value(LLVM::ZExtOp::create(b, loc, dt, x));
  }
  if (isFloatType(dk) && hasFlag(mods, Flag::sat))
    r = saturate(b, loc, r);
  if (isFloatType(dk) && hasFlag(mods, Flag::relu))
    r = floatRelu(b, loc, r);
  return one(
      castTo(b, loc, r, op->getResult(0).getType(), isSignedIntType(dk)));
}

/// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u4,s4,u8,s8}.s32.b32
/// d, a, b, c: a and b saturated to the narrow type, b in the low `size`
/// bits, a above it, and (three operands) c's low bits above both.
template <typename OpTy>
Results lowerCvtPack(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  TypeKind to = *mods.getType(0);
  unsigned size = getTypeBitWidth(to);
  bool s = isSignedIntType(to);
  int64_t lo = s ? -(int64_t(1) << (size - 1)) : 0;
  int64_t hi = s ? (int64_t(1) << (size - 1)) - 1 : (int64_t(1) << size) - 1;
  auto sat = [&](Value v) -> Value {
    v = LLVM::SMaxOp::create(b, loc, castTo(b, loc, v, i32), c(lo));
    v = LLVM::SMinOp::create(b, loc, v, c(hi));
    return LLVM::AndOp::create(b, loc, v, c((int64_t(1) << size) - 1));
  };
  Value d = LLVM::OrOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, sat(args[0]), c(size)), sat(args[1]));
  if (args.size() == 3)
    d = LLVM::OrOp::create(
        b, loc, d,
        LLVM::ShlOp::create(b, loc, castTo(b, loc, args[2], i32), c(2 * size)));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// 128-bit moves (packing and unpacking).
std::string checkMov(Operation *op, const TargetInfo &) {
  ModifierPolicy p;
  p.b128 = true;
  return checkModifiers(op, p);
}

std::string checkCvt(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  if (!mods)
    return "";
  auto has = [&](Flag f) { return hasFlag(mods, f); };
  std::optional<RoundingMode> rnd = mods.getRounding();
  ModifierPolicy p;
  p.anyRounding = true;
  p.relu = true;
  p.packedHalves = true;
  // tf32 only as the target of cvt.rna and cvt.rn; FP8 pairs:
  // cvt.rn.satfinite.{e4m3x2,e5m2x2}.{f32,f16x2} and
  // cvt.rn.f16x2.{e4m3x2,e5m2x2}.
  p.tf32 = (rnd == RoundingMode::rna || rnd == RoundingMode::rn) &&
           !has(Flag::relu) && !has(Flag::satfinite);
  p.fp8Pairs = isFp8Convert(mods);
  return checkModifiers(op, p, [&](ModifiersAttr) -> std::optional<StringRef> {
    if (rnd == RoundingMode::rna && mods.getType() != TypeKind::tf32)
      return "";
    Type dt = semanticType(op->getContext(), *mods.getType(0)),
         st = semanticType(op->getContext(), *mods.getType(1));
    // .relu: f16/bf16 (and pairs) from f32, and the FP8 pairs' conversions.
    bool reluOk = (st.isF32() && (getElementTypeOrSelf(dt).isF16() ||
                                  getElementTypeOrSelf(dt).isBF16())) ||
                  isFp8Convert(mods);
    if ((has(Flag::relu) && !reluOk) ||
        (has(Flag::satfinite) && !isFp8Convert(mods)) ||
        rnd == RoundingMode::rs || (has(Flag::sat) && isa<VectorType>(dt)) ||
        (directedMode(rnd) && !hasDirectedConvert(st, dt)))
      return "";
    return std::nullopt;
  });
}

} // namespace

void zluda::ptx::lowering::populateConvertPatterns(TypeConverter &converter,
                                                   RewritePatternSet &patterns,
                                                   const TargetInfo &target,
                                                   LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerCvt<CvtOp>, checkCvt);
  add(lowerCvtPack<CvtPackOp>);
  add(lowerMov<MovOp>, checkMov);
}
