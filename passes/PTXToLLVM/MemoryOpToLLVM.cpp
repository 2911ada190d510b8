//===- MemoryOpToLLVM.cpp - Loads, stores and the state spaces ------------===//
//
// ld, ldu, st (vectors, volatile, memory-model orderings, cache hints),
// prefetch, cvta, isspacep, cp.async (a synchronous copy where the target
// has no asynchronous one), alloca and the stack, function-scope variables
// and address arithmetic
// (docs/lowering.md, "Kernels, functions, memory" and "Memory model").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

struct AddrLowering : OpConversionPattern<AddrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value base = adaptor.getBase();
    Location loc = op.getLoc();
    if (isa<LLVM::LLVMPointerType>(base.getType())) {
      Value off = constInt(rewriter, loc, rewriter.getI64Type(),
                           static_cast<int64_t>(op.getOffset()));
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
          op, base.getType(), rewriter.getI8Type(), base, ValueRange{off});
      return success();
    }
    Value off = constInt(rewriter, loc, base.getType(),
                         static_cast<int64_t>(op.getOffset()));
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, base, off);
    return success();
  }
};

struct LocalVarLowering : TargetOpConversion<LocalVarOp> {
  using TargetOpConversion::TargetOpConversion;
  LogicalResult
  matchAndRewrite(LocalVarOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    uint64_t size = std::max<uint64_t>(getTypeBitWidth(op.getType()) / 8, 1);
    if (op.getVec())
      size *= *op.getVec();
    if (auto dims = op.getDims())
      for (int64_t d : *dims)
        size *= std::max<int64_t>(d, 1);
    Type bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), size);
    Type resultType = getTypeConverter()->convertType(op.getAddr().getType());
    if (op.getSpace() == StateSpace::shared) {
      // Function-scope .shared: a module-level LDS variable.
      auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
      auto module = op->getParentOfType<ModuleOp>();
      std::string name = (func ? func.getSymName() : StringRef("fn")).str() +
                         "." + op.getName().str();
      OpBuilder::InsertPoint ip = rewriter.saveInsertionPoint();
      rewriter.setInsertionPointToStart(module.getBody());
      auto g = LLVM::GlobalOp::create(
          rewriter, loc, bytes, false, LLVM::Linkage::Internal, name,
          Attribute(), op.getAlignment().value_or(4),
          target.getAddressSpace(StateSpace::shared));
      Block *b = rewriter.createBlock(&g.getInitializerRegion());
      rewriter.setInsertionPointToStart(b);
      LLVM::ReturnOp::create(
          rewriter, loc,
          LLVM::PoisonOp::create(rewriter, loc, bytes).getResult());
      rewriter.restoreInsertionPoint(ip);
      Value addr = LLVM::AddressOfOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(ctx, 3), name);
      rewriter.replaceOp(op, castTo(rewriter, loc, addr, resultType));
      return success();
    }
    // .local and call-site .param: stack memory.
    Value one = constInt(rewriter, loc, rewriter.getI32Type(), 1);
    Value alloca = createStackSlot(rewriter, loc, target, bytes, one,
                                   op.getAlignment().value_or(8));
    rewriter.replaceOp(op, castTo(rewriter, loc, alloca, resultType));
    return success();
  }
};

/// prefetch/prefetchu: hints, nothing to do.
template <typename OpTy>
Results lowerHint(OpTy, ValueRange, ModifiersAttr, ConversionPatternRewriter &,
                  const Lowering &) {
  return SmallVector<Value>{};
}

/// createpolicy: an opaque 64-bit L2 policy for the `.L2::cache_hint`
/// operands of loads, stores, copies and prefetches, whose hints are
/// dropped: any value will do, 0.
template <typename OpTy>
Results lowerCreatePolicy(OpTy op, ValueRange, ModifiersAttr,
                          ConversionPatternRewriter &b, const Lowering &) {
  return SmallVector<Value>{
      constInt(b, op.getLoc(), op->getResult(0).getType(), 0)};
}

template <typename OpTy>
Results lowerCpAsync(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  // cp.async as a synchronous copy: the thread's own later reads see it at
  // once, and other threads need a barrier after wait_group anyway. With a
  // source size below the copy size the rest is zero-filled.
  Location loc = op.getLoc();
  Attribute sizeAttr;
  matchPattern(op->getOperand(2), m_Constant(&sizeAttr));
  int64_t size = cast<IntegerAttr>(sizeAttr).getInt();
  Value dst = l.pointer(b, loc, args[0], StateSpace::shared);
  Value src = l.pointer(b, loc, args[1], StateSpace::global);
  bool hint = hasFlag(mods, Flag::L2_cache_hint);
  bool hasSrcSize = args.size() - (hint ? 1 : 0) >= 4;
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  // A target that copies asynchronously (NVPTX) does it as written.
  if (l.target.createAsyncCopy(b, loc, dst, src, size,
                               hasSrcSize ? castTo(b, loc, args[3], i32)
                                          : Value(),
                               mods.getCache() == CacheOp::cg))
    return SmallVector<Value>{};
  if (!hasSrcSize) {
    LLVM::MemcpyOp::create(b, loc, dst, src, constInt(b, loc, i32, size),
                           false);
    return SmallVector<Value>{};
  }
  Value srcSize = castTo(b, loc, args[3], i32);
  for (int64_t i = 0; i < size; ++i) {
    Value inRange = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                         constInt(b, loc, i32, i), srcSize);
    Value sp =
        LLVM::GEPOp::create(b, loc, src.getType(), i8, src,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value dp =
        LLVM::GEPOp::create(b, loc, dst.getType(), i8, dst,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    // Only bytes inside the source are read: a masked load (the source
    // address of the bytes past its size may be out of bounds, even all of
    // them with size 0), zero where the mask is off.
    auto v1i1 = VectorType::get({1}, b.getI1Type());
    auto v1i8 = VectorType::get({1}, i8);
    Value mask = LLVM::BitcastOp::create(b, loc, v1i1, inRange);
    Value zero = LLVM::ZeroOp::create(b, loc, v1i8);
    Value v = LLVM::MaskedLoadOp::create(b, loc, v1i8, sp, mask, zero, 1);
    Value byte = LLVM::BitcastOp::create(b, loc, i8, v);
    LLVM::StoreOp::create(b, loc, byte, dp, 1);
  }
  return SmallVector<Value>{};
}

/// cp.async.commit_group: nothing where the copies are synchronous.
template <typename OpTy>
Results lowerCpAsyncCommit(OpTy op, ValueRange, ModifiersAttr,
                           ConversionPatternRewriter &b, const Lowering &l) {
  l.target.createAsyncCopyCommit(b, op.getLoc());
  return SmallVector<Value>{};
}

/// cp.async.wait_group N, and wait_all (a commit, then wait_group 0).
template <typename OpTy>
Results lowerCpAsyncWait(OpTy op, ValueRange, ModifiersAttr,
                         ConversionPatternRewriter &b, const Lowering &l) {
  int64_t pending = 0;
  Attribute n;
  if (op->getNumOperands() && matchPattern(op->getOperand(0), m_Constant(&n)))
    pending = cast<IntegerAttr>(n).getInt();
  else
    l.target.createAsyncCopyCommit(b, op.getLoc());
  l.target.createAsyncCopyWait(b, op.getLoc(), pending);
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerCvta(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  StateSpace space = *mods.getSpace();
  bool toSpace = hasFlag(mods, Flag::to);
  MLIRContext *ctx = op.getContext();
  Value p =
      l.pointer(b, loc, args[0],
                toSpace ? std::nullopt : std::optional<StateSpace>(space));
  Type to = LLVM::LLVMPointerType::get(
      ctx, toSpace ? l.target.getAddressSpace(space) : 0);
  Value q = castTo(b, loc, p, to);
  return one(castTo(b, loc, q, op->getResult(0).getType()));
}

/// A vector load (`stored` null) or store of `bits` bits with memory-model
/// ordering `ord`, as one access: an atomic integer access up to 64 bits; a
/// volatile 128-bit access between fences above (LLVM has no 128-bit atomic
/// loads on these targets; both emit one 16-byte instruction, aligned as PTX
/// requires vectors to be). Returns the loaded integer.
Value vectorAccess(OpBuilder &b, Location loc, const Lowering &l, Value ptr,
                   unsigned bits, LLVM::AtomicOrdering ord,
                   std::optional<MemScope> scope, Value stored) {
  StringRef syncScope = l.target.getSyncScope(scope.value_or(MemScope::gpu));
  Type wt = b.getIntegerType(bits);
  unsigned align = bits / 8;
  if (bits <= 64) {
    if (stored) {
      auto st = LLVM::StoreOp::create(b, loc, stored, ptr, align);
      st.setOrdering(ord);
      st.setSyncscope(syncScope);
      return Value();
    }
    auto ld = LLVM::LoadOp::create(b, loc, wt, ptr, align);
    ld.setOrdering(ord);
    ld.setSyncscope(syncScope);
    return ld;
  }
  using AO = LLVM::AtomicOrdering;
  bool releases =
      ord == AO::release || ord == AO::acq_rel || ord == AO::seq_cst;
  bool acquires =
      ord == AO::acquire || ord == AO::acq_rel || ord == AO::seq_cst;
  if (stored ? releases : ord == AO::seq_cst)
    LLVM::FenceOp::create(b, loc, stored ? AO::release : AO::seq_cst,
                          syncScope);
  // As <4 x i32>: a volatile i128 would be split into two 64-bit accesses.
  Type vt = VectorType::get({static_cast<int64_t>(bits / 32)}, b.getI32Type());
  Value result;
  if (stored)
    LLVM::StoreOp::create(b, loc, LLVM::BitcastOp::create(b, loc, vt, stored),
                          ptr, align, /*isVolatile=*/true);
  else
    result = LLVM::BitcastOp::create(
        b, loc, wt,
        LLVM::LoadOp::create(b, loc, vt, ptr, align, /*isVolatile=*/true));
  if (stored ? ord == AO::seq_cst : acquires)
    LLVM::FenceOp::create(b, loc, stored ? AO::seq_cst : AO::acquire,
                          syncScope);
  return result;
}

template <typename OpTy>
Results lowerLd(OpTy op, ValueRange args, ModifiersAttr mods,
                ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  if (space == StateSpace::param)
    space.reset(); // reached through flat pointers
  Value ptr = l.pointer(b, loc, args[0], space);
  TypeKind kind = *mods.getType();
  Type t = semanticType(op.getContext(), kind);
  unsigned n = std::max(1u, mods.getVec());
  bool isVolatile = hasFlag(mods, Flag::volatile_);
  SmallVector<Value> results;
  unsigned bytes = std::max(1u, bitWidth(t) / 8);
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::not_atomic);
  if (n > 1 && ord != LLVM::AtomicOrdering::not_atomic) {
    // A vector with memory-model semantics is one access: CUB's look-back
    // reads a tile's status and value with one ld.relaxed.gpu.v2.u32 and
    // relies on both coming from the same store (split, the scan tore).
    unsigned w = bitWidth(t);
    Value whole = vectorAccess(b, loc, l, ptr, n * w, ord, mods.getScope(),
                               /*stored=*/Value());
    Type it = b.getIntegerType(w);
    for (unsigned i = 0; i < n; ++i) {
      Value e = LLVM::LShrOp::create(
          b, loc, whole,
          constInt(b, loc, whole.getType(), static_cast<int64_t>(i * w)));
      e = castTo(b, loc, LLVM::TruncOp::create(b, loc, it, e), t);
      results.push_back(
          castTo(b, loc, e, op->getResult(i).getType(), isSignedIntType(kind)));
    }
    return results;
  }
  for (unsigned i = 0; i < n; ++i) {
    Value p = ptr;
    if (i)
      p = LLVM::GEPOp::create(b, loc, ptr.getType(), t, ptr,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    auto ld = LLVM::LoadOp::create(b, loc, t, p, bytes * (i == 0 ? n : 1),
                                   isVolatile);
    if (ord != LLVM::AtomicOrdering::not_atomic) {
      ld.setOrdering(ord);
      ld.setSyncscope(
          l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu)));
    }
    results.push_back(
        castTo(b, loc, ld, op->getResult(i).getType(), isSignedIntType(kind)));
  }
  return results;
}

template <typename OpTy>
Results lowerSt(OpTy op, ValueRange args, ModifiersAttr mods,
                ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  if (space == StateSpace::param)
    space.reset();
  Value ptr = l.pointer(b, loc, args[0], space);
  // The `.L2::cache_hint` policy, last, is a dropped hint, not data.
  if (hasFlag(mods, Flag::L2_cache_hint))
    args = args.drop_back();
  Type t = semanticType(op.getContext(), *mods.getType());
  bool isVolatile = hasFlag(mods, Flag::volatile_);
  unsigned bytes = std::max(1u, bitWidth(t) / 8);
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::not_atomic);
  unsigned n = args.size() - 1;
  if (n > 1 && ord != LLVM::AtomicOrdering::not_atomic) {
    // One access for the whole vector (see lowerLd).
    unsigned w = bitWidth(t);
    Type wt = b.getIntegerType(n * w), it = b.getIntegerType(w);
    Value whole = constInt(b, loc, wt, 0);
    for (unsigned i = 0; i < n; ++i) {
      Value e = castTo(b, loc, castTo(b, loc, args[i + 1], t), it);
      e = LLVM::ZExtOp::create(b, loc, wt, e);
      e = LLVM::ShlOp::create(
          b, loc, e, constInt(b, loc, wt, static_cast<int64_t>(i * w)));
      whole = LLVM::OrOp::create(b, loc, whole, e);
    }
    vectorAccess(b, loc, l, ptr, n * w, ord, mods.getScope(), whole);
    return SmallVector<Value>{};
  }
  for (unsigned i = 1; i < args.size(); ++i) {
    Value p = ptr;
    if (i > 1)
      p = LLVM::GEPOp::create(
          b, loc, ptr.getType(), t, ptr,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i - 1)});
    auto st = LLVM::StoreOp::create(b, loc, castTo(b, loc, args[i], t), p,
                                    i == 1 ? bytes * (args.size() - 1) : bytes,
                                    isVolatile);
    if (ord != LLVM::AtomicOrdering::not_atomic) {
      st.setOrdering(ord);
      st.setSyncscope(
          l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu)));
    }
  }
  return SmallVector<Value>{};
}

/// The function behind `isspacep.const` (defineConstAddressTest).
constexpr StringLiteral constAddressTest = "__zluda_is_const_address";

/// `isspacep`: global, shared and local by the target's apertures
/// (TargetInfo::createIsSpace); `.const` by the module's own `.const`
/// variables, whose ranges a function tests once the module is lowered (a
/// generic address of constant data is a global one on both targets'
/// flat address maps, so no aperture tells it apart); `.param` by the
/// target (the kernel's parameter block).
template <typename OpTy>
Results lowerIsspacep(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Value ptr = l.pointer(b, loc, args[0], std::nullopt);
  if (*mods.getSpace() != StateSpace::const_)
    return one(l.target.createIsSpace(b, loc, *mods.getSpace(), ptr));
  return one(callAddressTest(b, loc, constAddressTest, ptr));
}

/// alloca.{u32,u64} d, size{, align}: `size` bytes of the thread's stack,
/// LLVM's dynamic alloca in the local address space, aligned to `align` (a
/// constant, at least the default 8); d is the .local address, which
/// cvta.local makes generic.
template <typename OpTy>
Results lowerAlloca(OpTy op, ValueRange args, ModifiersAttr,
                    ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  uint64_t align = 8;
  APInt requested;
  if (args.size() > 1 && matchPattern(args[1], m_ConstantInt(&requested)))
    align = std::max<uint64_t>(align, requested.getZExtValue());
  Value size = castTo(b, loc, args[0], b.getI64Type());
  Value p = createStackSlot(b, loc, l.target, b.getI8Type(), size,
                            static_cast<unsigned>(align));
  Type resultType = op->getResult(0).getType();
  return one(LLVM::PtrToIntOp::create(b, loc, resultType, p));
}

/// stacksave.{u32,u64} d / stackrestore.{u32,u64} a: the thread's stack
/// pointer (a .local address) before dynamic allocations, and back; in the
/// target's alloca address space, as createStackSlot's allocations.
template <typename OpTy>
Results lowerStackSave(OpTy op, ValueRange, ModifiersAttr,
                       ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned as = l.target.getAllocaAddressSpace();
  Value sp =
      LLVM::StackSaveOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, as));
  if (as != 5)
    sp = LLVM::AddrSpaceCastOp::create(b, loc,
                                       LLVM::LLVMPointerType::get(ctx, 5), sp);
  return one(LLVM::PtrToIntOp::create(b, loc, op->getResult(0).getType(), sp));
}

template <typename OpTy>
Results lowerStackRestore(OpTy op, ValueRange args, ModifiersAttr,
                          ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned as = l.target.getAllocaAddressSpace();
  Value sp = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 5), args[0]);
  if (as != 5)
    sp = LLVM::AddrSpaceCastOp::create(b, loc,
                                       LLVM::LLVMPointerType::get(ctx, as), sp);
  LLVM::StackRestoreOp::create(b, loc, sp);
  return SmallVector<Value>{};
}

/// cp.async: the size must be a constant; the `ignore-src` predicate form
/// is not lowered yet.
std::string checkCpAsync(Operation *op, const TargetInfo &) {
  return checkModifiers(op, {}, [&](ModifiersAttr) -> std::optional<StringRef> {
    Attribute size;
    if (op->getNumOperands() < 3 ||
        !matchPattern(op->getOperand(2), m_Constant(&size)))
      return " with a non-constant size";
    for (Value v : op->getOperands())
      if (v.getType().isInteger(1))
        return " with an ignore-src predicate";
    return std::nullopt;
  });
}

/// createpolicy: every form (fractional, range, cvt) and eviction priority
/// gives a policy whose only use is a dropped hint.
std::string checkCreatePolicy(Operation *, const TargetInfo &) { return ""; }

} // namespace

/// Gives `__zluda_is_const_address(p)` its body, once the module's globals
/// are lowered: whether p lies in one of the `.const` variables (the only
/// globals in the target's constant address space).
void zluda::ptx::lowering::defineConstAddressTest(ModuleOp module,
                                                  const TargetInfo &target) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(constAddressTest);
  if (!fn || !fn.getBody().empty())
    return;
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = fn.getLoc();
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  auto flat = LLVM::LLVMPointerType::get(ctx, 0);
  unsigned constSpace = target.getAddressSpace(StateSpace::const_);
  Block *entry = b.createBlock(&fn.getBody(), {}, {flat}, {loc});
  Value p = LLVM::PtrToIntOp::create(b, loc, i64, entry->getArgument(0));
  Value inside = LLVM::ConstantOp::create(b, loc, i1, 0);
  DataLayout layout(module);
  for (auto g : module.getOps<LLVM::GlobalOp>()) {
    if (g.getAddrSpace() != constSpace)
      continue;
    uint64_t size = layout.getTypeSize(g.getGlobalType()).getFixedValue();
    if (!size)
      continue;
    Value base = LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, constSpace), g.getSymName());
    base = LLVM::PtrToIntOp::create(
        b, loc, i64, LLVM::AddrSpaceCastOp::create(b, loc, flat, base));
    Value within = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ult, LLVM::SubOp::create(b, loc, p, base),
        constInt(b, loc, i64, static_cast<int64_t>(size)));
    inside = LLVM::OrOp::create(b, loc, inside, within);
  }
  LLVM::ReturnOp::create(b, loc, inside);
}

void zluda::ptx::lowering::populateMemoryPatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  const TargetInfo &target,
                                                  LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<AddrLowering>(converter, ctx);
  patterns.add<LocalVarLowering>(converter, ctx, target);
  InstPatterns add(converter, patterns, target, state);
  add(lowerLd<LdOp>);
  add(lowerLd<LduOp>);
  add(lowerSt<StOp>);
  add(lowerHint<PrefetchOp>);
  add(lowerHint<PrefetchuOp>);
  add(lowerCreatePolicy<CreatePolicyOp>, checkCreatePolicy);
  add(lowerCvta<CvtaOp>);
  add(lowerIsspacep<IsspacepOp>);
  add(lowerCpAsync<CpAsyncOp>, checkCpAsync);
  add(lowerCpAsyncCommit<CpAsyncCommitGroupOp>);
  add(lowerCpAsyncWait<CpAsyncWaitGroupOp>);
  add(lowerCpAsyncWait<CpAsyncWaitAllOp>);
  add(lowerAlloca<AllocaOp>);
  add(lowerStackSave<StacksaveOp>);
  add(lowerStackRestore<StackrestoreOp>);
}
