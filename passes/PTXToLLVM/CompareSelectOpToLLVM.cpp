//===- CompareSelectOpToLLVM.cpp - Comparisons and selections -------------===//
//
// setp (with .and/.or/.xor and both predicates), set, selp, slct and testp,
// for integers, floats (ordered and unordered, .ftz) and packed halves
// (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// The comparison of setp and set, in `t`, before any combination.
FailureOr<Value> compare(Operation *op, Value x, Value y, TypeKind kind,
                         ModifiersAttr mods, ConversionPatternRewriter &b) {
  Location loc = op->getLoc();
  CmpOp cmp = *mods.getCmp();
  if (isFloatType(kind)) {
    if (hasFlag(mods, Flag::ftz)) {
      x = flushDenormal(b, loc, x);
      y = flushDenormal(b, loc, y);
    }
    using P = LLVM::FCmpPredicate;
    P p;
    switch (cmp) {
    case CmpOp::eq:
      p = P::oeq;
      break;
    case CmpOp::ne:
      p = P::one;
      break;
    case CmpOp::lt:
      p = P::olt;
      break;
    case CmpOp::le:
      p = P::ole;
      break;
    case CmpOp::gt:
      p = P::ogt;
      break;
    case CmpOp::ge:
      p = P::oge;
      break;
    case CmpOp::equ:
      p = P::ueq;
      break;
    case CmpOp::neu:
      p = P::une;
      break;
    case CmpOp::ltu:
      p = P::ult;
      break;
    case CmpOp::leu:
      p = P::ule;
      break;
    case CmpOp::gtu:
      p = P::ugt;
      break;
    case CmpOp::geu:
      p = P::uge;
      break;
    case CmpOp::num:
      p = P::ord;
      break;
    case CmpOp::nan:
      p = P::uno;
      break;
    default:
      return op->emitError("unsupported: float comparison .")
             << stringifyCmpOp(cmp);
    }
    return Value(LLVM::FCmpOp::create(b, loc, p, x, y));
  }
  using P = LLVM::ICmpPredicate;
  bool s = isSignedIntType(kind);
  P p;
  switch (cmp) {
  case CmpOp::eq:
    p = P::eq;
    break;
  case CmpOp::ne:
    p = P::ne;
    break;
  case CmpOp::lt:
    p = s ? P::slt : P::ult;
    break;
  case CmpOp::le:
    p = s ? P::sle : P::ule;
    break;
  case CmpOp::gt:
    p = s ? P::sgt : P::ugt;
    break;
  case CmpOp::ge:
    p = s ? P::sge : P::uge;
    break;
  case CmpOp::lo:
    p = P::ult;
    break;
  case CmpOp::ls:
    p = P::ule;
    break;
  case CmpOp::hi:
    p = P::ugt;
    break;
  case CmpOp::hs:
    p = P::uge;
    break;
  default:
    return op->emitError("unsupported: integer comparison .")
           << stringifyCmpOp(cmp);
  }
  return Value(LLVM::ICmpOp::create(b, loc, p, x, y));
}

/// `.and/.or/.xor` with the predicate `c`.
Value combine(OpBuilder &b, Location loc, Value r, ModifiersAttr mods,
              Value c) {
  std::optional<BoolOp> boolOp = mods.getBoolOp();
  if (!boolOp)
    return r;
  switch (*boolOp) {
  case BoolOp::and_:
    return LLVM::AndOp::create(b, loc, r, c);
  case BoolOp::or_:
    return LLVM::OrOp::create(b, loc, r, c);
  case BoolOp::xor_:
    return LLVM::XOrOp::create(b, loc, r, c);
  }
  return r;
}

template <typename OpTy>
Results lowerSetp(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  auto c = compare(op, castTo(b, loc, args[0], t), castTo(b, loc, args[1], t),
                   kind, mods, b);
  if (failed(c))
    return failure();
  SmallVector<Value> results;
  if (isa<VectorType>(c->getType())) {
    // .f16x2/.bf16x2: p is the lower halves' comparison, q the upper's.
    for (int64_t i : {0, 1})
      results.push_back(LLVM::ExtractElementOp::create(
          b, loc, *c, constInt(b, loc, b.getI32Type(), i)));
  } else {
    // q (`setp d|q`) is not p; without it, no negation to clean up later.
    results = {*c};
    if (op->getNumResults() > 1)
      results.push_back(
          LLVM::XOrOp::create(b, loc, *c, constInt(b, loc, b.getI1Type(), 1)));
  }
  if (mods.getBoolOp()) {
    Value pc = castTo(b, loc, args[2], b.getI1Type());
    for (Value &r : results)
      r = combine(b, loc, r, mods, pc);
  }
  results.resize(op->getNumResults());
  return results;
}

template <typename OpTy>
Results lowerSet(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // set.cmp.dtype.stype: 1.0f or all ones when true, 0 when false.
  Location loc = op.getLoc();
  TypeKind dk = *mods.getType(0), sk = *mods.getType(1);
  Type st = semanticType(op.getContext(), sk);
  auto c = compare(op, castTo(b, loc, args[0], st), castTo(b, loc, args[1], st),
                   sk, mods, b);
  if (failed(c))
    return failure();
  Value r = *c;
  if (mods.getBoolOp())
    r = combine(b, loc, r, mods, castTo(b, loc, args[2], b.getI1Type()));
  Type dt = semanticType(op.getContext(), dk);
  Value d;
  if (auto vt = dyn_cast<VectorType>(dt)) {
    // Packed: each half is 1.0 or 0 of its own type.
    Type et = vt.getElementType();
    Value yes = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getFloatAttr(et, 1.0)));
    Value no = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getFloatAttr(et, 0.0)));
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  } else if (isa<VectorType>(r.getType())) {
    // Packed source, integer word: each half 0xffff when true, 0 if not.
    auto vt = VectorType::get({2}, b.getI16Type());
    Value yes = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getI16IntegerAttr(-1)));
    Value no = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getI16IntegerAttr(0)));
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  } else {
    Value yes = isFloatType(dk) ? constFloat(b, loc, dt, 1.0)
                                : constInt(b, loc, dt, -1);
    Value no =
        isFloatType(dk) ? constFloat(b, loc, dt, 0.0) : constInt(b, loc, dt, 0);
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// testp.{finite,infinite,number,notanumber,normal,subnormal} on f32/f64.
template <typename OpTy>
Results lowerTestp(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type t = semanticType(op.getContext(), *mods.getType());
  Value x = castTo(b, loc, args[0], t);
  Value mag = LLVM::FAbsOp::create(b, loc, x);
  auto cmp = [&](LLVM::FCmpPredicate p, Value v, double c) -> Value {
    return LLVM::FCmpOp::create(b, loc, p, v, constFloat(b, loc, t, c));
  };
  double minNormal = t.isF64() ? 0x1p-1022 : 0x1p-126;
  using P = LLVM::FCmpPredicate;
  Value r;
  switch (*mods.getMode()) {
  case Mode::finite:
    r = cmp(P::olt, mag, INFINITY);
    break;
  case Mode::infinite:
    r = cmp(P::oeq, mag, INFINITY);
    break;
  case Mode::number:
    r = LLVM::FCmpOp::create(b, loc, P::ord, x, x);
    break;
  case Mode::notanumber:
    r = LLVM::FCmpOp::create(b, loc, P::uno, x, x);
    break;
  case Mode::normal:
    // The PTX ISA counts +0 and -0 as normal (and NVIDIA's hardware does).
    r = LLVM::AndOp::create(b, loc,
                            LLVM::OrOp::create(b, loc,
                                               cmp(P::oge, mag, minNormal),
                                               cmp(P::oeq, mag, 0.0)),
                            cmp(P::olt, mag, INFINITY));
    break;
  default: // subnormal
    r = LLVM::AndOp::create(b, loc, cmp(P::olt, mag, minNormal),
                            cmp(P::one, mag, 0.0));
    break;
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// slct.dtype.{s32,f32} d, a, b, c: a if c >= 0, else b (.ftz flushes an
/// f32 c; a NaN c selects b).
template <typename OpTy>
Results lowerSlct(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type dt = semanticType(op.getContext(), *mods.getType(0)),
       ct = semanticType(op.getContext(), *mods.getType(1));
  Value c = castTo(b, loc, args[2], ct);
  Value take;
  if (ct.isF32()) {
    if (hasFlag(mods, Flag::ftz))
      c = flushDenormal(b, loc, c);
    take = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oge, c,
                                constFloat(b, loc, ct, 0.0));
  } else {
    take = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, c,
                                constInt(b, loc, ct, 0));
  }
  Value r = LLVM::SelectOp::create(b, loc, take, castTo(b, loc, args[0], dt),
                                   castTo(b, loc, args[1], dt));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerSelp(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value r = LLVM::SelectOp::create(
      b, loc, castTo(b, loc, args[2], b.getI1Type()),
      castTo(b, loc, args[0], t), castTo(b, loc, args[1], t));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// setp and set compare packed halves elementwise.
std::string checkCompare(Operation *op, const TargetInfo &) {
  ModifierPolicy p;
  p.packedHalves = true;
  return checkModifiers(op, p);
}

} // namespace

void zluda::ptx::lowering::populateCompareSelectPatterns(
    TypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target, LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerSetp<SetpOp>, checkCompare);
  add(lowerSet<SetOp>, checkCompare);
  add(lowerSelp<SelpOp>);
  add(lowerSlct<SlctOp>);
  add(lowerTestp<TestpOp>);
}
