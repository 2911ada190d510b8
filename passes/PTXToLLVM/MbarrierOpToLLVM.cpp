//===- MbarrierOpToLLVM.cpp - Barrier objects and bulk copies -------------===//
//
// mbarrier (init, arrive, arrive_drop, expect_tx, complete_tx, test_wait,
// try_wait, pending_count, inval), cp.async.mbarrier.arrive and the
// non-tensor bulk copies (cp.async.bulk, its groups and L2 prefetch): what
// CCCL 3's sm_90 kernels and pipelined copies use (docs/lowering.md,
// "Barrier objects and bulk copies"). A target with NVIDIA's own
// instructions keeps them (NativeOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// An mbarrier object is the 64-bit word PTX gives it, in our layout:
/// bits [0, 21) the arrivals still pending in the current phase, [21, 42)
/// the arrivals a phase expects (the init count less the drops), [42, 63)
/// the pending transaction count (two's complement: bytes may complete
/// before they are expected), bit 63 the parity of the current phase. The
/// counts are at most 2^20 - 1, as PTX bounds them.
constexpr int64_t countBits = 21;
constexpr int64_t countMask = (int64_t(1) << countBits) - 1;

constexpr StringLiteral updateFunction = "__zluda_mbarrier_update";

/// The mbarrier's address operand `addr` as a pointer: LDS for the shared
/// spaces (a `.shared::cluster` address is the CTA's own in a launch
/// without clusters), else generic.
Value mbarrierPointer(OpBuilder &b, Location loc, const Lowering &l, Value addr,
                      ModifiersAttr mods) {
  bool shared = llvm::any_of(mods.getSpaces(), [](StateSpace s) {
    return s == StateSpace::shared || s == StateSpace::shared_cta ||
           s == StateSpace::shared_cluster;
  });
  return l.pointer(b, loc, addr,
                   shared ? std::optional<StateSpace>(StateSpace::shared)
                          : std::nullopt);
}

/// i64 __zluda_mbarrier_update[.as<N>](ptr mbar, i64 arrivals, i64 drops,
/// i64 tx), defined once per module and address space: in one
/// compare-and-swap (acquire-release, CTA scope), the pending arrivals less
/// `arrivals`, the expected arrivals less `drops`, the transaction count
/// plus `tx`; when no arrival and no transaction is left pending, the phase
/// completes: its parity flips and the pending arrivals are the expected
/// ones again. Returns the word before: the state `mbarrier.arrive` gives
/// (its pending count the one before this arrival, as NVIDIA's is: measured
/// on the H200, test/emu/kernels/mbarrier.ptx).
std::string defineUpdate(OpBuilder &b, ModuleOp module, Location loc,
                         Type ptrType, const TargetInfo &target) {
  unsigned as = cast<LLVM::LLVMPointerType>(ptrType).getAddressSpace();
  std::string name = updateFunction.str();
  if (as != 0)
    name += ".as" + std::to_string(as);
  if (SymbolTable::lookupSymbolIn(module, name))
    return name;
  OpBuilder::InsertionGuard guard(b);
  Type i64 = b.getI64Type();
  b.setInsertionPointToEnd(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(
      b, loc, name, LLVM::LLVMFunctionType::get(i64, {ptrType, i64, i64, i64}),
      LLVM::Linkage::Internal);
  Region &body = fn.getBody();
  Block *entry = b.createBlock(&body, body.end(), {ptrType, i64, i64, i64},
                               {loc, loc, loc, loc});
  Block *cas = b.createBlock(&body, body.end(), {i64}, {loc});
  Block *exit = b.createBlock(&body, body.end(), {i64}, {loc});
  auto c = [&](int64_t v) { return constInt(b, loc, i64, v); };
  StringRef cta = target.getSyncScope(MemScope::cta);
  Value word = entry->getArgument(0), arrivals = entry->getArgument(1),
        drops = entry->getArgument(2), tx = entry->getArgument(3);

  b.setInsertionPointToStart(entry);
  Value first =
      LLVM::LoadOp::create(b, loc, i64, word, 8, false, false, false, false,
                           LLVM::AtomicOrdering::monotonic, cta);
  LLVM::BrOp::create(b, loc, ValueRange{first}, cas);

  b.setInsertionPointToStart(cas);
  Value old = cas->getArgument(0);
  auto field = [&](int64_t shift) {
    return LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, old, c(shift)), c(countMask));
  };
  Value pending = LLVM::SubOp::create(b, loc, field(0), arrivals);
  Value expected = LLVM::SubOp::create(b, loc, field(countBits), drops);
  // The transaction count, sign-extended from its 21 bits.
  Value txCount = LLVM::AShrOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, old, c(1)), c(64 - countBits));
  txCount = LLVM::AddOp::create(b, loc, txCount, tx);
  Value parity = LLVM::LShrOp::create(b, loc, old, c(63));
  auto isZero = [&](Value v) {
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                LLVM::AndOp::create(b, loc, v, c(countMask)),
                                c(0));
  };
  Value completes =
      LLVM::AndOp::create(b, loc, isZero(pending), isZero(txCount));
  Value nextPending =
      LLVM::SelectOp::create(b, loc, completes, expected, pending);
  Value nextParity = LLVM::XOrOp::create(
      b, loc, parity, LLVM::ZExtOp::create(b, loc, i64, completes));
  auto pack = [&](Value pend, Value exp, Value txc, Value par) {
    Value v = LLVM::AndOp::create(b, loc, pend, c(countMask));
    v = LLVM::OrOp::create(
        b, loc, v,
        LLVM::ShlOp::create(b, loc,
                            LLVM::AndOp::create(b, loc, exp, c(countMask)),
                            c(countBits)));
    v = LLVM::OrOp::create(
        b, loc, v,
        LLVM::ShlOp::create(b, loc,
                            LLVM::AndOp::create(b, loc, txc, c(countMask)),
                            c(2 * countBits)));
    return LLVM::OrOp::create(b, loc, v,
                              LLVM::ShlOp::create(b, loc, par, c(63)));
  };
  Value next = pack(nextPending, expected, txCount, nextParity);
  auto swap = LLVM::AtomicCmpXchgOp::create(
      b, loc, word, old, next, LLVM::AtomicOrdering::acq_rel,
      LLVM::AtomicOrdering::monotonic, cta);
  Value seen = LLVM::ExtractValueOp::create(b, loc, swap, 0);
  Value done = LLVM::ExtractValueOp::create(b, loc, swap, 1);
  LLVM::CondBrOp::create(b, loc, done, exit, ValueRange{old}, cas,
                         ValueRange{seen});

  b.setInsertionPointToStart(exit);
  LLVM::ReturnOp::create(b, loc, exit->getArgument(0));
  return name;
}

/// Calls the update of the mbarrier at `ptr`; returns the state.
Value update(OpBuilder &b, Operation *op, const Lowering &l, Value ptr,
             Value arrivals, Value drops, Value tx) {
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  std::string name = defineUpdate(b, op->getParentOfType<ModuleOp>(), loc,
                                  ptr.getType(), l.target);
  auto wide = [&](Value v) {
    return castTo(b, loc, v, i64, /*signExtend=*/true);
  };
  return LLVM::CallOp::create(
             b, loc, TypeRange{i64}, name,
             ValueRange{ptr, wide(arrivals), wide(drops), wide(tx)})
      .getResult();
}

Value i64Const(OpBuilder &b, Location loc, int64_t v) {
  return constInt(b, loc, b.getI64Type(), v);
}

/// mbarrier.init [a], count: every count pending and expected, no
/// transactions, phase 0.
template <typename OpTy>
Results lowerInit(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  Value ptr = mbarrierPointer(b, loc, l, args[0], mods);
  Value count = LLVM::AndOp::create(b, loc, castTo(b, loc, args[1], i64),
                                    i64Const(b, loc, countMask));
  Value word = LLVM::OrOp::create(
      b, loc, count,
      LLVM::ShlOp::create(b, loc, count, i64Const(b, loc, countBits)));
  LLVM::StoreOp::create(b, loc, word, ptr, 8, false, false, false,
                        LLVM::AtomicOrdering::monotonic,
                        l.target.getSyncScope(MemScope::cta));
  return SmallVector<Value>{};
}

/// mbarrier.arrive / arrive_drop [a] {, count | , txCount}: `count`
/// arrivals (1 by default; with `.expect_tx` one arrival after expecting
/// the transaction bytes), dropped from the expected count too for
/// arrive_drop. `.noComplete` promises the arrival does not complete the
/// phase: nothing to do.
template <typename OpTy, bool Drop>
Results lowerArrive(OpTy op, ValueRange args, ModifiersAttr mods,
                    ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Value ptr = mbarrierPointer(b, loc, l, args[0], mods);
  bool expectTx = hasFlag(mods, Flag::expect_tx);
  Value count = !expectTx && args.size() > 1 ? args[1] : i64Const(b, loc, 1);
  Value tx = expectTx ? args[1] : i64Const(b, loc, 0);
  Value state =
      update(b, op, l, ptr, count, Drop ? count : i64Const(b, loc, 0), tx);
  SmallVector<Value> results;
  if (op->getNumResults())
    results.push_back(castTo(b, loc, state, op->getResult(0).getType()));
  return results;
}

/// mbarrier.expect_tx / complete_tx [a], txCount.
template <typename OpTy, bool Complete>
Results lowerTx(OpTy op, ValueRange args, ModifiersAttr mods,
                ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Value ptr = mbarrierPointer(b, loc, l, args[0], mods);
  Value tx = castTo(b, loc, args[1], b.getI64Type(), true);
  if (Complete)
    tx = LLVM::SubOp::create(b, loc, i64Const(b, loc, 0), tx);
  Value zero = i64Const(b, loc, 0);
  update(b, op, l, ptr, zero, zero, tx);
  return SmallVector<Value>{};
}

/// mbarrier.test_wait / try_wait [a], state | phaseParity {, hint}: whether
/// the phase of the state (or of that parity) has completed, i.e. the
/// current phase's parity differs, read with acquire ordering. try_wait
/// may return false before its time limit: it does at once.
template <typename OpTy>
Results lowerWait(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type i64 = b.getI64Type();
  Value ptr = mbarrierPointer(b, loc, l, args[0], mods);
  Value now = LLVM::LoadOp::create(b, loc, i64, ptr, 8, false, false, false,
                                   false, LLVM::AtomicOrdering::acquire,
                                   l.target.getSyncScope(MemScope::cta));
  Value parity = LLVM::LShrOp::create(b, loc, now, i64Const(b, loc, 63));
  Value waited =
      hasFlag(mods, Flag::parity)
          ? LLVM::AndOp::create(b, loc, castTo(b, loc, args[1], i64),
                                i64Const(b, loc, 1))
                .getResult()
          : LLVM::LShrOp::create(b, loc, castTo(b, loc, args[1], i64),
                                 i64Const(b, loc, 63))
                .getResult();
  Value done =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, parity, waited);
  return one(castTo(b, loc, done, op->getResult(0).getType()));
}

/// mbarrier.pending_count d, state: the arrivals that were pending when the
/// arrival that gave the state was made (NVIDIA's answer).
template <typename OpTy>
Results lowerPendingCount(OpTy op, ValueRange args, ModifiersAttr,
                          ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Value count =
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[0], b.getI64Type()),
                          i64Const(b, loc, countMask));
  return one(castTo(b, loc, count, op->getResult(0).getType()));
}

/// cp.async.mbarrier.arrive [a]: the thread's cp.async copies are already
/// complete (MemoryOpToLLVM.cpp), so the arrival they trigger happens now.
/// Without `.noinc` the pending count is raised by one first: no change.
template <typename OpTy>
Results lowerCpAsyncArrive(OpTy op, ValueRange args, ModifiersAttr mods,
                           ConversionPatternRewriter &b, const Lowering &l) {
  if (!hasFlag(mods, Flag::noinc))
    return SmallVector<Value>{};
  Location loc = op.getLoc();
  Value ptr = mbarrierPointer(b, loc, l, args[0], mods);
  Value zero = i64Const(b, loc, 0);
  update(b, op, l, ptr, i64Const(b, loc, 1), zero, zero);
  return SmallVector<Value>{};
}

bool isSharedSpace(std::optional<StateSpace> s) {
  return s && (*s == StateSpace::shared || *s == StateSpace::shared_cta ||
               *s == StateSpace::shared_cluster);
}

/// cp.async.bulk.dst.src [d], [s], size {, [mbar]} {, policy}: a
/// synchronous copy of `size` bytes; into shared memory it then completes
/// `size` transaction bytes on the mbarrier (release: the copied bytes are
/// visible to whoever sees the phase complete). A store to global memory
/// (`.bulk_group`) is complete for commit_group/wait_group at once.
template <typename OpTy>
Results lowerBulkCopy(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  auto spaceOf = [&](unsigned i) {
    return isSharedSpace(mods.getSpace(i)) ? StateSpace::shared
                                           : StateSpace::global;
  };
  Value dst = l.pointer(b, loc, args[0], spaceOf(0));
  Value src = l.pointer(b, loc, args[1], spaceOf(1));
  Value size = castTo(b, loc, args[2], b.getI32Type());
  LLVM::MemcpyOp::create(b, loc, dst, src, size, false);
  if (hasFlag(mods, Flag::mbarrier_complete_tx_bytes)) {
    Value ptr = l.pointer(b, loc, args[3], StateSpace::shared);
    Value zero = i64Const(b, loc, 0);
    Value tx = LLVM::SubOp::create(
        b, loc, zero, LLVM::ZExtOp::create(b, loc, b.getI64Type(), size));
    update(b, op, l, ptr, zero, zero, tx);
  }
  return SmallVector<Value>{};
}

/// mbarrier: in shared memory (any of its spellings) or generic.
std::string checkMbarrier(Operation *op, const TargetInfo &) {
  return checkModifiers(op, {},
                        [](ModifiersAttr mods) -> std::optional<StringRef> {
                          for (StateSpace s : mods.getSpaces())
                            if (!isSharedSpace(s))
                              return "";
                          return std::nullopt;
                        });
}

/// cp.async.bulk: global to shared memory with an mbarrier, shared to
/// shared (the CTA's own, launches have no clusters) with an mbarrier,
/// shared to global in a bulk group; not `.multicast::cluster` (other
/// CTAs' shared memory) nor the byte-mask form.
std::string checkBulkCopy(Operation *op, const TargetInfo &) {
  return checkModifiers(
      op, {}, [](ModifiersAttr mods) -> std::optional<StringRef> {
        if (hasFlag(mods, Flag::multicast_cluster) ||
            mods.getSpaces().size() != 2)
          return "";
        bool toShared = isSharedSpace(mods.getSpace(0));
        bool fromShared = isSharedSpace(mods.getSpace(1));
        bool withBarrier = hasFlag(mods, Flag::mbarrier_complete_tx_bytes);
        if (toShared ? !withBarrier
                     : (!fromShared || withBarrier ||
                        mods.getSpace(0) != StateSpace::global))
          return "";
        if (!toShared && !hasFlag(mods, Flag::bulk_group))
          return "";
        return std::nullopt;
      });
}

} // namespace

void zluda::ptx::lowering::populateMbarrierPatterns(TypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    const TargetInfo &target,
                                                    LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerInit<MbarrierInitOp>, checkMbarrier);
  add(lowerNothing<MbarrierInvalOp>, checkMbarrier);
  add(lowerArrive<MbarrierArriveOp, /*Drop=*/false>, checkMbarrier);
  add(lowerArrive<MbarrierArriveDropOp, /*Drop=*/true>, checkMbarrier);
  add(lowerTx<MbarrierExpectTxOp, /*Complete=*/false>, checkMbarrier);
  add(lowerTx<MbarrierCompleteTxOp, /*Complete=*/true>, checkMbarrier);
  add(lowerWait<MbarrierTestWaitOp>, checkMbarrier);
  add(lowerWait<MbarrierTryWaitOp>, checkMbarrier);
  add(lowerPendingCount<MbarrierPendingCountOp>);
  add(lowerCpAsyncArrive<CpAsyncMbarrierArriveOp>, checkMbarrier);
  add(lowerBulkCopy<CpAsyncBulkOp>, checkBulkCopy);
  add(lowerNothing<CpAsyncBulkCommitGroupOp>);
  add(lowerNothing<CpAsyncBulkWaitGroupOp>);
  add(lowerNothing<CpAsyncBulkPrefetchOp>);
}
