//===- WideAtomics.cpp - 128-bit atomics on AMDGPU ------------------------===//
//
// A 128-bit compare-and-swap or exchange becomes a critical section: the
// lanes of a wave take turns (the first active lane each time, so no two
// lanes of one wave ever wait for each other), each takes a spin lock chosen
// by its address from a table in global memory, reads the 16 bytes, writes
// them if it has to, and releases the lock. Mutual exclusion holds between
// every 128-bit atomic of the code object on the same address (and, through
// hash collisions, some others: only slower). Plain accesses racing with
// them are data races in PTX as well.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/WideAtomics.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace {

constexpr unsigned lockCount = 256; ///< spin locks, chosen by address

/// The module's lock table: zero-initialized words in global memory.
GlobalVariable *lockTable(Module &m) {
  constexpr StringLiteral name = "__zluda_atomic128_locks";
  if (GlobalVariable *g = m.getGlobalVariable(name, true))
    return g;
  auto *type = ArrayType::get(Type::getInt32Ty(m.getContext()), lockCount);
  auto *g = new GlobalVariable(m, type, false, GlobalValue::InternalLinkage,
                               Constant::getNullValue(type), name, nullptr,
                               GlobalValue::NotThreadLocal, 1);
  g->setAlignment(Align(4));
  return g;
}

/// i128 __zluda_atomic128(ptr p, i128 expected, i128 desired, i1 isCas):
/// the old value; stores `desired` if `isCas` is false or the old value
/// equals `expected`. Orders nothing by itself beyond the lock (the caller
/// adds the instruction's fences).
Function *helper(Module &m, unsigned waveSize) {
  constexpr StringLiteral name = "__zluda_atomic128";
  if (Function *f = m.getFunction(name))
    return f;
  LLVMContext &ctx = m.getContext();
  Type *i128 = Type::getInt128Ty(ctx), *i32 = Type::getInt32Ty(ctx);
  Type *i1 = Type::getInt1Ty(ctx), *ptr = PointerType::get(ctx, 0);
  Function *f =
      Function::Create(FunctionType::get(i128, {ptr, i128, i128, i1}, false),
                       GlobalValue::InternalLinkage, name, m);
  f->addFnAttr(Attribute::Convergent);
  Value *p = f->getArg(0), *expected = f->getArg(1), *desired = f->getArg(2),
        *isCas = f->getArg(3);
  auto block = [&](const char *label) {
    return BasicBlock::Create(ctx, label, f);
  };
  BasicBlock *entry = block("entry"), *turn = block("turn"),
             *spin = block("spin"), *wait = block("wait"),
             *body = block("body"), *write = block("write"),
             *unlock = block("unlock"), *latch = block("latch"),
             *done = block("done");
  IRBuilder<> b(entry);
  // The wave's lanes: 32, or 64 on CDNA (the ballot and its mask as wide).
  Type *mask = waveSize == 64 ? b.getInt64Ty() : i32;
  Value *lane = b.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_lo, {},
                                  {b.getInt32(-1), b.getInt32(0)});
  if (waveSize == 64)
    lane = b.CreateIntrinsic(Intrinsic::amdgcn_mbcnt_hi, {},
                             {b.getInt32(-1), lane});
  b.CreateBr(turn);

  // Waterfall: in each round the lowest lane not yet served goes. The loop
  // runs until a ballot finds every lane served, so its exit is uniform and
  // the critical section stays inside it (a loop left by each lane on its
  // own would be left by the whole wave first, its lanes then contending
  // for one lock together).
  b.SetInsertPoint(turn);
  PHINode *served = b.CreatePHI(i1, 2);
  PHINode *result = b.CreatePHI(i128, 2);
  served->addIncoming(b.getFalse(), entry);
  result->addIncoming(ConstantInt::get(i128, 0), entry);
  Value *waiting = b.CreateIntrinsic(Intrinsic::amdgcn_ballot, {mask},
                                     {b.CreateNot(served)});
  Value *first = b.CreateTrunc(
      b.CreateIntrinsic(Intrinsic::cttz, {mask}, {waiting, b.getTrue()}), i32);
  b.CreateCondBr(b.CreateAnd(b.CreateNot(served), b.CreateICmpEQ(lane, first)),
                 spin, latch);

  b.SetInsertPoint(spin);
  GlobalVariable *locks = lockTable(m);
  Value *index = b.CreateAnd(
      b.CreateLShr(b.CreatePtrToInt(p, b.getInt64Ty()), 4), lockCount - 1);
  Value *lock =
      b.CreateGEP(locks->getValueType(), locks, {b.getInt64(0), index});
  auto *taken = b.CreateAtomicCmpXchg(
      lock, b.getInt32(0), b.getInt32(1), Align(4), AtomicOrdering::Acquire,
      AtomicOrdering::Monotonic, ctx.getOrInsertSyncScopeID("agent"));
  b.CreateCondBr(b.CreateExtractValue(taken, 1), body, wait);

  b.SetInsertPoint(wait);
  b.CreateIntrinsic(Intrinsic::amdgcn_s_sleep, {}, {b.getInt32(1)});
  b.CreateBr(spin);

  b.SetInsertPoint(body);
  Value *old = b.CreateAlignedLoad(i128, p, Align(16), /*isVolatile=*/true);
  Value *store = b.CreateOr(b.CreateNot(isCas), b.CreateICmpEQ(old, expected));
  b.CreateCondBr(store, write, unlock);

  b.SetInsertPoint(write);
  b.CreateAlignedStore(desired, p, Align(16), /*isVolatile=*/true);
  b.CreateBr(unlock);

  b.SetInsertPoint(unlock);
  StoreInst *release = b.CreateAlignedStore(b.getInt32(0), lock, Align(4));
  release->setAtomic(AtomicOrdering::Release,
                     ctx.getOrInsertSyncScopeID("agent"));
  b.CreateBr(latch);

  b.SetInsertPoint(latch);
  PHINode *servedNext = b.CreatePHI(i1, 2);
  servedNext->addIncoming(served, turn);
  servedNext->addIncoming(b.getTrue(), unlock);
  PHINode *resultNext = b.CreatePHI(i128, 2);
  resultNext->addIncoming(result, turn);
  resultNext->addIncoming(old, unlock);
  served->addIncoming(servedNext, latch);
  result->addIncoming(resultNext, latch);
  Value *left = b.CreateIntrinsic(Intrinsic::amdgcn_ballot, {mask},
                                  {b.CreateNot(servedNext)});
  b.CreateCondBr(b.CreateICmpEQ(left, ConstantInt::get(mask, 0)), done, turn);

  b.SetInsertPoint(done);
  b.CreateRet(resultNext);
  return f;
}

/// The fences that give the critical section the instruction's ordering.
void fenceAround(IRBuilder<> &b, AtomicOrdering ordering, SyncScope::ID scope,
                 bool after) {
  bool release = ordering == AtomicOrdering::Release ||
                 ordering == AtomicOrdering::AcquireRelease ||
                 ordering == AtomicOrdering::SequentiallyConsistent;
  bool acquire = ordering == AtomicOrdering::Acquire ||
                 ordering == AtomicOrdering::AcquireRelease ||
                 ordering == AtomicOrdering::SequentiallyConsistent;
  if (!after && release)
    b.CreateFence(AtomicOrdering::Release, scope);
  if (after && acquire)
    b.CreateFence(AtomicOrdering::Acquire, scope);
}

} // namespace

void zluda::codegen::expandWideAtomics(Module &m, unsigned waveSize) {
  SmallVector<Instruction *> wide;
  for (Function &f : m)
    for (Instruction &i : instructions(f)) {
      if (auto *cx = dyn_cast<AtomicCmpXchgInst>(&i)) {
        if (cx->getCompareOperand()->getType()->isIntegerTy(128))
          wide.push_back(cx);
      } else if (auto *rmw = dyn_cast<AtomicRMWInst>(&i)) {
        if (!rmw->getType()->isIntegerTy(128))
          continue;
        // The lowering accepts atom.cas and atom.exch only at 128 bits.
        assert(rmw->getOperation() == AtomicRMWInst::Xchg &&
               "128-bit atomic other than cas/exch");
        wide.push_back(rmw);
      }
    }
  if (wide.empty())
    return;
  Function *fn = helper(m, waveSize);
  LLVMContext &ctx = m.getContext();
  Type *ptr = PointerType::get(ctx, 0), *i128 = Type::getInt128Ty(ctx);
  for (Instruction *i : wide) {
    IRBuilder<> b(i);
    auto *cx = dyn_cast<AtomicCmpXchgInst>(i);
    auto *rmw = dyn_cast<AtomicRMWInst>(i);
    Value *address = cx ? cx->getPointerOperand() : rmw->getPointerOperand();
    AtomicOrdering ordering =
        cx ? cx->getSuccessOrdering() : rmw->getOrdering();
    SyncScope::ID scope = cx ? cx->getSyncScopeID() : rmw->getSyncScopeID();
    Value *expected = cx ? cx->getCompareOperand() : ConstantInt::get(i128, 0);
    Value *desired = cx ? cx->getNewValOperand() : rmw->getValOperand();
    fenceAround(b, ordering, scope, false);
    Value *old =
        b.CreateCall(fn, {b.CreateAddrSpaceCast(address, ptr), expected,
                          desired, b.getInt1(cx != nullptr)});
    fenceAround(b, ordering, scope, true);
    Value *result = old;
    if (cx) {
      result = b.CreateInsertValue(PoisonValue::get(cx->getType()), old, 0);
      result = b.CreateInsertValue(result, b.CreateICmpEQ(old, expected), 1);
    }
    i->replaceAllUsesWith(result);
    i->eraseFromParent();
  }
}
