//===- LoweringUtils.cpp - Helpers the lowering's families share ---------===//
//
// The helpers of PatternPTXToLLVM.h: types, casts, constants, float
// modifiers, stack slots, and the patterns' context.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;

namespace zluda::ptx::lowering {

/// The LLVM type an instruction computes in for PTX type `kind`.
Type semanticType(MLIRContext *ctx, TypeKind kind) {
  switch (kind) {
  case TypeKind::f16x2:
    return VectorType::get({2}, Float16Type::get(ctx));
  case TypeKind::bf16x2:
    return VectorType::get({2}, BFloat16Type::get(ctx));
  case TypeKind::u16x2:
  case TypeKind::s16x2:
    return VectorType::get({2}, IntegerType::get(ctx, 16));
  case TypeKind::pred:
    return IntegerType::get(ctx, 1);
  default:
    return getRegisterType(ctx, kind);
  }
}

unsigned bitWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  if (isa<LLVM::LLVMPointerType>(t))
    return 64;
  return t.getIntOrFloatBitWidth();
}

/// Converts `v` to `to`: same width by bitcast, integers by truncation or
/// extension (`signExtend` for signed PTX types), pointers by ptrtoint.
Value castTo(OpBuilder &b, Location loc, Value v, Type to, bool signExtend) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<LLVM::LLVMPointerType>(from)) {
    if (isa<LLVM::LLVMPointerType>(to))
      return LLVM::AddrSpaceCastOp::create(b, loc, to, v);
    Value i = LLVM::PtrToIntOp::create(
        b, loc, b.getIntegerType(bitWidth(to) == 32 ? 32 : 64), v);
    return castTo(b, loc, i, to, signExtend);
  }
  unsigned fw = bitWidth(from), tw = bitWidth(to);
  if (fw == tw)
    return LLVM::BitcastOp::create(b, loc, to, v);
  // Different widths: go through integers.
  Type fromInt = b.getIntegerType(fw), toInt = b.getIntegerType(tw);
  Value i = castTo(b, loc, v, fromInt);
  Value r = tw < fw      ? Value(LLVM::TruncOp::create(b, loc, toInt, i))
            : signExtend ? Value(LLVM::SExtOp::create(b, loc, toInt, i))
                         : Value(LLVM::ZExtOp::create(b, loc, toInt, i));
  return castTo(b, loc, r, to);
}

Value constInt(OpBuilder &b, Location loc, Type t, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
}

Value constFloat(OpBuilder &b, Location loc, Type t, double v) {
  if (auto vt = dyn_cast<VectorType>(t))
    return LLVM::ConstantOp::create(
        b, loc, t,
        DenseElementsAttr::get(vt, b.getFloatAttr(vt.getElementType(), v)));
  return LLVM::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
}

/// The smallest normal magnitude of the types `.ftz` applies to (f32 and
/// f16, scalars or pairs); 0 for the others.
double ftzMinNormal(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF32()   ? 0x1p-126
         : e.isF16() ? 0x1p-14
         : e.isF64() ? 0x1p-1022
                     : 0.0;
}

/// `.ftz` on f32 and f16 (scalars or pairs), and on f64 where PTX has it
/// (rcp/rsqrt.approx.ftz.f64): subnormal inputs and results become zero of
/// the same sign.
Value flushDenormal(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  double minNormal = ftzMinNormal(t);
  if (minNormal == 0.0)
    return v;
  Value absV = LLVM::FAbsOp::create(b, loc, v);
  Value tiny = constFloat(b, loc, t, minNormal);
  Value isSub =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, absV, tiny);
  Value zero = LLVM::CopySignOp::create(b, loc, constFloat(b, loc, t, 0.0), v);
  return LLVM::SelectOp::create(b, loc, isSub, zero, v);
}

/// `.sat` on floats: clamp to [0, 1], NaN to +0.
Value saturate(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  Value zero = constFloat(b, loc, t, 0.0), one = constFloat(b, loc, t, 1.0);
  Value gt0 = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, v, zero);
  Value r = LLVM::SelectOp::create(b, loc, gt0, v, zero);
  Value lt1 = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, r, one);
  return LLVM::SelectOp::create(b, loc, lt1, r, one);
}

/// Stack memory for `count` values of `elem`: an alloca in the target's
/// alloca address space, as an addrspace(5) (.local) pointer.
Value createStackSlot(OpBuilder &b, Location loc, const TargetInfo &target,
                      Type elem, Value count, unsigned align) {
  MLIRContext *ctx = b.getContext();
  unsigned as = target.getAllocaAddressSpace();
  Value slot = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, as), elem, count, align);
  if (as != 5)
    slot = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 5), slot);
  return slot;
}

/// Whether the instruction carries the modifier flag `f`.
bool hasFlag(ModifiersAttr mods, Flag f) {
  return bitEnumContainsAny(mods.getFlags(), f);
}

/// The directed mode of a float rounding modifier (.rz .rm .rp), if any.
std::optional<Directed> directedMode(std::optional<RoundingMode> r) {
  if (r == RoundingMode::rz)
    return Directed::towardZero;
  if (r == RoundingMode::rm)
    return Directed::down;
  if (r == RoundingMode::rp)
    return Directed::up;
  return std::nullopt;
}

Results one(Value v) { return SmallVector<Value>{v}; }

/// The instruction type's LLVM type, and the operands converted to it.
Type instType(Operation *op, ModifiersAttr mods, unsigned i) {
  return semanticType(op->getContext(), *mods.getType(i));
}

/// The high half of the double-width product of `x` and `y` (mul.hi).
Value mulHigh(OpBuilder &b, Location loc, Value x, Value y, bool isSigned) {
  Type t = x.getType();
  unsigned w = bitWidth(t);
  Type wide = b.getIntegerType(2 * w);
  auto ext = [&](Value v) -> Value {
    return isSigned ? Value(LLVM::SExtOp::create(b, loc, wide, v))
                    : Value(LLVM::ZExtOp::create(b, loc, wide, v));
  };
  Value p = LLVM::MulOp::create(b, loc, ext(x), ext(y));
  Value sh = LLVM::LShrOp::create(b, loc, p, constInt(b, loc, wide, w));
  return LLVM::TruncOp::create(b, loc, t, sh);
}

/// An integer constant of type `t`: a scalar, or a splat vector.
Value splatInt(OpBuilder &b, Location loc, Type t, int64_t v) {
  if (auto vt = dyn_cast<VectorType>(t))
    return LLVM::ConstantOp::create(
        b, loc, t,
        DenseElementsAttr::get(vt, b.getIntegerAttr(vt.getElementType(), v)));
  return constInt(b, loc, t, v);
}

/// The integer type of a float type's bits (f32 -> i32, vector<2xf16> ->
/// vector<2xi16>).
Type bitsType(Type t) {
  if (auto vt = dyn_cast<VectorType>(t))
    return VectorType::get(vt.getShape(), bitsType(vt.getElementType()));
  return IntegerType::get(t.getContext(), t.getIntOrFloatBitWidth());
}

/// NVIDIA's canonical NaN (all ones but the sign) where `bad` holds.
Value canonicalNaNIf(OpBuilder &b, Location loc, Value bad, Value v) {
  Type t = v.getType(), it = bitsType(t);
  unsigned w = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
  Value canon = LLVM::BitcastOp::create(
      b, loc, t,
      splatInt(b, loc, it,
               static_cast<int64_t>(
                   llvm::APInt::getSignedMaxValue(w).getZExtValue())));
  return LLVM::SelectOp::create(b, loc, bad, canon, v);
}

/// `.relu` on a float result: negative values and -0 become +0 (as NVIDIA's
/// hardware gives), NaN the canonical NaN (fma.relu, cvt.relu).
Value floatRelu(OpBuilder &b, Location loc, Value r) {
  Type t = r.getType();
  Value zero =
      LLVM::BitcastOp::create(b, loc, t, splatInt(b, loc, bitsType(t), 0));
  Value negative =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ole, r, zero);
  r = LLVM::SelectOp::create(b, loc, negative, zero, r);
  return canonicalNaNIf(
      b, loc, LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, r, r), r);
}

LLVM::AtomicOrdering ordering(std::optional<MemSemantics> sem,
                              LLVM::AtomicOrdering dflt) {
  if (!sem)
    return dflt;
  switch (*sem) {
  case MemSemantics::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantics::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantics::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantics::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  case MemSemantics::sc:
    return LLVM::AtomicOrdering::seq_cst;
  case MemSemantics::weak:
    return LLVM::AtomicOrdering::not_atomic;
  }
  return dflt;
}

Value Lowering::carrySlot(OpBuilder &b, Operation *op) const {
  auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
  Value &slot = state.carrySlots[func];
  if (slot)
    return slot;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  Location loc = func.getLoc();
  Type i32 = b.getI32Type();
  Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
  slot = createStackSlot(b, loc, target, i32, one, 4);
  LLVM::StoreOp::create(b, loc, LLVM::ConstantOp::create(b, loc, i32, 0), slot);
  return slot;
}

Value Lowering::pointer(OpBuilder &b, Location loc, Value addr,
                        std::optional<StateSpace> space) const {
  MLIRContext *ctx = b.getContext();
  unsigned as = space ? target.getAddressSpace(*space) : 0;
  auto ptrTy = LLVM::LLVMPointerType::get(ctx, as);
  if (isa<LLVM::LLVMPointerType>(addr.getType()))
    return castTo(b, loc, addr, ptrTy);
  // 32-bit address spaces take the low half of a 64-bit address.
  unsigned ptrBits = (as == 3 || as == 5) ? 32 : 64;
  Value i = castTo(b, loc, addr, b.getIntegerType(ptrBits));
  return LLVM::IntToPtrOp::create(b, loc, ptrTy, i);
}

} // namespace zluda::ptx::lowering

StringRef zluda::ptx::stringifyFloatOp(FloatOp op) {
  switch (op) {
  case FloatOp::add:
    return "add";
  case FloatOp::sub:
    return "sub";
  case FloatOp::mul:
    return "mul";
  case FloatOp::mad:
    return "mad";
  case FloatOp::fma:
    return "fma";
  case FloatOp::div:
    return "div";
  case FloatOp::rcp:
    return "rcp";
  case FloatOp::sqrt:
    return "sqrt";
  case FloatOp::rsqrt:
    return "rsqrt";
  case FloatOp::sin:
    return "sin";
  case FloatOp::cos:
    return "cos";
  case FloatOp::ex2:
    return "ex2";
  case FloatOp::lg2:
    return "lg2";
  case FloatOp::tanh:
    return "tanh";
  }
  llvm_unreachable("unknown float op");
}
