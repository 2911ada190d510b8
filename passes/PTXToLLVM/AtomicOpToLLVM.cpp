//===- AtomicOpToLLVM.cpp - Atomics and reductions ------------------------===//
//
// atom and red in every state space, with their scopes (TargetInfo's sync
// scopes) and orderings, packed and vector float adds, 128-bit cas/exch
// (critical sections on AMDGPU, compiler/Codegen/WideAtomics)
// (docs/lowering.md, "Memory model, atomics, synchronization").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// The failure ordering of a compare-and-swap with success ordering `ord`.
LLVM::AtomicOrdering failureOrdering(LLVM::AtomicOrdering ord) {
  using O = LLVM::AtomicOrdering;
  return ord == O::acq_rel   ? O::acquire
         : ord == O::release ? O::monotonic
                             : ord;
}

/// atom/red.add.f32 as the PTX ISA defines it — subnormal inputs (the
/// memory's value and the operand) and results flushed to sign-preserving
/// zero — for targets whose atomic add keeps subnormals: a call of
///   float __zluda_atom_add_ftz_f32.ORDERING.SCOPE(ptr p, float v)
/// (defined once per module; a compare-and-swap loop, inlined at O3), which
/// returns the memory's old value as it was.
Value atomicAddFlushF32(OpBuilder &b, Location loc, Operation *op,
                        const TargetInfo &target, Value ptr, Value v,
                        LLVM::AtomicOrdering ord, MemScope scope) {
  MLIRContext *ctx = b.getContext();
  auto module = op->getParentOfType<ModuleOp>();
  std::string name =
      ("__zluda_atom_add_ftz_f32." + LLVM::stringifyAtomicOrdering(ord) + "." +
       stringifyMemScope(scope))
          .str();
  auto flat = LLVM::LLVMPointerType::get(ctx, 0);
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
  if (!fn) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    fn = LLVM::LLVMFuncOp::create(b, loc, name,
                                  LLVM::LLVMFunctionType::get(f32, {flat, f32}),
                                  LLVM::Linkage::Internal);
    StringRef syncScope = target.getSyncScope(scope);
    Region &body = fn.getBody();
    Block *entry = b.createBlock(&body, body.end(), {flat, f32}, {loc, loc});
    Block *loop = b.createBlock(&body, body.end(), {i32}, {loc});
    Block *done = b.createBlock(&body, body.end(), {i32}, {loc});
    b.setInsertionPointToStart(entry);
    Value p = entry->getArgument(0);
    Value operand = flushDenormal(b, loc, entry->getArgument(1));
    Value first =
        LLVM::LoadOp::create(b, loc, i32, p, 4, false, false, false, false,
                             LLVM::AtomicOrdering::monotonic, syncScope);
    LLVM::BrOp::create(b, loc, ValueRange{first}, loop);
    b.setInsertionPointToStart(loop);
    Value old = loop->getArgument(0);
    Value sum = LLVM::FAddOp::create(
        b, loc,
        flushDenormal(b, loc, LLVM::BitcastOp::create(b, loc, f32, old)),
        operand);
    Value next =
        LLVM::BitcastOp::create(b, loc, i32, flushDenormal(b, loc, sum));
    auto cx = LLVM::AtomicCmpXchgOp::create(b, loc, p, old, next, ord,
                                            failureOrdering(ord), syncScope);
    Value seen = LLVM::ExtractValueOp::create(b, loc, cx, 0);
    Value swapped = LLVM::ExtractValueOp::create(b, loc, cx, 1);
    LLVM::CondBrOp::create(b, loc, swapped, done, ValueRange{old}, loop,
                           ValueRange{seen});
    b.setInsertionPointToStart(done);
    LLVM::ReturnOp::create(
        b, loc, LLVM::BitcastOp::create(b, loc, f32, done->getArgument(0)));
  }
  if (cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace() != 0)
    ptr = LLVM::AddrSpaceCastOp::create(b, loc, flat, ptr);
  return LLVM::CallOp::create(b, loc, fn, ValueRange{ptr, v}).getResult();
}

template <typename OpTy>
Results lowerAtom(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  Value ptr = l.pointer(b, loc, args[0], space);
  TypeKind kind = *mods.getType();
  Type t = semanticType(op.getContext(), kind);
  // PTX atomics without .sem are .relaxed; the default scope is .gpu.
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::monotonic);
  StringRef scope =
      l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu));
  ReduceOp redOp = *mods.getRedOp();
  MemScope memScope = mods.getScope().value_or(MemScope::gpu);
  bool returnsOld = op->getNumResults() > 0;
  // An element's read-modify-write: the target's own instruction where its
  // backend would lose the scope or ordering, else LLVM's.
  auto rmw = [&](LLVM::AtomicBinOp bin, TypeKind k, Value p, Value v) {
    bool halves = k == TypeKind::f16 || k == TypeKind::bf16 ||
                  k == TypeKind::f16x2 || k == TypeKind::bf16x2;
    std::string ptxOp = (stringifyReduceOp(redOp) +
                         (redOp == ReduceOp::add && halves ? ".noftz" : "") +
                         "." + stringifyTypeKind(k))
                            .str();
    Value old;
    if (l.target.createAtomicRMW(b, loc, ptxOp, p, v, ord, memScope, returnsOld,
                                 old))
      return old;
    if (bin == LLVM::AtomicBinOp::fadd && k == TypeKind::f32 &&
        !l.target.atomicAddF32FlushesSubnormals())
      return atomicAddFlushF32(b, loc, op.getOperation(), l.target, p, v, ord,
                               memScope);
    return Value(LLVM::AtomicRMWOp::create(b, loc, bin, p, v, ord, scope));
  };
  if (unsigned n = mods.getVec(); n > 1) {
    // atom/red.global.add.v2/.v4/.v8: each element is an atomic add of its
    // own (the PTX ISA makes each element atomic, not the vector).
    using B = LLVM::AtomicBinOp;
    B bin = isFloatType(kind) ? B::fadd : B::add;
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
      Value p = ptr;
      if (i)
        p = LLVM::GEPOp::create(
            b, loc, ptr.getType(), t, ptr,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value r = rmw(bin, kind, p, castTo(b, loc, args[1 + i], t));
      if (op->getNumResults())
        results.push_back(castTo(b, loc, r, op->getResult(i).getType()));
    }
    return results;
  }
  Value val = castTo(b, loc, args[1], t);
  Value r;
  if (redOp == ReduceOp::cas) {
    Value nv = castTo(b, loc, args[2], t);
    auto cx = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, val, nv, ord,
                                            failureOrdering(ord), scope);
    r = LLVM::ExtractValueOp::create(b, loc, cx, 0);
  } else {
    using B = LLVM::AtomicBinOp;
    bool isF = isFloatType(kind), s = isSignedIntType(kind);
    B bin;
    switch (redOp) {
    case ReduceOp::add:
      bin = isF ? B::fadd : B::add;
      break;
    case ReduceOp::exch:
      bin = B::xchg;
      break;
    case ReduceOp::and_:
      bin = B::_and;
      break;
    case ReduceOp::or_:
      bin = B::_or;
      break;
    case ReduceOp::xor_:
      bin = B::_xor;
      break;
    case ReduceOp::min:
      bin = isF ? B::fmin : s ? B::min : B::umin;
      break;
    case ReduceOp::max:
      bin = isF ? B::fmax : s ? B::max : B::umax;
      break;
    // PTX inc: old >= b ? 0 : old + 1; dec: old == 0 || old > b ? b : old - 1.
    case ReduceOp::inc:
      bin = B::uinc_wrap;
      break;
    case ReduceOp::dec:
      bin = B::udec_wrap;
      break;
    default:
      return op.emitError("unsupported: atomic .") << stringifyReduceOp(redOp);
    }
    r = rmw(bin, kind, ptr, val);
  }
  if (op->getNumResults() == 0)
    return SmallVector<Value>{};
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

std::string checkAtomic(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  std::optional<ReduceOp> red = mods ? mods.getRedOp() : std::nullopt;
  ModifierPolicy p;
  // Packed atomic adds (atom/red.add.noftz.f16x2) are elementwise; 128-bit
  // cas and exch are NVIDIA's instructions on sm_90 (on AMDGPU, which has
  // no 128-bit atomics, codegen makes them critical sections).
  p.packedHalves = red == ReduceOp::add;
  p.b128 = isa<AtomOp>(op) && (red == ReduceOp::cas || red == ReduceOp::exch);
  // Vector atomics (sm_90, .global): adds only (f32, halves, packed halves).
  return checkModifiers(op, p,
                        [&](ModifiersAttr m) -> std::optional<StringRef> {
                          if (m.getVec() && red != ReduceOp::add)
                            return "";
                          return std::nullopt;
                        });
}

} // namespace

void zluda::ptx::lowering::populateAtomicPatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  const TargetInfo &target,
                                                  LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerAtom<AtomOp>, checkAtomic);
  add(lowerAtom<RedOp>, checkAtomic);
}
