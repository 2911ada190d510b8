//===- DirectedRounding.cpp - PTX .rz/.rm/.rp float rounding --------------===//

#include "passes/PTXToLLVM/DirectedRounding.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <functional>
#include <vector>

using namespace mlir;
using namespace zluda::ptx;

namespace {

using Pred = LLVM::FCmpPredicate;

/// Builds the small sequences below with less noise.
struct Emitter {
  OpBuilder &b;
  Location loc;

  Value f(Type t, double v) {
    return LLVM::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
  }
  Value i(Type t, int64_t v) {
    return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
  }
  Value flag(bool v) { return i(b.getI1Type(), v); }
  Value cmp(Pred p, Value x, Value y) {
    return LLVM::FCmpOp::create(b, loc, p, x, y);
  }
  Value cmp0(Pred p, Value x) { return cmp(p, x, f(x.getType(), 0.0)); }
  Value add(Value x, Value y) { return LLVM::FAddOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return LLVM::FSubOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return LLVM::FMulOp::create(b, loc, x, y); }
  Value fma(Value x, Value y, Value z) {
    return LLVM::FMAOp::create(b, loc, x, y, z);
  }
  Value neg(Value x) { return LLVM::FNegOp::create(b, loc, x); }
  Value abs(Value x) { return LLVM::FAbsOp::create(b, loc, x); }
  Value ext(Value x, Type t) {
    return x.getType() == t ? x : LLVM::FPExtOp::create(b, loc, t, x);
  }
  Value trunc(Value x, Type t) {
    return x.getType() == t ? x : LLVM::FPTruncOp::create(b, loc, t, x);
  }
  Value all(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }
  Value any(Value x, Value y) { return LLVM::OrOp::create(b, loc, x, y); }
  Value pick(Value c, Value x, Value y) {
    return LLVM::SelectOp::create(b, loc, c, x, y);
  }
  Value bits(Value x) {
    return LLVM::BitcastOp::create(
        b, loc, b.getIntegerType(x.getType().getIntOrFloatBitWidth()), x);
  }
  Value signBit(Value x) {
    Value v = bits(x);
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, v,
                                i(v.getType(), 0));
  }
};

/// Where the true result lies relative to the round-to-nearest one.
struct Side {
  Value above, below;
};

/// TwoSum (Knuth): the exact error e of s = RN(x + y), x + y == s + e; no
/// branch, no condition on the magnitudes; exact unless s overflows.
Value twoSumError(Emitter &em, Value x, Value y, Value s) {
  Value yy = em.sub(s, x);
  Value xx = em.sub(s, yy);
  return em.add(em.sub(x, xx), em.sub(y, yy));
}

/// The side of the true value s + e (e much smaller than an ulp of s) with
/// respect to c, all in the type of s.
Side sideOfPair(Emitter &em, Value s, Value e, Value c) {
  Value eq = em.cmp(Pred::oeq, s, c);
  return {em.any(em.cmp(Pred::ogt, s, c), em.all(eq, em.cmp0(Pred::ogt, e))),
          em.any(em.cmp(Pred::olt, s, c), em.all(eq, em.cmp0(Pred::olt, e)))};
}

/// Moves c (round to nearest, or any faithful rounding) to its neighbour
/// on the true result's side when `mode` asks for it. Integer steps on the
/// bit pattern: toward zero is -1, away from zero +1, from a zero the
/// smallest subnormal of the requested sign. NaN compares unordered and is
/// never moved.
Value step(Emitter &em, Value c, Side side, Directed mode) {
  Value pos = em.cmp0(Pred::ogt, c), negative = em.cmp0(Pred::olt, c);
  Value down = em.flag(false), up = em.flag(false);
  switch (mode) {
  case Directed::towardZero:
    down = em.all(side.below, pos);
    up = em.all(side.above, negative);
    break;
  case Directed::down:
    down = side.below;
    break;
  case Directed::up:
    up = side.above;
    break;
  }
  Value bits = em.bits(c);
  Type it = bits.getType();
  unsigned w = it.getIntOrFloatBitWidth();
  Value one = em.i(it, 1);
  Value towardZero = em.any(em.all(down, pos), em.all(up, negative));
  Value moved =
      em.pick(towardZero, LLVM::SubOp::create(em.b, em.loc, bits, one),
              LLVM::AddOp::create(em.b, em.loc, bits, one));
  Value smallestNeg =
      em.i(it, static_cast<int64_t>((uint64_t(1) << (w - 1)) | 1));
  Value fromZero = em.pick(down, smallestNeg, one);
  moved = em.pick(em.cmp0(Pred::oeq, c), fromZero, moved);
  Value r = em.pick(em.any(down, up), moved, bits);
  return LLVM::BitcastOp::create(em.b, em.loc, c.getType(), r);
}

/// The largest 24-bit number below FLT_MIN: FLT_MIN - 2^-150.
constexpr double belowMinNormal = 0x1.fffffep-127;

/// `.ftz` on a result: NVIDIA detects tininess after rounding to 24 bits
/// with an unbounded exponent (measured: FLT_MIN * (1 - 2^-24) is flushed
/// in every mode; -FLT_MIN + FLT_MIN^2 rounded down is -FLT_MIN). So a
/// result whose magnitude is below FLT_MIN is a zero of its sign, unless
/// the mode rounds its magnitude up and it lies above belowMinNormal
/// (`beyond`), which rounds to FLT_MIN instead.
Value flushTiny(Emitter &em, Value c, Side side, Value r, Directed mode,
                Value beyond) {
  Type t = c.getType();
  Value pos = em.cmp0(Pred::ogt, c), negative = em.cmp0(Pred::olt, c);
  Value mag = em.abs(c), minNormal = em.f(t, 1.17549435e-38);
  Value magBelow =
      em.any(em.all(pos, side.below), em.all(negative, side.above));
  Value tiny = em.any(em.cmp(Pred::olt, mag, minNormal),
                      em.all(em.cmp(Pred::oeq, mag, minNormal), magBelow));
  Value magUp = mode == Directed::up     ? pos
                : mode == Directed::down ? negative
                                         : em.flag(false);
  tiny = em.all(tiny, LLVM::XOrOp::create(em.b, em.loc, em.all(magUp, beyond),
                                          em.flag(true)));
  // r's sign: an exact zero sum keeps the sign zeroSumSign gave it.
  Value zero = LLVM::CopySignOp::create(em.b, em.loc, em.f(t, 0.0), r);
  return em.pick(tiny, zero, r);
}

/// An exact zero sum of x and y rounds to -0 when rounding down unless
/// both are +0 (IEEE 754 6.3); in the other modes it is what c already is.
Value zeroSumSign(Emitter &em, Value x, Value y, Value c, Side side,
                  Directed mode, Value r) {
  if (mode != Directed::down)
    return r;
  Value exactZero =
      em.all(em.cmp0(Pred::oeq, c),
             LLVM::XOrOp::create(em.b, em.loc, em.any(side.above, side.below),
                                 em.flag(true)));
  Type t = c.getType();
  Value z = em.pick(em.any(em.signBit(x), em.signBit(y)), em.f(t, -0.0),
                    em.f(t, 0.0));
  return em.pick(exactZero, z, r);
}

/// add/sub/mul/fma on f32 through f64, where the product is exact and
/// TwoSum gives the sum's error exactly: s + e is the true result.
Value f32ViaDouble(Emitter &em, FloatOp op, ValueRange in, Directed mode,
                   bool ftz) {
  Type f64 = em.b.getF64Type(), f32 = em.b.getF32Type();
  Value x = em.ext(in[0], f64), y = em.ext(in[1], f64);
  Value s, e = em.f(f64, 0.0), addX, addY;
  if (op == FloatOp::mul) {
    s = em.mul(x, y);
  } else {
    if (op == FloatOp::fma || op == FloatOp::mad) {
      x = em.mul(x, y);
      y = em.ext(in[2], f64);
    } else if (op == FloatOp::sub) {
      y = em.neg(y);
    }
    s = em.add(x, y);
    e = twoSumError(em, x, y, s);
    addX = x;
    addY = y;
  }
  Value c = em.trunc(s, f32);
  Side side = sideOfPair(em, s, e, em.ext(c, f64));
  Value r = step(em, c, side, mode);
  if (addX)
    r = zeroSumSign(em, addX, addY, c, side, mode, r);
  if (ftz) {
    Value mag = em.abs(s), edge = em.f(f64, belowMinNormal);
    Value beyond =
        em.any(em.cmp(Pred::ogt, mag, edge),
               em.all(em.cmp(Pred::oeq, mag, edge),
                      em.cmp(Pred::ogt, em.mul(s, e), em.f(f64, 0.0))));
    r = flushTiny(em, c, side, r, mode, beyond);
  }
  // A NaN operand gives the canonical NaN, as NVIDIA's f32 arithmetic does
  // (measured), not the payload f64 arithmetic carries through.
  Value canonical = LLVM::BitcastOp::create(
      em.b, em.loc, f32, em.i(em.b.getI32Type(), 0x7fffffff));
  return em.pick(em.cmp(Pred::uno, s, s), canonical, r);
}

/// div/rcp/sqrt on f32: c from the round-to-nearest instruction, the side
/// from the sign of the residual computed in f64 with one fma, where the
/// product is exact and the residual, a multiple of 2^-298, cannot round to
/// zero.
Value f32ByResidual(Emitter &em, FloatOp op, ValueRange in, Directed mode,
                    bool ftz) {
  Type f64 = em.b.getF64Type(), f32 = em.b.getF32Type();
  Value c;
  // The side of the true result relative to a value v (f64).
  std::function<Side(Value)> sideOf;
  if (op == FloatOp::sqrt) {
    Value x = em.ext(in[0], f64);
    c = LLVM::SqrtOp::create(em.b, em.loc, in[0]);
    sideOf = [&em, x](Value v) -> Side {
      Value res = em.fma(em.neg(v), v, x);
      return {em.cmp0(Pred::ogt, res), em.cmp0(Pred::olt, res)};
    };
  } else {
    Value num = op == FloatOp::rcp ? em.f(f32, 1.0) : in[0];
    Value den = op == FloatOp::rcp ? in[0] : in[1];
    c = LLVM::FDivOp::create(em.b, em.loc, num, den);
    Value x = em.ext(num, f64), y = em.ext(den, f64);
    sideOf = [&em, x, y](Value v) -> Side {
      // true - v == res / y.
      Value res = em.fma(em.neg(v), y, x);
      Value rp = em.cmp0(Pred::ogt, res), rn = em.cmp0(Pred::olt, res);
      Value yp = em.cmp0(Pred::ogt, y), yn = em.cmp0(Pred::olt, y);
      return {em.any(em.all(rp, yp), em.all(rn, yn)),
              em.any(em.all(rn, yp), em.all(rp, yn))};
    };
  }
  Side side = sideOf(em.ext(c, f64));
  Value r = step(em, c, side, mode);
  if (!ftz)
    return r;
  Value edge = LLVM::CopySignOp::create(em.b, em.loc, em.f(f64, belowMinNormal),
                                        em.ext(c, f64));
  Side atEdge = sideOf(edge);
  Value beyond = em.pick(em.cmp0(Pred::ogt, c), atEdge.above, atEdge.below);
  return flushTiny(em, c, side, r, mode, beyond);
}

/// div/rcp/sqrt on f64: c = RN, and the side of the true result from the
/// sign of the residual (x - c*y, x - c*c), computed by one fma: rounding
/// keeps the sign of its exact value unless that underflows, so where it
/// could the operands are scaled by powers of two first (the residual
/// with them): a tiny quotient with x (by 2^800), a tiny dividend with x
/// and y (by 2^600), a tiny radicand by 2^200 with c by 2^100. A finite
/// quotient that overflowed lies below the infinity. Zero, infinite and
/// NaN operands give exact results (no step).
Value f64ByResidual(Emitter &em, FloatOp op, ValueRange in, Directed mode) {
  Type f64 = em.b.getF64Type();
  Value inf = em.f(f64, INFINITY), tinyBound = em.f(f64, 0x1p-900);
  auto finiteNonzero = [&](Value v) {
    return em.all(em.cmp(Pred::olt, em.abs(v), inf), em.cmp0(Pred::one, v));
  };
  auto scaled = [&](Value cond, Value v, double by) {
    return em.pick(cond, em.mul(v, em.f(f64, by)), v);
  };
  if (op == FloatOp::sqrt) {
    Value x = in[0];
    Value c = LLVM::SqrtOp::create(em.b, em.loc, x);
    Value tiny = em.cmp(Pred::olt, x, tinyBound);
    Value xs = scaled(tiny, x, 0x1p200), cs = scaled(tiny, c, 0x1p100);
    Value res = em.fma(em.neg(cs), cs, xs);
    Value ok = em.all(finiteNonzero(x), em.cmp0(Pred::ogt, x));
    Side side = {em.all(ok, em.cmp0(Pred::ogt, res)),
                 em.all(ok, em.cmp0(Pred::olt, res))};
    return step(em, c, side, mode);
  }
  Value x = op == FloatOp::rcp ? em.f(f64, 1.0) : in[0];
  Value y = op == FloatOp::rcp ? in[0] : in[1];
  Value c = LLVM::FDivOp::create(em.b, em.loc, x, y);
  Value cTiny = em.cmp(Pred::olt, em.abs(c), tinyBound);
  Value xTiny = em.all(em.cmp(Pred::olt, em.abs(x), tinyBound),
                       em.cmp(Pred::oge, em.abs(c), tinyBound));
  Value xs = scaled(cTiny, scaled(xTiny, x, 0x1p600), 0x1p800);
  Value ys = scaled(xTiny, y, 0x1p600);
  Value cs = scaled(cTiny, c, 0x1p800);
  // true - c == res / y (scaled by a power of two).
  Value res = em.fma(em.neg(cs), ys, xs);
  Value rp = em.cmp0(Pred::ogt, res), rn = em.cmp0(Pred::olt, res);
  Value yp = em.cmp0(Pred::ogt, y), yn = em.cmp0(Pred::olt, y);
  Value ok = em.all(finiteNonzero(x), finiteNonzero(y));
  Value overflow = em.all(ok, em.cmp(Pred::oeq, em.abs(c), inf));
  Value above = em.all(ok, em.any(em.all(rp, yp), em.all(rn, yn)));
  Value below = em.all(ok, em.any(em.all(rn, yp), em.all(rp, yn)));
  Side side = {em.pick(overflow, em.cmp0(Pred::olt, c), above),
               em.pick(overflow, em.cmp0(Pred::ogt, c), below)};
  return step(em, c, side, mode);
}

/// The sign of x1 + x2 + x3 + x4, exactly: Shewchuk's Grow-Expansion turns
/// them into a nonoverlapping expansion by TwoSums (exact, subnormals
/// included, barring overflow), whose largest nonzero component has the
/// sum's sign. {positive, negative}.
Side signOfSum4(Emitter &em, Value x1, Value x2, Value x3, Value x4) {
  std::vector<Value> e = {x1};
  for (Value x : {x2, x3, x4}) {
    std::vector<Value> grown;
    Value q = x;
    for (Value c : e) {
      Value s = em.add(q, c);
      grown.push_back(twoSumError(em, q, c, s));
      q = s;
    }
    grown.push_back(q);
    e = std::move(grown);
  }
  // From the top: the first nonzero component decides.
  Value pos = em.flag(false), neg = em.flag(false), decided = em.flag(false);
  for (auto it = e.rbegin(); it != e.rend(); ++it) {
    Value nz = em.cmp0(Pred::one, *it);
    Value take =
        em.all(nz, LLVM::XOrOp::create(em.b, em.loc, decided, em.flag(true)));
    pos = em.any(pos, em.all(take, em.cmp0(Pred::ogt, *it)));
    neg = em.any(neg, em.all(take, em.cmp0(Pred::olt, *it)));
    decided = em.any(decided, nz);
  }
  return {pos, neg};
}

/// fma on f64: c = RN(a*b + d); the side from the exact sign of
/// p + e + d - c, where p + e == a*b (TwoProd: e = fma(a, b, -p)). Where the
/// product is tiny the smaller factor, d and c are scaled by 2^600 first;
/// where it overflowed, the larger factor, d and c by 2^-600 (exact either
/// way). A product too tiny to matter against d (or still underflowing
/// once scaled) leaves c == d (or a zero) and the side is the product's
/// sign. A finite result that overflowed lies below the infinity; zero,
/// infinite and NaN operands give exact results.
Value f64Fma(Emitter &em, ValueRange in, Directed mode) {
  Type f64 = em.b.getF64Type();
  Value a = in[0], b = in[1], d = in[2];
  Value inf = em.f(f64, INFINITY);
  auto finite = [&](Value v) { return em.cmp(Pred::olt, em.abs(v), inf); };
  Value c = em.fma(a, b, d);
  Value p = em.mul(a, b);
  Value aSmaller = em.cmp(Pred::ole, em.abs(a), em.abs(b));
  Value small = em.pick(aSmaller, a, b), large = em.pick(aSmaller, b, a);
  Value tinyP = em.cmp(Pred::olt, em.abs(p), em.f(f64, 0x1p-960));
  Value bigD = em.cmp(Pred::oge, em.abs(d), em.f(f64, 0x1p-300));
  Value up =
      em.all(tinyP, LLVM::XOrOp::create(em.b, em.loc, bigD, em.flag(true)));
  Value down = em.all(em.cmp(Pred::oeq, em.abs(p), inf), finite(c));
  Value k = em.pick(up, em.f(f64, 0x1p600),
                    em.pick(down, em.f(f64, 0x1p-600), em.f(f64, 1.0)));
  Value u = em.mul(em.pick(down, large, small), k);
  Value v = em.pick(down, small, large);
  Value ps = em.mul(u, v);
  Value es = em.fma(u, v, em.neg(ps));
  Side exact = signOfSum4(em, ps, es, em.mul(d, k), em.neg(em.mul(c, k)));
  // The product alone decides when it cannot be split exactly.
  Value productOnly =
      em.any(em.all(tinyP, bigD),
             em.all(up, em.cmp(Pred::olt, em.abs(ps), em.f(f64, 0x1p-967))));
  // The product's sign (p itself may have underflowed to a zero).
  Value productPositive = LLVM::XOrOp::create(
      em.b, em.loc,
      LLVM::XOrOp::create(em.b, em.loc, em.signBit(a), em.signBit(b)),
      em.flag(true));
  Side product = {
      productPositive,
      LLVM::XOrOp::create(em.b, em.loc, productPositive, em.flag(true))};
  Value ok = em.all(
      em.all(finite(a), finite(b)),
      em.all(finite(d), em.all(em.cmp0(Pred::one, a), em.cmp0(Pred::one, b))));
  Value overflow = em.all(ok, em.cmp(Pred::oeq, em.abs(c), inf));
  Side side = {
      em.all(ok, em.pick(overflow, em.cmp0(Pred::olt, c),
                         em.pick(productOnly, product.above, exact.above))),
      em.all(ok, em.pick(overflow, em.cmp0(Pred::ogt, c),
                         em.pick(productOnly, product.below, exact.below)))};
  Value r = step(em, c, side, mode);
  return zeroSumSign(em, p, d, c, side, mode, r);
}

/// add/sub on f64: TwoSum; a finite sum that overflowed lies below the
/// infinity in magnitude.
Value f64Sum(Emitter &em, FloatOp op, ValueRange in, Directed mode) {
  Type f64 = em.b.getF64Type();
  Value x = in[0], y = op == FloatOp::sub ? em.neg(in[1]) : in[1];
  Value s = em.add(x, y);
  Value e = twoSumError(em, x, y, s);
  Value inf = em.f(f64, INFINITY);
  Value finiteIn = em.all(em.cmp(Pred::olt, em.abs(x), inf),
                          em.cmp(Pred::olt, em.abs(y), inf));
  Value overflow = em.all(finiteIn, em.cmp(Pred::oeq, em.abs(s), inf));
  Side side = {em.pick(overflow, em.cmp0(Pred::olt, s), em.cmp0(Pred::ogt, e)),
               em.pick(overflow, em.cmp0(Pred::ogt, s), em.cmp0(Pred::olt, e))};
  Value r = step(em, s, side, mode);
  return zeroSumSign(em, x, y, s, side, mode, r);
}

/// mul on f64: the error fma(x, y, -p) is exact while |p| >= 2^-967; below
/// that, the smaller factor is scaled by 2^400, the product rounded once
/// to the result's grid, and the side found from the scaled pair.
Value f64Product(Emitter &em, ValueRange in, Directed mode) {
  Type f64 = em.b.getF64Type();
  Value x = in[0], y = in[1];
  Value p = em.mul(x, y);
  Value e = em.fma(x, y, em.neg(p));
  Value tiny = em.cmp(Pred::olt, em.abs(p), em.f(f64, 0x1p-967));

  Value xSmaller = em.cmp(Pred::ole, em.abs(x), em.abs(y));
  Value u = em.mul(em.pick(xSmaller, x, y), em.f(f64, 0x1p400));
  Value v = em.pick(xSmaller, y, x);
  Value p2 = em.mul(u, v);
  Value e2 = em.fma(u, v, em.neg(p2));
  Value q = em.mul(p2, em.f(f64, 0x1p-400));
  Value t = em.sub(p2, em.mul(q, em.f(f64, 0x1p400)));
  // Both factors nonzero but the scaled product still underflowed: the
  // true product is nonzero, of the factors' sign, far below q = 0.
  Value nonzero = em.all(em.cmp0(Pred::one, x), em.cmp0(Pred::one, y));
  Value negative =
      LLVM::XOrOp::create(em.b, em.loc, em.signBit(x), em.signBit(y));
  Value positive = LLVM::XOrOp::create(em.b, em.loc, negative, em.flag(true));
  Value vanished = em.all(nonzero, em.cmp0(Pred::oeq, p2));
  Value t0 = em.cmp0(Pred::oeq, t), e0 = em.cmp0(Pred::oeq, e2);
  Value tinyAbove =
      em.any(em.cmp0(Pred::ogt, t),
             em.all(t0, em.any(em.cmp0(Pred::ogt, e2),
                               em.all(e0, em.all(vanished, positive)))));
  Value tinyBelow =
      em.any(em.cmp0(Pred::olt, t),
             em.all(t0, em.any(em.cmp0(Pred::olt, e2),
                               em.all(e0, em.all(vanished, negative)))));
  Value c = em.pick(tiny, q, p);
  Side side = {em.pick(tiny, tinyAbove, em.cmp0(Pred::ogt, e)),
               em.pick(tiny, tinyBelow, em.cmp0(Pred::olt, e))};
  return step(em, c, side, mode);
}

} // namespace

bool zluda::ptx::hasDirectedArith(FloatOp op, Type type) {
  if (type.isF32())
    return op == FloatOp::add || op == FloatOp::sub || op == FloatOp::mul ||
           op == FloatOp::fma || op == FloatOp::mad || op == FloatOp::div ||
           op == FloatOp::rcp || op == FloatOp::sqrt;
  if (type.isF64())
    return op == FloatOp::add || op == FloatOp::sub || op == FloatOp::mul ||
           op == FloatOp::div || op == FloatOp::rcp || op == FloatOp::sqrt ||
           op == FloatOp::fma || op == FloatOp::mad;
  return false;
}

Value zluda::ptx::directedArith(OpBuilder &b, Location loc, FloatOp op,
                                ValueRange in, Directed mode, bool ftz) {
  Emitter em{b, loc};
  Type t = in[0].getType();
  if (t.isF32())
    return op == FloatOp::div || op == FloatOp::rcp || op == FloatOp::sqrt
               ? f32ByResidual(em, op, in, mode, ftz)
               : f32ViaDouble(em, op, in, mode, ftz);
  if (op == FloatOp::div || op == FloatOp::rcp || op == FloatOp::sqrt)
    return f64ByResidual(em, op, in, mode);
  if (op == FloatOp::fma || op == FloatOp::mad)
    return f64Fma(em, in, mode);
  return op == FloatOp::mul ? f64Product(em, in, mode)
                            : f64Sum(em, op, in, mode);
}

bool zluda::ptx::hasDirectedConvert(Type from, Type to) {
  bool half = to.isF16() || to.isBF16();
  if (isa<IntegerType>(from))
    return from.getIntOrFloatBitWidth() <= 64 &&
           (to.isF32() || to.isF64() || half);
  if (from.isF64())
    return to.isF32() || half;
  if (from.isF32())
    return to.isF16() || to.isBF16();
  return false;
}

Value zluda::ptx::directedConvert(OpBuilder &b, Location loc, Value x,
                                  bool isSigned, Type to, Directed mode) {
  // Integers and f64 to halves through f32: a directed rounding to the f32
  // grid, then to the half grid (a subset of it), is the directed rounding
  // to the half grid.
  if ((to.isF16() || to.isBF16()) && !x.getType().isF32())
    return directedConvert(
        b, loc, directedConvert(b, loc, x, isSigned, b.getF32Type(), mode),
        false, to, mode);
  Emitter em{b, loc};
  Type from = x.getType(), f64 = b.getF64Type();
  Value s, e;
  if (auto it = dyn_cast<IntegerType>(from)) {
    auto toFloat = [&](Value v, bool s) -> Value {
      return s ? Value(LLVM::SIToFPOp::create(b, loc, f64, v))
               : Value(LLVM::UIToFPOp::create(b, loc, f64, v));
    };
    if (it.getWidth() <= 32) {
      s = toFloat(x, isSigned); // exact
      e = em.f(f64, 0.0);
    } else {
      // x = hi * 2^32 + lo with both halves exact in f64; TwoSum of the two.
      Type i64 = b.getI64Type(), i32 = b.getI32Type();
      Value shift = em.i(i64, 32);
      Value hi = LLVM::TruncOp::create(
          b, loc, i32,
          isSigned ? Value(LLVM::AShrOp::create(b, loc, x, shift))
                   : Value(LLVM::LShrOp::create(b, loc, x, shift)));
      Value lo = LLVM::TruncOp::create(b, loc, i32, x);
      Value dh = em.mul(toFloat(hi, isSigned), em.f(f64, 0x1p32));
      Value dl = toFloat(lo, false);
      s = em.add(dh, dl);
      e = twoSumError(em, dh, dl, s);
    }
  } else {
    s = x; // a wider float, exact
    e = em.f(from, 0.0);
  }
  if (to == s.getType())
    return step(em, s, {em.cmp0(Pred::ogt, e), em.cmp0(Pred::olt, e)}, mode);
  Value c = em.trunc(s, to);
  return step(em, c, sideOfPair(em, s, e, em.ext(c, s.getType())), mode);
}
