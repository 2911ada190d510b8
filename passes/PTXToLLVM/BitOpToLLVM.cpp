//===- BitOpToLLVM.cpp - Logic, shifts and bit fields ---------------------===//
//
// and, or, xor, not, cnot, popc, clz, brev, shl, shr, shf, bfe, bfi, bmsk,
// bfind, fns, lop3 and prmt, each as the PTX ISA defines it for every
// operand (shift amounts past the width, field positions and lengths past
// the word) where LLVM's instructions would be poison (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// and, or, xor, not, cnot (.pred, .b16, .b32, .b64), popc, clz, brev.
template <typename OpTy>
Results lowerLogic(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  Type resT = op->getResult(0).getType();
  bool isSigned = isSignedIntType(kind) || kind == TypeKind::s16x2;
  SmallVector<Value> in;
  for (Value a : args)
    in.push_back(castTo(b, loc, a, t));
  Value r;
  if constexpr (std::is_same_v<OpTy, AndOp>)
    r = LLVM::AndOp::create(b, loc, in[0], in[1]);
  else if constexpr (std::is_same_v<OpTy, OrOp>)
    r = LLVM::OrOp::create(b, loc, in[0], in[1]);
  else if constexpr (std::is_same_v<OpTy, XorOp>)
    r = LLVM::XOrOp::create(b, loc, in[0], in[1]);
  else if constexpr (std::is_same_v<OpTy, NotOp>)
    r = LLVM::XOrOp::create(b, loc, in[0], constInt(b, loc, t, -1));
  else if constexpr (std::is_same_v<OpTy, CnotOp>) {
    Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, in[0],
                                        constInt(b, loc, t, 0));
    r = LLVM::ZExtOp::create(b, loc, t, isZero);
  } else if constexpr (std::is_same_v<OpTy, PopcOp>)
    r = castTo(b, loc, LLVM::CtPopOp::create(b, loc, t, in[0]), b.getI32Type());
  else if constexpr (std::is_same_v<OpTy, ClzOp>)
    r = castTo(b, loc,
               LLVM::CountLeadingZerosOp::create(b, loc, t, in[0], false),
               b.getI32Type());
  else
    r = LLVM::BitReverseOp::create(b, loc, t, in[0]);
  return one(castTo(b, loc, r, resT, isSigned));
}

template <typename OpTy>
Results lowerShift(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  // PTX clamps shift amounts: past the width, shl and shr.u give 0 and
  // shr.s the sign. LLVM's shifts are poison there.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  Value amt32 = castTo(b, loc, args[1], b.getI32Type());
  Value max = constInt(b, loc, b.getI32Type(), w - 1);
  Value clamped = LLVM::UMinOp::create(b, loc, amt32, max);
  Value amt = castTo(b, loc, clamped, t);
  Value big =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, amt32, max);
  constexpr bool isShl = std::is_same_v<OpTy, ShlOp>;
  Value r;
  if (!isShl && isSignedIntType(*mods.getType())) {
    r = LLVM::AShrOp::create(b, loc, a, amt);
  } else {
    Value s = isShl ? Value(LLVM::ShlOp::create(b, loc, a, amt))
                    : Value(LLVM::LShrOp::create(b, loc, a, amt));
    r = LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0), s);
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit
/// of mask from bit `base` (included) upward for offset > 0, downward for
/// offset < 0; offset 0: base itself if its bit is set; none: 0xffffffff.
/// The first |offset| - 1 set bits on the search side are cleared (32 steps
/// at most), then the nearest one is taken. As NVIDIA's hardware computes
/// (measured on the H200): a base above 31 (undefined in the PTX ISA) finds
/// nothing, and offset INT32_MIN gives 0 whatever mask and base are.
template <typename OpTy>
Results lowerFns(OpTy op, ValueRange args, ModifiersAttr,
                 ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  using P = LLVM::ICmpPredicate;
  Value mask = castTo(b, loc, args[0], i32);
  Value rawBase = castTo(b, loc, args[1], i32);
  Value base = LLVM::AndOp::create(b, loc, rawBase, c(31));
  Value offset = castTo(b, loc, args[2], i32);
  Value positive = LLVM::ICmpOp::create(b, loc, P::sgt, offset, c(0));
  // Set bits to skip: offset - 1 upward, -offset - 1 (= ~offset) downward.
  Value skip = LLVM::SelectOp::create(
      b, loc, positive, LLVM::SubOp::create(b, loc, offset, c(1)),
      LLVM::XOrOp::create(b, loc, offset, c(-1)));
  Value up = LLVM::AndOp::create(b, loc, mask,
                                 LLVM::ShlOp::create(b, loc, c(-1), base));
  Value down = LLVM::AndOp::create(
      b, loc, mask,
      LLVM::LShrOp::create(b, loc, c(-1),
                           LLVM::SubOp::create(b, loc, c(31), base)));
  auto clz = [&](Value v) {
    return LLVM::CountLeadingZerosOp::create(b, loc, i32, v, false);
  };
  for (int64_t i = 0; i < 32; ++i) {
    Value more = LLVM::ICmpOp::create(b, loc, P::sgt, skip, c(i));
    up = LLVM::SelectOp::create(
        b, loc, more,
        LLVM::AndOp::create(b, loc, up, LLVM::SubOp::create(b, loc, up, c(1))),
        up);
    Value top = LLVM::SelectOp::create(
        b, loc, LLVM::ICmpOp::create(b, loc, P::eq, down, c(0)), c(0),
        LLVM::LShrOp::create(b, loc, c(INT32_MIN),
                             LLVM::AndOp::create(b, loc, clz(down), c(31))));
    down = LLVM::SelectOp::create(
        b, loc, more,
        LLVM::AndOp::create(b, loc, down,
                            LLVM::XOrOp::create(b, loc, top, c(-1))),
        down);
  }
  auto none = [&](Value v) {
    return LLVM::ICmpOp::create(b, loc, P::eq, v, c(0));
  };
  Value upPos = LLVM::SelectOp::create(
      b, loc, none(up), c(-1),
      LLVM::CountTrailingZerosOp::create(b, loc, i32, up, false));
  Value downPos = LLVM::SelectOp::create(
      b, loc, none(down), c(-1), LLVM::SubOp::create(b, loc, c(31), clz(down)));
  Value baseSet = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, mask, base), c(1));
  Value atBase = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::ne, baseSet, c(0)), base, c(-1));
  Value r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, offset, c(0)), atBase,
      LLVM::SelectOp::create(b, loc, positive, upPos, downPos));
  r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::ugt, rawBase, c(31)), c(-1), r);
  r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, offset, c(INT32_MIN)), c(0),
      r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerShf(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // shf.l: the high word of {b, a} << n; shf.r: the low word of {b, a} >> n.
  // .wrap takes n mod 32, .clamp min(n, 32) (32 gives a or b whole).
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value lo = castTo(b, loc, args[0], i32), hi = castTo(b, loc, args[1], i32);
  Value n = castTo(b, loc, args[2], i32);
  bool left = mods.getMode() == Mode::l;
  bool clamp = hasFlag(mods, Flag::clamp);
  Value r = left ? Value(LLVM::FshlOp::create(b, loc, hi, lo, n))
                 : Value(LLVM::FshrOp::create(b, loc, hi, lo, n));
  if (clamp) {
    Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                     constInt(b, loc, i32, 32));
    r = LLVM::SelectOp::create(b, loc, big, left ? lo : hi, r);
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// `v << n` and `v >> n` (logical) that give 0 when n >= the width, where
/// LLVM's shifts are poison.
Value shlOrZero(OpBuilder &b, Location loc, Value v, Value n) {
  Type t = v.getType();
  unsigned w = bitWidth(t);
  Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                   constInt(b, loc, t, w));
  Value safe = LLVM::AndOp::create(b, loc, n, constInt(b, loc, t, w - 1));
  return LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0),
                                LLVM::ShlOp::create(b, loc, v, safe));
}

Value lshrOrZero(OpBuilder &b, Location loc, Value v, Value n) {
  Type t = v.getType();
  unsigned w = bitWidth(t);
  Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                   constInt(b, loc, t, w));
  Value safe = LLVM::AndOp::create(b, loc, n, constInt(b, loc, t, w - 1));
  return LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0),
                                LLVM::LShrOp::create(b, loc, v, safe));
}

/// The low `count` bits set (all of them when count >= the width).
Value lowMask(OpBuilder &b, Location loc, Type t, Value count) {
  Value ones = constInt(b, loc, t, -1);
  return LLVM::XOrOp::create(b, loc, shlOrZero(b, loc, ones, count), ones);
}

template <typename OpTy>
Results lowerBfind(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  // The position of the most significant bit that differs from the sign
  // (signed) or is 1 (unsigned); .shiftamt gives width - 1 - position, the
  // left shift that brings it to the top. No such bit: 0xffffffff.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Type i32 = b.getI32Type();
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  if (isSignedIntType(*mods.getType())) {
    Value neg = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, a,
                                     constInt(b, loc, t, 0));
    a = LLVM::SelectOp::create(
        b, loc, neg, LLVM::XOrOp::create(b, loc, a, constInt(b, loc, t, -1)),
        a);
  }
  Value clz = castTo(
      b, loc, LLVM::CountLeadingZerosOp::create(b, loc, t, a, false), i32);
  bool shiftAmt = hasFlag(mods, Flag::shiftamt);
  Value r = shiftAmt ? clz
                     : Value(LLVM::SubOp::create(
                           b, loc, constInt(b, loc, i32, w - 1), clz));
  Value none = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, a,
                                    constInt(b, loc, t, 0));
  r = LLVM::SelectOp::create(b, loc, none, constInt(b, loc, i32, -1), r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerLop3(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // Bit i of the table is F(a, b, c) for a = i & 4, b = i & 2, c = i & 1
  // (ta = 0xF0, tb = 0xCC, tc = 0xAA): d is the OR of the selected
  // minterms, which LLVM folds to the few operations it needs.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  APInt lut;
  if (!matchPattern(op->getOperand(3), m_ConstantInt(&lut)))
    return op.emitError("unsupported: lop3 with a non-constant table");
  Value in[3], inv[3];
  Value ones = constInt(b, loc, i32, -1);
  for (int k = 0; k < 3; ++k) {
    in[k] = castTo(b, loc, args[k], i32);
    inv[k] = LLVM::XOrOp::create(b, loc, in[k], ones);
  }
  Value d = constInt(b, loc, i32, 0);
  for (unsigned i = 0; i < 8; ++i) {
    if (!lut[i])
      continue;
    Value term = LLVM::AndOp::create(b, loc, (i & 4) ? in[0] : inv[0],
                                     (i & 2) ? in[1] : inv[1]);
    term = LLVM::AndOp::create(b, loc, term, (i & 1) ? in[2] : inv[2]);
    d = LLVM::OrOp::create(b, loc, d, term);
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBfe(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: pos = b & 0xff, len = c & 0xff; bit i of d is a[pos + i] for
  // i < len and pos + i <= msb, else the sign bit a[min(pos + len - 1, msb)]
  // (signed types, len != 0) or 0.
  Location loc = op.getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  Value pos = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[1], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value len = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[2], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value wv = constInt(b, loc, t, w);
  Value posC = LLVM::UMinOp::create(b, loc, pos, wv);
  Value avail = LLVM::SubOp::create(b, loc, wv, posC);
  Value count = LLVM::UMinOp::create(b, loc, len, avail);
  Value mask = lowMask(b, loc, t, count);
  Value field = LLVM::AndOp::create(b, loc, lshrOrZero(b, loc, a, pos), mask);
  if (!isSignedIntType(kind))
    return one(castTo(b, loc, field, op->getResult(0).getType()));
  Value one1 = constInt(b, loc, t, 1);
  Value top =
      LLVM::SubOp::create(b, loc, LLVM::AddOp::create(b, loc, pos, len), one1);
  Value topC = LLVM::UMinOp::create(b, loc, top, constInt(b, loc, t, w - 1));
  Value sbitV =
      LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, a, topC), one1);
  Value lenZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, len,
                                       constInt(b, loc, t, 0));
  Value sbit =
      LLVM::SelectOp::create(b, loc, lenZero, constInt(b, loc, t, 0), sbitV);
  Value fill =
      LLVM::SubOp::create(b, loc, constInt(b, loc, t, 0), sbit); // 0 or ~0
  Value notMask = LLVM::XOrOp::create(b, loc, mask, constInt(b, loc, t, -1));
  Value d = LLVM::OrOp::create(b, loc, field,
                               LLVM::AndOp::create(b, loc, fill, notMask));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBfi(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: pos = c & 0xff, len = d & 0xff; f = b with bits pos + i
  // (i < len, pos + i <= msb) taken from a[i].
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t), base = castTo(b, loc, args[1], t);
  Value pos = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[2], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value len = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[3], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value wv = constInt(b, loc, t, w);
  Value count = LLVM::UMinOp::create(
      b, loc, len,
      LLVM::SubOp::create(b, loc, wv, LLVM::UMinOp::create(b, loc, pos, wv)));
  Value mask = shlOrZero(b, loc, lowMask(b, loc, t, count), pos);
  Value notMask = LLVM::XOrOp::create(b, loc, mask, constInt(b, loc, t, -1));
  Value ins = LLVM::AndOp::create(b, loc, shlOrZero(b, loc, a, pos), mask);
  Value f = LLVM::OrOp::create(b, loc,
                               LLVM::AndOp::create(b, loc, base, notMask), ins);
  return one(castTo(b, loc, f, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBmsk(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: a mask of b bits starting at bit a; .clamp treats a >= 32 or
  // b >= 32 as overflowing, .wrap takes both mod 32.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  bool clamp = hasFlag(mods, Flag::clamp);
  Value c31 = constInt(b, loc, i32, 31), c32 = constInt(b, loc, i32, 32);
  Value ones = constInt(b, loc, i32, -1), zero = constInt(b, loc, i32, 0);
  Value a1 = LLVM::AndOp::create(b, loc, a, c31);
  Value b1 = LLVM::AndOp::create(b, loc, bv, c31);
  Value mask0 = LLVM::ShlOp::create(b, loc, ones, a1);
  Value sum = LLVM::AddOp::create(b, loc, a1, b1);
  Value overflow =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, sum, c32);
  if (clamp) {
    Value posOver =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, a, c32);
    Value widthOver =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, bv, c32);
    mask0 = LLVM::SelectOp::create(b, loc, posOver, zero, mask0);
    overflow = LLVM::OrOp::create(
        b, loc, overflow, LLVM::OrOp::create(b, loc, posOver, widthOver));
  }
  Value mask1 =
      LLVM::ShlOp::create(b, loc, ones, LLVM::AndOp::create(b, loc, sum, c31));
  Value b1Zero =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, b1, zero);
  mask1 = LLVM::SelectOp::create(b, loc, b1Zero, ones, mask1);
  mask1 = LLVM::SelectOp::create(b, loc, overflow, zero, mask1);
  Value d = LLVM::AndOp::create(b, loc, mask0,
                                LLVM::XOrOp::create(b, loc, mask1, ones));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerPrmt(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: the bytes {b, a} numbered 7..0; each result byte takes the
  // byte its selector names. Default mode: a 4-bit selector per byte from
  // c, whose bit 3 replicates the byte's sign; other modes: c[1:0] picks a
  // fixed pattern.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  Value c = castTo(b, loc, args[2], i32);
  Value src = LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i64, a),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, bv),
                          constInt(b, loc, i64, 32)));
  // Selector nibbles (byte 3 .. byte 0) of each mode for c[1:0] = 0..3.
  static const uint16_t kPatterns[][4] = {
      /*f4e*/ {0x3210, 0x4321, 0x5432, 0x6543},
      /*b4e*/ {0x5670, 0x6701, 0x7012, 0x0123},
      /*rc8*/ {0x0000, 0x1111, 0x2222, 0x3333},
      /*ecl*/ {0x3210, 0x3211, 0x3222, 0x3333},
      /*ecr*/ {0x0000, 0x1110, 0x2210, 0x3210},
      /*rc16*/ {0x1010, 0x3232, 0x1010, 0x3232}};
  std::optional<Mode> mode = mods.getMode();
  Value sel = c;
  bool replicate = !mode;
  if (mode) {
    int row;
    switch (*mode) {
    case Mode::f4e:
      row = 0;
      break;
    case Mode::b4e:
      row = 1;
      break;
    case Mode::rc8:
      row = 2;
      break;
    case Mode::ecl:
      row = 3;
      break;
    case Mode::ecr:
      row = 4;
      break;
    default:
      row = 5;
      break; // rc16
    }
    Value idx = LLVM::AndOp::create(b, loc, c, constInt(b, loc, i32, 3));
    sel = constInt(b, loc, i32, kPatterns[row][0]);
    for (int k = 1; k < 4; ++k) {
      Value is = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, idx,
                                      constInt(b, loc, i32, k));
      sel = LLVM::SelectOp::create(
          b, loc, is, constInt(b, loc, i32, kPatterns[row][k]), sel);
    }
  }
  Value d = constInt(b, loc, i32, 0);
  for (int i = 0; i < 4; ++i) {
    Value nib = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, sel, constInt(b, loc, i32, 4 * i)),
        constInt(b, loc, i32, 0xf));
    Value idx = LLVM::AndOp::create(b, loc, nib, constInt(b, loc, i32, 7));
    Value shift = LLVM::ZExtOp::create(
        b, loc, i64,
        LLVM::ShlOp::create(b, loc, idx, constInt(b, loc, i32, 3)));
    Value byte = LLVM::AndOp::create(
        b, loc,
        LLVM::TruncOp::create(b, loc, i32,
                              LLVM::LShrOp::create(b, loc, src, shift)),
        constInt(b, loc, i32, 0xff));
    if (replicate) {
      Value rep = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, nib, constInt(b, loc, i32, 8)),
          constInt(b, loc, i32, 0));
      Value neg = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, byte, constInt(b, loc, i32, 0x80)),
          constInt(b, loc, i32, 0));
      Value fill = LLVM::SelectOp::create(
          b, loc, neg, constInt(b, loc, i32, 0xff), constInt(b, loc, i32, 0));
      byte = LLVM::SelectOp::create(b, loc, rep, fill, byte);
    }
    d = LLVM::OrOp::create(
        b, loc, d,
        LLVM::ShlOp::create(b, loc, byte, constInt(b, loc, i32, 8 * i)));
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// lop3 with its table a constant (what every producer writes).
std::string checkLop3(Operation *op, const TargetInfo &) {
  return checkModifiers(op, {}, [&](ModifiersAttr) -> std::optional<StringRef> {
    if (op->getNumResults() != 1 || op->getNumOperands() != 4 ||
        !matchPattern(op->getOperand(3), m_Constant()))
      return "";
    return std::nullopt;
  });
}

} // namespace

void zluda::ptx::lowering::populateBitPatterns(TypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const TargetInfo &target,
                                               LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerLogic<AndOp>);
  add(lowerLogic<OrOp>);
  add(lowerLogic<XorOp>);
  add(lowerLogic<NotOp>);
  add(lowerLogic<CnotOp>);
  add(lowerLogic<PopcOp>);
  add(lowerLogic<ClzOp>);
  add(lowerLogic<BrevOp>);
  add(lowerShift<ShlOp>);
  add(lowerShift<ShrOp>);
  add(lowerShf<ShfOp>);
  add(lowerBfe<BfeOp>);
  add(lowerBfi<BfiOp>);
  add(lowerBmsk<BmskOp>);
  add(lowerBfind<BfindOp>);
  add(lowerFns<FnsOp>);
  add(lowerLop3<Lop3Op>, checkLop3);
  add(lowerPrmt<PrmtOp>);
}
