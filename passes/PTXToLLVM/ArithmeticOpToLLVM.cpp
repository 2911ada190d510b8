//===- ArithmeticOpToLLVM.cpp - Integer and float arithmetic --------------===//
//
// add, sub, mul, mad, fma, div, rem, neg, abs, min, max and the float math
// functions (rcp, sqrt, rsqrt, sin, cos, ex2, lg2, tanh, copysign) with
// PTX's modifiers (.sat, .ftz, directed roundings, .relu, .NaN, .xorsign,
// packed halves and 16-bit pairs); extended precision through CC.CF;
// mul24/mad24, sad, dp4a/dp2a and the video instructions
// (docs/lowering.md, "Arithmetic").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// Whether an f32 float operation is one of PTX's `.approx` math functions.
bool isApproxMath(Operation *op, ModifiersAttr mods) {
  if (isa<SinOp, CosOp, Ex2Op, Lg2Op, RsqrtOp>(op))
    return true;
  return isa<SqrtOp, DivOp, RcpOp>(op) && hasFlag(mods, Flag::approx);
}

/// The float operation of an arithmetic op, for the target seam and the
/// directed roundings.
std::optional<FloatOp> floatOpOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<FloatOp>>(op)
      .Case([](AddOp) { return FloatOp::add; })
      .Case([](SubOp) { return FloatOp::sub; })
      .Case([](MulOp) { return FloatOp::mul; })
      .Case([](MadOp) { return FloatOp::mad; })
      .Case([](FmaOp) { return FloatOp::fma; })
      .Case([](DivOp) { return FloatOp::div; })
      .Case([](RcpOp) { return FloatOp::rcp; })
      .Case([](SqrtOp) { return FloatOp::sqrt; })
      .Case([](RsqrtOp) { return FloatOp::rsqrt; })
      .Case([](SinOp) { return FloatOp::sin; })
      .Case([](CosOp) { return FloatOp::cos; })
      .Case([](Ex2Op) { return FloatOp::ex2; })
      .Case([](Lg2Op) { return FloatOp::lg2; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Float min/max (scalars or packed halves) with PTX's modifiers.
/// `.xorsign.abs`: the magnitudes' min/max, with the XOR of the operands'
/// signs. `.NaN`: a NaN operand gives the canonical NaN; without it a NaN
/// operand, quiet or signalling, yields the other, and two NaNs give the
/// canonical NaN, when the sign modifier is ignored. -0 is less than +0.
/// That is IEEE 754-2019's minimumNumber/maximumNumber (llvm.minimumnum),
/// not minNum (llvm.minnum), which may return either zero and a quieted
/// signalling NaN.
Value floatMinMax(OpBuilder &b, Location loc, bool isMin, Value x, Value y,
                  bool nan, bool xorsign) {
  Value a = xorsign ? Value(LLVM::FAbsOp::create(b, loc, x)) : x;
  Value c = xorsign ? Value(LLVM::FAbsOp::create(b, loc, y)) : y;
  Value r = LLVM::CallIntrinsicOp::create(
                b, loc, a.getType(),
                b.getStringAttr(isMin ? "llvm.minimumnum" : "llvm.maximumnum"),
                ValueRange{a, c})
                .getResult(0);
  if (!nan && !xorsign)
    return r;
  Value bad =
      nan ? LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x, y)
          : LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, r, r);
  if (xorsign) {
    Type t = r.getType(), it = bitsType(t);
    unsigned w = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
    auto bits = [&](Value v) { return LLVM::BitcastOp::create(b, loc, it, v); };
    Value sign = LLVM::AndOp::create(
        b, loc, LLVM::XOrOp::create(b, loc, bits(x), bits(y)),
        splatInt(
            b, loc, it,
            static_cast<int64_t>(llvm::APInt::getSignMask(w).getZExtValue())));
    r = LLVM::BitcastOp::create(b, loc, t,
                                LLVM::OrOp::create(b, loc, bits(r), sign));
  }
  return canonicalNaNIf(b, loc, bad, r);
}

/// div.approx.f32's results for a divisor of magnitude in (2^126, 2^128):
/// NaN for an infinite dividend, else (a NaN dividend aside) zero with the
/// sign of a / b; `q` otherwise.
Value approxDivBeyondRange(OpBuilder &b, Location loc, Value a, Value d,
                           Value q) {
  Type t = q.getType();
  Value mag = LLVM::FAbsOp::create(b, loc, d);
  Value beyond = LLVM::AndOp::create(
      b, loc,
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, mag,
                           constFloat(b, loc, t, 0x1p126)),
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, mag,
                           constFloat(b, loc, t, INFINITY)));
  Value signedZero = LLVM::CopySignOp::create(
      b, loc, constFloat(b, loc, t, 0.0),
      LLVM::FMulOp::create(
          b, loc,
          LLVM::CopySignOp::create(b, loc, constFloat(b, loc, t, 1.0), a), d));
  Value infinite = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq,
                                        LLVM::FAbsOp::create(b, loc, a),
                                        constFloat(b, loc, t, INFINITY));
  Value special = canonicalNaNIf(b, loc, infinite, signedZero);
  // A NaN dividend stays the quotient's NaN.
  Value ordered = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ord, a, a);
  return LLVM::SelectOp::create(
      b, loc, LLVM::AndOp::create(b, loc, beyond, ordered), special, q);
}

/// `r`, the float nearest to an exact value whose rounding error is `err`
/// (err = exact - r, exact in its own, possibly wider, type), made
/// round-to-odd: an inexact result with an even significand moves one unit
/// towards the exact value.
Value roundToOdd(OpBuilder &b, Location loc, Value r, Value err) {
  Type t = r.getType(), it = bitsType(t);
  Value bits = LLVM::BitcastOp::create(b, loc, it, r);
  Value zero = constFloat(b, loc, t, 0.0);
  Value errZero = constFloat(b, loc, err.getType(), 0.0);
  Value inexact =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::one, err, errZero);
  Value even = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::eq,
      LLVM::AndOp::create(b, loc, bits, splatInt(b, loc, it, 1)),
      splatInt(b, loc, it, 0));
  Value errNegative =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, err, errZero);
  // Towards the exact value: a larger magnitude when err has r's sign.
  Value away = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::eq,
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, r, zero),
      errNegative);
  Value step = LLVM::SelectOp::create(b, loc, away, splatInt(b, loc, it, 1),
                                      splatInt(b, loc, it, -1));
  // From a zero, the odd neighbour is the smallest subnormal of err's sign.
  Value isZero =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oeq, r, zero);
  unsigned w = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
  Value tiny = LLVM::SelectOp::create(
      b, loc, errNegative,
      splatInt(b, loc, it,
               static_cast<int64_t>(
                   (llvm::APInt::getSignMask(w) | 1).getZExtValue())),
      splatInt(b, loc, it, 1));
  Value moved = LLVM::SelectOp::create(b, loc, isZero, tiny,
                                       LLVM::AddOp::create(b, loc, bits, step));
  Value adjust = LLVM::AndOp::create(b, loc, inexact, even);
  return LLVM::BitcastOp::create(
      b, loc, t, LLVM::SelectOp::create(b, loc, adjust, moved, bits));
}

/// fma.rn on bf16 (scalars or pairs) rounded once, for targets without a
/// bf16 fma: LLVM's promotion through f32 rounds twice (a product on a bf16
/// midpoint plus a tiny addend came out 1 ulp low in the AMD emulator run).
/// The product is exact in f64; the sum is rounded to odd in f64 (TwoSum's
/// error), then to odd in f32, then to nearest bf16: rounding to odd with
/// two bits or more to spare leaves the last rounding correct.
Value fmaBf16RoundedOnce(OpBuilder &b, Location loc, Value x, Value y,
                         Value z) {
  Type t = x.getType(), f64 = b.getF64Type(), f32 = b.getF32Type();
  if (auto vt = dyn_cast<VectorType>(t)) {
    f64 = VectorType::get(vt.getShape(), f64);
    f32 = VectorType::get(vt.getShape(), f32);
  }
  auto ext = [&](Value v) { return LLVM::FPExtOp::create(b, loc, f64, v); };
  Value c = ext(z);
  Value p = LLVM::FMulOp::create(b, loc, ext(x), ext(y));
  Value s = LLVM::FAddOp::create(b, loc, p, c);
  // TwoSum: s + err == p + c exactly.
  Value bb = LLVM::FSubOp::create(b, loc, s, p);
  Value err = LLVM::FAddOp::create(
      b, loc,
      LLVM::FSubOp::create(b, loc, p, LLVM::FSubOp::create(b, loc, s, bb)),
      LLVM::FSubOp::create(b, loc, c, bb));
  Value odd64 = roundToOdd(b, loc, s, err);
  Value narrow = LLVM::FPTruncOp::create(b, loc, f32, odd64);
  Value back = LLVM::FSubOp::create(b, loc, odd64,
                                    LLVM::FPExtOp::create(b, loc, f64, narrow));
  Value odd32 = roundToOdd(b, loc, narrow, back);
  return LLVM::FPTruncOp::create(b, loc, t, odd32);
}

Results lowerArith(Operation *op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op->getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  Type resT = op->getResult(0).getType();
  bool isFloat = isFloatType(kind);
  bool isSigned = isSignedIntType(kind) || kind == TypeKind::s16x2;
  bool ftz = hasFlag(mods, Flag::ftz);
  bool sat = hasFlag(mods, Flag::sat);
  std::optional<Mode> mode = mods.getMode();
  SmallVector<Value> in, raw;
  for (auto [i, a] : llvm::enumerate(args)) {
    Type want = t;
    // mad.wide's addend is twice as wide.
    if (isa<MadOp>(op) && mode == Mode::wide && i == 2)
      want = b.getIntegerType(2 * bitWidth(t));
    Value v = castTo(b, loc, a, want);
    raw.push_back(v);
    if (isFloat && ftz)
      v = flushDenormal(b, loc, v);
    in.push_back(v);
  }
  // Contractible arithmetic (no rounding modifier, no .sat) as the target
  // would have it.
  if ((t.isF32() || t.isF64()) && !mods.getRounding() && !sat &&
      (isa<AddOp, SubOp, MulOp>(op)))
    if (Value r = l.target.createContractible(b, loc, *floatOpOf(op), ftz,
                                              raw[0], raw[1]))
      return one(castTo(b, loc, r, resT));
  Value r;
  if (isFloat && !isa<VectorType>(t)) {
    if (std::optional<Directed> d = directedMode(mods.getRounding())) {
      r = directedArith(b, loc, *floatOpOf(op), in, *d, ftz);
      if (sat)
        r = saturate(b, loc, r);
      return one(castTo(b, loc, r, resT));
    }
  }
  if (isFloat) {
    // (f64 has only rcp.approx.ftz.)
    Value fast =
        (t.isF32() || (t.isF64() && isa<RcpOp>(op))) && isApproxMath(op, mods)
            ? l.target.createApproxMath(b, loc, *floatOpOf(op), in)
            : Value();
    if (!fast && t.isF32() && isa<DivOp>(op) && hasFlag(mods, Flag::full))
      fast = l.target.createFullRangeDivision(b, loc, in[0], in[1]);
    // add/sub/mul without a rounding modifier may be fused into an fma
    // (the PTX ISA leaves that to the code generator, and ptxas does it);
    // with `.rn` they are rounded separately.
    auto contract = LLVM::FastmathFlagsAttr::get(
        b.getContext(), mods.getRounding() || sat || ftz
                            ? LLVM::FastmathFlags::none
                            : LLVM::FastmathFlags::contract);
    if (fast)
      r = fast;
    else if (isa<AddOp>(op))
      r = LLVM::FAddOp::create(b, loc, in[0], in[1], contract);
    else if (isa<SubOp>(op))
      r = LLVM::FSubOp::create(b, loc, in[0], in[1], contract);
    else if (isa<MulOp>(op))
      r = LLVM::FMulOp::create(b, loc, in[0], in[1], contract);
    else if (isa<DivOp>(op)) {
      r = LLVM::FDivOp::create(b, loc, in[0], in[1]);
      // div.approx.f32 is defined beyond its bounded range too: for
      // 2^126 < |b| < 2^128 it gives NaN for an infinite a, else a
      // sign-preserving zero (what a * rcp(b) gives, rcp flushing; the AMD
      // emulator run found the exact quotient there). The target's own
      // approximate division has this already.
      if (t.isF32() && hasFlag(mods, Flag::approx))
        r = approxDivBeyondRange(b, loc, in[0], in[1], r);
    } else if (isa<FmaOp, MadOp>(op)) {
      r = getElementTypeOrSelf(t).isBF16() && !l.target.hasBf16Fma()
              ? fmaBf16RoundedOnce(b, loc, in[0], in[1], in[2])
              : Value(LLVM::FMAOp::create(b, loc, in[0], in[1], in[2]));
      if (hasFlag(mods, Flag::relu))
        r = floatRelu(b, loc, r);
    } else if (isa<MinOp, MaxOp>(op))
      r = floatMinMax(b, loc, isa<MinOp>(op), in[0], in[1],
                      hasFlag(mods, Flag::NaN), hasFlag(mods, Flag::xorsign));
    else if (isa<NegOp, AbsOp>(op)) {
      // NVIDIA returns the canonical NaN (all ones but the sign) for a NaN
      // operand rather than flipping or clearing its sign (measured).
      r = isa<NegOp>(op) ? Value(LLVM::FNegOp::create(b, loc, in[0]))
                         : Value(LLVM::FAbsOp::create(b, loc, in[0]));
      if (isa<VectorType>(t))
        return one(castTo(b, loc, r, resT));
      r = canonicalNaNIf(
          b, loc,
          LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, in[0], in[0]),
          r);
    } else if (isa<RcpOp>(op))
      r = LLVM::FDivOp::create(b, loc, constFloat(b, loc, t, 1.0), in[0]);
    else if (isa<SqrtOp>(op))
      r = LLVM::SqrtOp::create(b, loc, in[0]);
    else if (isa<RsqrtOp>(op))
      r = LLVM::FDivOp::create(b, loc, constFloat(b, loc, t, 1.0),
                               LLVM::SqrtOp::create(b, loc, in[0]));
    else if (isa<SinOp>(op))
      r = LLVM::SinOp::create(b, loc, in[0]);
    else if (isa<CosOp>(op))
      r = LLVM::CosOp::create(b, loc, in[0]);
    else if (isa<Ex2Op>(op))
      r = LLVM::Exp2Op::create(b, loc, in[0]);
    else if (isa<Lg2Op>(op))
      r = LLVM::Log2Op::create(b, loc, in[0]);
    else
      return op->emitError("unsupported: float ")
             << op->getName().stripDialect();
    if (sat)
      r = saturate(b, loc, r);
    if (ftz && ftzMinNormal(t) != 0.0 && (isa<MulOp, FmaOp, MadOp>(op))) {
      // NVIDIA detects tininess after rounding to 24 bits with an unbounded
      // exponent: FLT_MIN * 0.99999994 = FLT_MIN - 2^-150 is such a number
      // and gives 0 with .ftz though IEEE rounding makes it FLT_MIN
      // (measured); anything at or above the midpoint FLT_MIN - 2^-151
      // rounds to FLT_MIN and stays. f16 the same with 11 bits: the
      // midpoint 2^-14 - 2^-26. The product is exact in f64, the fma
      // rounded once to double precision.
      bool half = getElementTypeOrSelf(t).isF16();
      Type f64 = b.getF64Type();
      if (auto vt = dyn_cast<VectorType>(t))
        f64 = VectorType::get(vt.getShape(), f64);
      Value x = LLVM::FPExtOp::create(b, loc, f64, in[0]);
      Value y = LLVM::FPExtOp::create(b, loc, f64, in[1]);
      Value exact =
          isa<MulOp>(op)
              ? Value(LLVM::FMulOp::create(b, loc, x, y))
              : Value(LLVM::FMAOp::create(
                    b, loc, x, y, LLVM::FPExtOp::create(b, loc, f64, in[2])));
      Value mag = LLVM::FAbsOp::create(b, loc, exact);
      Value tiny = LLVM::FCmpOp::create(
          b, loc, LLVM::FCmpPredicate::olt, mag,
          constFloat(b, loc, f64, half ? 0x1.ffep-15 : 0x1.ffffffp-127));
      Value zero =
          LLVM::CopySignOp::create(b, loc, constFloat(b, loc, t, 0.0), r);
      r = LLVM::SelectOp::create(b, loc, tiny, zero, r);
    }
    if (ftz)
      r = flushDenormal(b, loc, r);
    return one(castTo(b, loc, r, resT));
  }

  unsigned w = bitWidth(t);
  Type wide = b.getIntegerType(2 * w);
  auto ext = [&](Value v) -> Value {
    return isSigned ? Value(LLVM::SExtOp::create(b, loc, wide, v))
                    : Value(LLVM::ZExtOp::create(b, loc, wide, v));
  };
  auto mulFull = [&]() -> Value {
    if (mode == Mode::hi)
      return mulHigh(b, loc, in[0], in[1], isSigned);
    if (mode == Mode::wide)
      return LLVM::MulOp::create(b, loc, ext(in[0]), ext(in[1]));
    return LLVM::MulOp::create(b, loc, in[0], in[1]);
  };
  if (isa<AddOp>(op))
    r = sat ? Value(LLVM::SAddSat::create(b, loc, in[0], in[1]))
            : Value(LLVM::AddOp::create(b, loc, in[0], in[1]));
  else if (isa<SubOp>(op))
    r = sat ? Value(LLVM::SSubSat::create(b, loc, in[0], in[1]))
            : Value(LLVM::SubOp::create(b, loc, in[0], in[1]));
  else if (isa<MulOp>(op))
    r = mulFull();
  else if (isa<MadOp>(op)) {
    Value p = mulFull();
    r = LLVM::AddOp::create(b, loc, p, in[2]);
  } else if (isa<DivOp, RemOp>(op)) {
    // PTX leaves division by zero unspecified and never traps; LLVM's is
    // undefined, so a zero divisor is replaced and the result chosen here.
    // INT_MIN / -1 wraps.
    Type it = in[0].getType();
    Value zero = constInt(b, loc, it, 0), oneV = constInt(b, loc, it, 1);
    Value isZero =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, in[1], zero);
    Value d = LLVM::SelectOp::create(b, loc, isZero, oneV, in[1]);
    Value q;
    if (isSigned) {
      Value minusOne = constInt(b, loc, it, -1);
      Value isM1 =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, d, minusOne);
      Value safe = LLVM::SelectOp::create(b, loc, isM1, oneV, d);
      Value neg = LLVM::SubOp::create(b, loc, zero, in[0]);
      Value div = LLVM::SDivOp::create(b, loc, in[0], safe);
      Value rem = LLVM::SRemOp::create(b, loc, in[0], safe);
      q = isa<DivOp>(op)
              ? Value(LLVM::SelectOp::create(b, loc, isM1, neg, div))
              : Value(LLVM::SelectOp::create(b, loc, isM1, zero, rem));
    } else {
      q = isa<DivOp>(op) ? Value(LLVM::UDivOp::create(b, loc, in[0], d))
                         : Value(LLVM::URemOp::create(b, loc, in[0], d));
    }
    // NVIDIA gives all ones for both (measured on the H200).
    Value byZero = constInt(b, loc, it, -1);
    r = LLVM::SelectOp::create(b, loc, isZero, byZero, q);
  } else if (isa<MinOp, MaxOp>(op)) {
    if (isa<MinOp>(op))
      r = isSigned ? Value(LLVM::SMinOp::create(b, loc, in[0], in[1]))
                   : Value(LLVM::UMinOp::create(b, loc, in[0], in[1]));
    else
      r = isSigned ? Value(LLVM::SMaxOp::create(b, loc, in[0], in[1]))
                   : Value(LLVM::UMaxOp::create(b, loc, in[0], in[1]));
    // .relu (s32, s16x2): a negative result is 0.
    if (hasFlag(mods, Flag::relu))
      r = LLVM::SMaxOp::create(b, loc, r, splatInt(b, loc, r.getType(), 0));
  } else if (isa<NegOp>(op))
    r = LLVM::SubOp::create(b, loc, constInt(b, loc, t, 0), in[0]);
  else if (isa<AbsOp>(op))
    // The most negative value is its own absolute value, as in PTX.
    r = LLVM::AbsOp::create(b, loc, t, in[0], /*is_int_min_poison=*/false);
  else
    return op->emitError("unsupported: integer ")
           << op->getName().stripDialect();
  return one(castTo(b, loc, r, resT, isSigned));
}

/// Extended-precision arithmetic through CC.CF: add/sub/mad with `.cc`
/// (carry out) and addc/subc/madc (carry in, out with `.cc`), for 32- and
/// 64-bit integers. After a subtraction CF is the carry of a + ~b + 1, i.e.
/// not-borrow, as on NVIDIA GPUs (found by the oracle: a chain mixing
/// addc.cc and subc differs otherwise).
Results lowerCarryArith(Operation *op, ValueRange args, ModifiersAttr mods,
                        ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op->getLoc();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  bool carryIn = isa<AddcOp, SubcOp, MadcOp>(op);
  bool carryOut = hasFlag(mods, Flag::cc);
  bool isSub = isa<SubOp, SubcOp>(op);
  SmallVector<Value> in;
  for (Value a : args)
    in.push_back(castTo(b, loc, a, t));
  Value x = in[0], y = in[1];
  if (isa<MadOp, MadcOp>(op)) {
    // The product's low or high half (signed for .s32), then + c.
    Mode mode = mods.getMode().value_or(Mode::lo);
    x = mode == Mode::hi
            ? mulHigh(b, loc, x, y, isSignedIntType(*mods.getType()))
            : Value(LLVM::MulOp::create(b, loc, x, y));
    y = in[2];
  }
  using P = LLVM::ICmpPredicate;
  Value slot = carryIn || carryOut ? l.carrySlot(b, op) : Value();
  Type i32 = b.getI32Type();
  // First step: x +/- y, with its carry (x + y < x) or borrow (x < y).
  Value d = isSub ? Value(LLVM::SubOp::create(b, loc, x, y))
                  : Value(LLVM::AddOp::create(b, loc, x, y));
  Value out = isSub ? LLVM::ICmpOp::create(b, loc, P::ult, x, y)
                    : LLVM::ICmpOp::create(b, loc, P::ult, d, x);
  if (carryIn) {
    Value cf = LLVM::LoadOp::create(b, loc, i32, slot);
    // CC.CF holds a carry, also after a subtraction (as NVIDIA GPUs do:
    // a - b is a + ~b + 1), so the borrow in is its complement.
    if (isSub)
      cf = LLVM::XOrOp::create(b, loc, cf, constInt(b, loc, i32, 1));
    if (w != 32)
      cf = LLVM::ZExtOp::create(b, loc, t, cf);
    Value e = isSub ? Value(LLVM::SubOp::create(b, loc, d, cf))
                    : Value(LLVM::AddOp::create(b, loc, d, cf));
    Value out2 = isSub ? LLVM::ICmpOp::create(b, loc, P::ult, d, cf)
                       : LLVM::ICmpOp::create(b, loc, P::ult, e, d);
    out = LLVM::OrOp::create(b, loc, out, out2);
    d = e;
  }
  if (isSub)
    out = LLVM::XOrOp::create(b, loc, out, constInt(b, loc, b.getI1Type(), 1));
  if (carryOut)
    LLVM::StoreOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i32, out), slot);
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerArithOp(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  if (hasFlag(mods, Flag::cc))
    return lowerCarryArith(op, args, mods, b, l);
  return lowerArith(op, args, mods, b, l);
}

template <typename OpTy>
Results lowerCarryOp(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  return lowerCarryArith(op, args, mods, b, l);
}

/// mul24/mad24 (.lo/.hi, .u32/.s32): the operands' low 24 bits (sign- or
/// zero-extended) multiplied into 48 bits; .lo keeps bits 31..0, .hi bits
/// 47..16; mad24 adds c, and .hi.sat.s32 saturates that sum.
template <typename OpTy>
Results lowerMul24(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), i24 = b.getIntegerType(24);
  bool s = isSignedIntType(*mods.getType());
  auto widen = [&](Value v) -> Value {
    Value low = LLVM::TruncOp::create(b, loc, i24, castTo(b, loc, v, i32));
    return s ? Value(LLVM::SExtOp::create(b, loc, i64, low))
             : Value(LLVM::ZExtOp::create(b, loc, i64, low));
  };
  Value p = LLVM::MulOp::create(b, loc, widen(args[0]), widen(args[1]));
  bool hi = mods.getMode() == Mode::hi;
  if (hi)
    p = s ? Value(LLVM::AShrOp::create(b, loc, p, constInt(b, loc, i64, 16)))
          : Value(LLVM::LShrOp::create(b, loc, p, constInt(b, loc, i64, 16)));
  if (args.size() == 3) {
    Value c = castTo(b, loc, args[2], i32);
    Value c64 = s ? Value(LLVM::SExtOp::create(b, loc, i64, c))
                  : Value(LLVM::ZExtOp::create(b, loc, i64, c));
    Value sum = LLVM::AddOp::create(b, loc, p, c64);
    if (hasFlag(mods, Flag::sat) && s) {
      sum = LLVM::SMaxOp::create(b, loc, sum, constInt(b, loc, i64, INT32_MIN));
      sum = LLVM::SMinOp::create(b, loc, sum, constInt(b, loc, i64, INT32_MAX));
    }
    p = sum;
  }
  return one(castTo(b, loc, LLVM::TruncOp::create(b, loc, i32, p),
                    op->getResult(0).getType()));
}

/// tanh.approx.f32 (and halves through f32): NVIDIA's instruction on the
/// verification target; otherwise x - x^3/3 + 2x^5/15 below 0.1 in
/// magnitude and (t - 1)/(t + 1) with t = e^(2|x|) above, with the sign of x,
/// 1 beyond 10: relative error near 2^-20 (the PTX ISA's bound is
/// 2^-10.987).
template <typename OpTy>
Results lowerTanh(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type t = instType(op, mods), f32 = b.getF32Type();
  Type wide = isa<VectorType>(t)
                  ? Type(VectorType::get(cast<VectorType>(t).getShape(), f32))
                  : f32;
  Value x = castTo(b, loc, args[0], t);
  if (!getElementTypeOrSelf(t).isF32())
    x = LLVM::FPExtOp::create(b, loc, wide, x);
  Value r;
  if (t.isF32())
    r = l.target.createApproxMath(b, loc, FloatOp::tanh, ValueRange{x});
  if (!r) {
    auto c = [&](double v) -> Value {
      if (auto vt = dyn_cast<VectorType>(wide))
        return LLVM::ConstantOp::create(
            b, loc, wide, DenseElementsAttr::get(vt, b.getF32FloatAttr(v)));
      return constFloat(b, loc, f32, v);
    };
    Value mag = LLVM::FAbsOp::create(b, loc, x);
    Value e = LLVM::Exp2Op::create(
        b, loc, LLVM::FMulOp::create(b, loc, mag, c(2.0 * 1.4426950408889634)));
    Value big =
        LLVM::FDivOp::create(b, loc, LLVM::FSubOp::create(b, loc, e, c(1.0)),
                             LLVM::FAddOp::create(b, loc, e, c(1.0)));
    Value x2 = LLVM::FMulOp::create(b, loc, mag, mag);
    // x (1 - x^2/3 + 2x^4/15): the series' error is 17x^7/315.
    Value poly = LLVM::FAddOp::create(
        b, loc, c(-1.0 / 3.0), LLVM::FMulOp::create(b, loc, x2, c(2.0 / 15.0)));
    Value small = LLVM::FMulOp::create(
        b, loc, mag,
        LLVM::FAddOp::create(b, loc, c(1.0),
                             LLVM::FMulOp::create(b, loc, x2, poly)));
    Value v = LLVM::SelectOp::create(
        b, loc,
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, mag, c(0.1)),
        small, big);
    v = LLVM::SelectOp::create(
        b, loc,
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, mag, c(10.0)),
        c(1.0), v);
    r = LLVM::CopySignOp::create(b, loc, v, x); // NaN stays NaN
  }
  if (!getElementTypeOrSelf(t).isF32())
    r = LLVM::FPTruncOp::create(b, loc, t, r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerCopysign(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &) {
  // copysign d, a, b: b's magnitude with a's sign.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value r = LLVM::CopySignOp::create(b, loc, castTo(b, loc, args[1], t),
                                     castTo(b, loc, args[0], t));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerSad(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // d = c + |a - b|, the difference taken in the type's signedness.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value a = castTo(b, loc, args[0], t), bv = castTo(b, loc, args[1], t);
  Value c = castTo(b, loc, args[2], t);
  bool s = isSignedIntType(*mods.getType());
  Value less = LLVM::ICmpOp::create(
      b, loc, s ? LLVM::ICmpPredicate::slt : LLVM::ICmpPredicate::ult, a, bv);
  Value diff =
      LLVM::SelectOp::create(b, loc, less, LLVM::SubOp::create(b, loc, bv, a),
                             LLVM::SubOp::create(b, loc, a, bv));
  return one(castTo(b, loc, LLVM::AddOp::create(b, loc, c, diff),
                    op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerDotProduct(OpTy op, ValueRange args, ModifiersAttr mods,
                        ConversionPatternRewriter &b, const Lowering &) {
  // dp4a: d = c + the sum of the four byte products; dp2a: d = c + the two
  // products of a's 16-bit halves with bytes 0-1 (.lo) or 2-3 (.hi) of b.
  // Each part is extended by its operand's type (.atype.btype).
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  bool sa = isSignedIntType(*mods.getType(0));
  bool sb = isSignedIntType(*mods.getType(1));
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  Value d = castTo(b, loc, args[2], i32);
  auto part = [&](Value v, unsigned bits, unsigned k, bool s) -> Value {
    Value x = LLVM::TruncOp::create(
        b, loc, b.getIntegerType(bits),
        LLVM::LShrOp::create(b, loc, v, constInt(b, loc, i32, bits * k)));
    return s ? Value(LLVM::SExtOp::create(b, loc, i32, x))
             : Value(LLVM::ZExtOp::create(b, loc, i32, x));
  };
  bool twoWay = std::is_same_v<OpTy, Dp2aOp>;
  unsigned firstB = twoWay && mods.getMode() == Mode::hi ? 2 : 0;
  for (unsigned k = 0; k < (twoWay ? 2u : 4u); ++k)
    d = LLVM::AddOp::create(b, loc, d,
                            LLVM::MulOp::create(b, loc,
                                                part(a, twoWay ? 16 : 8, k, sa),
                                                part(bv, 8, firstB + k, sb)));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// Scalar video instructions (vadd vsub vabsdiff vmin vmax vshl vshr) on
/// whole words, and the SIMD vabsdiff2/vabsdiff4 with all lanes: the
/// operands extended to 64 bits by their types, the operation exact,
/// `.sat` clamping to the destination type (per lane for SIMD; a u32 word
/// only at 0), then the secondary .add of c (for SIMD, c plus the sum of
/// the lanes). The .min/.max secondary operations are not lowered: their
/// comparison on the H200 is not a plain signed or unsigned one (measured:
/// max(0x80000000, 0x80000001) gives 0x80000000, max(12, 0xfffffff0) gives
/// 0xfffffff0).
template <typename OpTy>
Results lowerVideo(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  bool sd = isSignedIntType(*mods.getType(0));
  bool sa = isSignedIntType(*mods.getType(1));
  bool sb = isSignedIntType(*mods.getType(2));
  bool sat = hasFlag(mods, Flag::sat);
  std::optional<ReduceOp> op2 = mods.getRedOp();
  // The SIMD forms work on bytes (vabsdiff4) or halves (vabsdiff2).
  unsigned lane = std::is_same_v<OpTy, Vabsdiff4Op>   ? 8
                  : std::is_same_v<OpTy, Vabsdiff2Op> ? 16
                                                      : 32;
  bool shift = std::is_same_v<OpTy, VshlOp> || std::is_same_v<OpTy, VshrOp>;
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  auto part = [&](Value v, unsigned k, bool s) -> Value {
    Value x = v;
    if (lane < 32)
      x = LLVM::TruncOp::create(
          b, loc, b.getIntegerType(lane),
          LLVM::LShrOp::create(b, loc, v, constInt(b, loc, i32, lane * k)));
    return s ? Value(LLVM::SExtOp::create(b, loc, i64, x))
             : Value(LLVM::ZExtOp::create(b, loc, i64, x));
  };
  auto clampTo = [&](Value t) -> Value {
    llvm::APInt lo =
        sd ? llvm::APInt::getSignedMinValue(lane) : llvm::APInt::getZero(lane);
    llvm::APInt hi = sd ? llvm::APInt::getSignedMaxValue(lane)
                        : llvm::APInt::getMaxValue(lane);
    t = LLVM::SMaxOp::create(b, loc, t,
                             constInt(b, loc, i64, lo.getSExtValue()));
    // An unsigned word result is only clamped at 0; above it wraps
    // (measured: vadd.u32.u32.u32.sat of 2 and 0xffffffff gives 1).
    if (!sd && lane == 32)
      return t;
    return LLVM::SMinOp::create(
        b, loc, t,
        constInt(b, loc, i64,
                 sd ? hi.getSExtValue() : int64_t(hi.getZExtValue())));
  };
  SmallVector<Value> lanes;
  for (unsigned k = 0; k < 32 / lane; ++k) {
    Value ta = part(a, k, sa), tb = part(bv, k, shift ? false : sb);
    Value t;
    if (shift) {
      tb = hasFlag(mods, Flag::wrap)
               ? Value(
                     LLVM::AndOp::create(b, loc, tb, constInt(b, loc, i64, 31)))
               : Value(LLVM::UMinOp::create(b, loc, tb,
                                            constInt(b, loc, i64, 32)));
      t = std::is_same_v<OpTy, VshlOp>
              ? Value(LLVM::ShlOp::create(b, loc, ta, tb))
              : Value(LLVM::AShrOp::create(b, loc, ta, tb));
    } else if (std::is_same_v<OpTy, VaddOp>) {
      t = LLVM::AddOp::create(b, loc, ta, tb);
    } else if (std::is_same_v<OpTy, VsubOp>) {
      t = LLVM::SubOp::create(b, loc, ta, tb);
    } else if (std::is_same_v<OpTy, VabsdiffOp> ||
               std::is_same_v<OpTy, Vabsdiff2Op> ||
               std::is_same_v<OpTy, Vabsdiff4Op>) {
      Value d = LLVM::SubOp::create(b, loc, ta, tb);
      Value n = LLVM::SubOp::create(b, loc, constInt(b, loc, i64, 0), d);
      t = LLVM::SMaxOp::create(b, loc, d, n);
    } else if (std::is_same_v<OpTy, VminOp>) {
      t = LLVM::SMinOp::create(b, loc, ta, tb);
    } else {
      t = LLVM::SMaxOp::create(b, loc, ta, tb);
    }
    lanes.push_back(sat ? clampTo(t) : t);
  }
  Value c = args.size() > 2 ? castTo(b, loc, args[2], i32) : Value();
  Value r;
  if (lane == 32) {
    r = lanes[0];
    if (op2)
      r = LLVM::AddOp::create(b, loc, r, LLVM::SExtOp::create(b, loc, i64, c));
    r = LLVM::TruncOp::create(b, loc, i32, r);
  } else if (op2) {
    // SIMD .add: c plus the sum of the lanes.
    r = c;
    for (Value v : lanes)
      r = LLVM::AddOp::create(b, loc, r, LLVM::TruncOp::create(b, loc, i32, v));
  } else {
    // Every lane written (the default mask): the lanes side by side.
    r = constInt(b, loc, i32, 0);
    for (auto [k, v] : llvm::enumerate(lanes)) {
      Value x =
          LLVM::AndOp::create(b, loc, LLVM::TruncOp::create(b, loc, i32, v),
                              constInt(b, loc, i32, (1ll << lane) - 1));
      r = LLVM::OrOp::create(
          b, loc, r,
          LLVM::ShlOp::create(b, loc, x, constInt(b, loc, i32, lane * k)));
    }
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

//===----------------------------------------------------------------------===//
// Support checks
//===----------------------------------------------------------------------===//

std::string checkArith(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  if (!mods)
    return "";
  std::optional<FloatOp> f = floatOpOf(op);
  ModifierPolicy p;
  p.carry = isa<AddOp, SubOp, MadOp, AddcOp, SubcOp, MadcOp>(op);
  p.directed =
      directedMode(mods.getRounding()) && mods.getType() && f &&
      hasDirectedArith(*f, semanticType(op->getContext(), *mods.getType()));
  p.nanXorsign = isa<MinOp, MaxOp>(op);
  p.relu = isa<MinOp, MaxOp, FmaOp>(op);
  // Packed halves elementwise; packed 16-bit integers (sm_90): add (CUDA's
  // __vadd2 and friends compile to it), min and max, without .sat.
  p.packedHalves = isa<AddOp, SubOp, MulOp, FmaOp, MinOp, MaxOp, NegOp, AbsOp,
                       TanhOp, Ex2Op>(op);
  p.packedInts = isa<MinOp, MaxOp, AddOp>(op) && !hasFlag(mods, Flag::sat);
  return checkModifiers(op, p);
}

/// Video instructions: whole words only (no .b0/.h1 selectors, no lane
/// mask or merge), and the SIMD ones with .add or no secondary op.
std::string checkVideo(Operation *op, const TargetInfo &) {
  return checkModifiers(
      op, {}, [&](ModifiersAttr mods) -> std::optional<StringRef> {
        if (auto sels = op->getAttrOfType<ArrayAttr>("selectors"))
          for (Attribute sel : sels)
            if (!cast<StringAttr>(sel).getValue().empty())
              return " with operand selectors";
        if (mods.getRedOp() && *mods.getRedOp() != ReduceOp::add)
          return "";
        return std::nullopt;
      });
}

} // namespace

void zluda::ptx::lowering::populateArithmeticPatterns(
    TypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target, LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerArithOp<AddOp>, checkArith);
  add(lowerArithOp<SubOp>, checkArith);
  add(lowerCarryOp<AddcOp>, checkArith);
  add(lowerCarryOp<SubcOp>, checkArith);
  add(lowerCarryOp<MadcOp>, checkArith);
  add(lowerArithOp<MulOp>, checkArith);
  add(lowerArithOp<MadOp>, checkArith);
  add(lowerArithOp<FmaOp>, checkArith);
  add(lowerArithOp<DivOp>, checkArith);
  add(lowerArithOp<RemOp>, checkArith);
  add(lowerArithOp<NegOp>, checkArith);
  add(lowerArithOp<AbsOp>, checkArith);
  add(lowerArithOp<MinOp>, checkArith);
  add(lowerArithOp<MaxOp>, checkArith);
  add(lowerArithOp<RcpOp>, checkArith);
  add(lowerArithOp<SqrtOp>, checkArith);
  add(lowerArithOp<RsqrtOp>, checkArith);
  add(lowerArithOp<SinOp>, checkArith);
  add(lowerArithOp<CosOp>, checkArith);
  add(lowerArithOp<Ex2Op>, checkArith);
  add(lowerArithOp<Lg2Op>, checkArith);
  add(lowerTanh<TanhOp>, checkArith);
  add(lowerCopysign<CopysignOp>);
  add(lowerMul24<Mul24Op>);
  add(lowerMul24<Mad24Op>);
  add(lowerSad<SadOp>);
  add(lowerDotProduct<Dp4aOp>);
  add(lowerDotProduct<Dp2aOp>);
  add(lowerVideo<VaddOp>, checkVideo);
  add(lowerVideo<VsubOp>, checkVideo);
  add(lowerVideo<VabsdiffOp>, checkVideo);
  add(lowerVideo<VminOp>, checkVideo);
  add(lowerVideo<VmaxOp>, checkVideo);
  add(lowerVideo<VshlOp>, checkVideo);
  add(lowerVideo<VshrOp>, checkVideo);
  add(lowerVideo<Vabsdiff2Op>, checkVideo);
  add(lowerVideo<Vabsdiff4Op>, checkVideo);
}
