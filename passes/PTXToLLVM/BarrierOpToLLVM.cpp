//===- BarrierOpToLLVM.cpp - Barriers and fences --------------------------===//
//
// bar.sync/barrier.sync and bar.arrive for the whole CTA or with a thread
// count (a software named barrier in LDS, the same code on both targets),
// bar.red, membar and fence with their scopes, griddepcontrol and
// nanosleep (docs/lowering.md, "Memory model, atomics, synchronization").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// `griddepcontrol`'s mode: "wait" or "launch_dependents".
std::optional<StringRef> griddepMode(ModifiersAttr mods) {
  if (!mods || !mods.getExtras() || mods.getExtras().size() != 1)
    return std::nullopt;
  StringRef mode = cast<StringAttr>(mods.getExtras()[0]).getValue();
  if (mode != "wait" && mode != "launch_dependents")
    return std::nullopt;
  return mode;
}

/// Named barriers with a thread count (`bar.sync a, b`, `bar.arrive a, b`):
/// the sixteen barriers of a CTA are words in shared memory, the arrivals in
/// the low 16 bits and the phase in the high 16. A warp arrives as a whole
/// and counts for 32 threads, as the hardware counts it: its first active
/// lane moves the word with one compare-and-swap, adding 32, or, when that
/// completes the count, clearing the arrivals and advancing the phase; a
/// waiting warp's lane then spins until the phase moves on. Arrivals and
/// phase change in one atomic step, so a warp arriving for the next phase
/// before the current one is released is counted there. The words are
/// zeroed at the entry of each kernel of the module (zeroNamedBarriers).
constexpr StringLiteral namedBarrierWords = "__zluda_named_barriers";

constexpr StringLiteral namedBarrierFunction = "__zluda_named_barrier";

/// The words: [0, 16) the barriers; [16, 48) two `bar.red` accumulators a
/// barrier, chosen by the parity of its phase (accumulator(id, phase));
/// [48] a word the CAS loop zeroes when it does not complete the barrier.
constexpr int64_t namedBarrierWordCount = 49;

/// The LDS address of word `index` of the named barriers' words.
Value namedBarrierWord(OpBuilder &b, Location loc, LLVM::GEPArg index) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(
      b, loc, ptr3,
      LLVM::LLVMArrayType::get(b.getI32Type(), namedBarrierWordCount),
      LLVM::AddressOfOp::create(b, loc, ptr3, namedBarrierWords),
      ArrayRef<LLVM::GEPArg>{0, index});
}

/// The LDS word of `bar.red` with a thread count on barrier `id` in phase
/// `phase` (both i32; only the phase's parity counts).
Value namedBarrierAccumulator(OpBuilder &b, Location loc, Value id,
                              Value phase) {
  Type i32 = b.getI32Type();
  Value index = LLVM::AddOp::create(
      b, loc, constInt(b, loc, i32, 16),
      LLVM::AddOp::create(
          b, loc, LLVM::ShlOp::create(b, loc, id, constInt(b, loc, i32, 1)),
          LLVM::AndOp::create(b, loc, phase, constInt(b, loc, i32, 1))));
  return namedBarrierWord(b, loc, index);
}

/// void __zluda_named_barrier(i32 id, i32 count, i1 wait), defined once per
/// module, with its words. The warp that completes a phase P also zeroes
/// the barrier's accumulator of phase P + 1 (`bar.red` with a count adds
/// into P's before arriving and reads it after: every participant has read
/// P - 1's, the same word, once all have arrived at P).
void defineNamedBarrier(OpBuilder &b, ModuleOp module, Location loc,
                        const TargetInfo &target) {
  if (SymbolTable::lookupSymbolIn(module, namedBarrierFunction))
    return;
  OpBuilder::InsertionGuard guard(b);
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  Type words = LLVM::LLVMArrayType::get(i32, namedBarrierWordCount);
  b.setInsertionPointToStart(module.getBody());
  auto g = LLVM::GlobalOp::create(b, loc, words, false, LLVM::Linkage::Internal,
                                  namedBarrierWords, Attribute(), 4, 3);
  b.createBlock(&g.getInitializerRegion());
  LLVM::ReturnOp::create(b, loc, LLVM::PoisonOp::create(b, loc, words));

  b.setInsertionPointToEnd(module.getBody());
  auto fnType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {i32, i32, i1});
  auto fn = LLVM::LLVMFuncOp::create(b, loc, namedBarrierFunction, fnType,
                                     LLVM::Linkage::Internal);
  Region &body = fn.getBody();
  Block *entry =
      b.createBlock(&body, body.end(), {i32, i32, i1}, {loc, loc, loc});
  Block *cas = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *arrived = b.createBlock(&body, body.end(), {i1, i32}, {loc, loc});
  Block *spin = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *pause = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *join = b.createBlock(&body, body.end());
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  StringRef cta = target.getSyncScope(MemScope::cta);
  Value id = entry->getArgument(0), count = entry->getArgument(1),
        wait = entry->getArgument(2);

  // Every lane orders its accesses before the barrier; the warp converges;
  // its first active lane arrives for it.
  b.setInsertionPointToStart(entry);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, cta);
  Value active = target.createActiveMask(b, loc);
  target.createWarpBarrier(b, loc, active);
  Value lane = target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
  Value leader = LLVM::CountTrailingZerosOp::create(b, loc, i32, active, false);
  Value word = namedBarrierWord(b, loc, id);
  Value first =
      LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false, false,
                           LLVM::AtomicOrdering::monotonic, cta);
  Value isLeader =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lane, leader);
  LLVM::CondBrOp::create(b, loc, isLeader, cas, ValueRange{first}, join,
                         ValueRange{});

  // One step: add 32 arrivals, or complete (arrivals 0, next phase).
  b.setInsertionPointToStart(cas);
  Value old = cas->getArgument(0);
  Value arrivals = LLVM::AddOp::create(
      b, loc, LLVM::AndOp::create(b, loc, old, c(0xffff)), c(32));
  Value completes =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, arrivals, count);
  Value phase = LLVM::AndOp::create(b, loc, old, c(int64_t(0xffff0000)));
  Value next = LLVM::SelectOp::create(
      b, loc, completes, LLVM::AddOp::create(b, loc, phase, c(0x10000)),
      LLVM::AddOp::create(b, loc, old, c(32)));
  Value spare =
      namedBarrierWord(b, loc, static_cast<int32_t>(namedBarrierWordCount - 1));
  Value nextAccumulator = namedBarrierAccumulator(
      b, loc, id, LLVM::LShrOp::create(b, loc, next, c(16)));
  LLVM::StoreOp::create(
      b, loc, c(0),
      LLVM::SelectOp::create(b, loc, completes, nextAccumulator, spare), 4,
      false, false, false, LLVM::AtomicOrdering::monotonic, cta);
  auto swap = LLVM::AtomicCmpXchgOp::create(
      b, loc, word, old, next, LLVM::AtomicOrdering::acq_rel,
      LLVM::AtomicOrdering::monotonic, cta);
  Value seen = LLVM::ExtractValueOp::create(b, loc, swap, 0);
  Value done = LLVM::ExtractValueOp::create(b, loc, swap, 1);
  LLVM::CondBrOp::create(b, loc, done, arrived, ValueRange{completes, phase},
                         cas, ValueRange{seen});

  // A waiting warp that did not complete the barrier waits for the phase.
  b.setInsertionPointToStart(arrived);
  Value mustWait =
      LLVM::AndOp::create(b, loc, wait,
                          LLVM::XOrOp::create(b, loc, arrived->getArgument(0),
                                              constInt(b, loc, i1, 1)));
  LLVM::CondBrOp::create(b, loc, mustWait, spin,
                         ValueRange{arrived->getArgument(1)}, join,
                         ValueRange{});
  b.setInsertionPointToStart(spin);
  Value now = LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false,
                                   false, LLVM::AtomicOrdering::acquire, cta);
  Value moved = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ne,
      LLVM::AndOp::create(b, loc, now, c(int64_t(0xffff0000))),
      spin->getArgument(0));
  LLVM::CondBrOp::create(b, loc, moved, join, ValueRange{}, pause,
                         ValueRange{spin->getArgument(0)});
  b.setInsertionPointToStart(pause);
  target.createSleep(b, loc);
  LLVM::BrOp::create(b, loc, ValueRange{pause->getArgument(0)}, spin);

  // The warp converges again and every lane sees what the others wrote.
  b.setInsertionPointToStart(join);
  target.createWarpBarrier(b, loc, active);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, cta);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// The module's `bar.red` scratch in LDS: [0] the count, [1] a dummy that
/// the threads other than the first store to, so no branch is needed.
Value barrierReductionSlots(OpBuilder &b, Operation *op) {
  constexpr StringLiteral name = "__zluda_bar_red";
  MLIRContext *ctx = b.getContext();
  auto module = op->getParentOfType<ModuleOp>();
  Type type = LLVM::LLVMArrayType::get(b.getI32Type(), 2);
  Location loc = op->getLoc();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto g = LLVM::GlobalOp::create(
        b, loc, type, false, LLVM::Linkage::Internal, name, Attribute(), 4, 3);
    b.createBlock(&g.getInitializerRegion());
    LLVM::ReturnOp::create(b, loc,
                           LLVM::PoisonOp::create(b, loc, type).getResult());
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                                   name);
}

/// The result of `bar.red` from `total`, the number of threads whose
/// predicate (for .and: whose negation) held.
Value barrierReductionResult(OpBuilder &b, Location loc, ReduceOp red,
                             Value total, Type resultType) {
  if (red == ReduceOp::popc)
    return castTo(b, loc, total, resultType);
  // .or: some thread's predicate held; .and: no thread's negation held.
  return LLVM::ICmpOp::create(b, loc,
                              red == ReduceOp::and_ ? LLVM::ICmpPredicate::eq
                                                    : LLVM::ICmpPredicate::ne,
                              total, constInt(b, loc, b.getI32Type(), 0));
}

template <typename OpTy>
Results lowerBarRed(OpTy op, ValueRange args, ModifiersAttr mods,
                    ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  ReduceOp red = *mods.getRedOp();
  Value pred = castTo(b, loc, args.back(), i1);
  if (red == ReduceOp::and_)
    pred = LLVM::XOrOp::create(b, loc, pred, constInt(b, loc, i1, 1));
  Value inc = LLVM::ZExtOp::create(b, loc, i32, pred);
  if (args.size() == 3) {
    // With a thread count: on the named barrier `a`. Each thread adds into
    // the barrier's accumulator of the current phase (read before arriving:
    // it cannot move before every participant has arrived), then arrives and
    // waits, then reads the total; the warp that completes the phase zeroes
    // the next phase's accumulator (defineNamedBarrier).
    auto module = op->template getParentOfType<ModuleOp>();
    defineNamedBarrier(b, module, loc, l.target);
    StringRef cta = l.target.getSyncScope(MemScope::cta);
    Value id = LLVM::AndOp::create(b, loc, castTo(b, loc, args[0], i32),
                                   constInt(b, loc, i32, 15));
    Value word = namedBarrierWord(b, loc, id);
    Value phase = LLVM::LShrOp::create(
        b, loc,
        LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false, false,
                             LLVM::AtomicOrdering::monotonic, cta),
        constInt(b, loc, i32, 16));
    Value slot = namedBarrierAccumulator(b, loc, id, phase);
    LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, slot, inc,
                              LLVM::AtomicOrdering::monotonic, cta);
    LLVM::CallOp::create(
        b, loc, TypeRange{}, namedBarrierFunction,
        ValueRange{id, castTo(b, loc, args[1], i32), constInt(b, loc, i1, 1)});
    Value total =
        LLVM::LoadOp::create(b, loc, i32, slot, 4, false, false, false, false,
                             LLVM::AtomicOrdering::monotonic, cta);
    return one(
        barrierReductionResult(b, loc, red, total, op->getResult(0).getType()));
  }
  // Barrier; the first thread zeroes the count; barrier; every thread adds
  // its predicate (.and: its negation) with an LDS atomic; barrier; all
  // read the count. The next bar.red zeroes only after its first barrier,
  // which every thread reaches after its read.
  Value tid = constInt(b, loc, i32, 0);
  for (char dim : {'x', 'y', 'z'})
    tid = LLVM::OrOp::create(
        b, loc, tid, l.target.getSpecialRegister(b, loc, SReg::tid, dim, i32));
  Value first = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid,
                                     constInt(b, loc, i32, 0));
  Value slots = barrierReductionSlots(b, op);
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Type arrayType = LLVM::LLVMArrayType::get(i32, 2);
  Value index = LLVM::SelectOp::create(b, loc, first, constInt(b, loc, i32, 0),
                                       constInt(b, loc, i32, 1));
  Value resetSlot = LLVM::GEPOp::create(b, loc, ptr3, arrayType, slots,
                                        ArrayRef<LLVM::GEPArg>{0, index});
  Value count = LLVM::GEPOp::create(b, loc, ptr3, arrayType, slots,
                                    ArrayRef<LLVM::GEPArg>{0, 0});
  l.target.createBarrier(b, loc);
  LLVM::StoreOp::create(b, loc, constInt(b, loc, i32, 0), resetSlot, 4);
  l.target.createBarrier(b, loc);
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, count, inc,
                            LLVM::AtomicOrdering::monotonic,
                            l.target.getSyncScope(MemScope::cta));
  l.target.createBarrier(b, loc);
  Value total = LLVM::LoadOp::create(b, loc, i32, count, 4);
  return one(
      barrierReductionResult(b, loc, red, total, op->getResult(0).getType()));
}

/// `bar.sync a` / `barrier.sync a` (the whole CTA), or with a thread count
/// `b`, or `bar.arrive a, b` (`Arrive`), as a named barrier.
template <typename OpTy, bool Arrive = false>
Results lowerBarrier(OpTy op, ValueRange args, ModifiersAttr,
                     ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  if (args.size() == 1) {
    l.target.createBarrier(b, loc);
    return SmallVector<Value>{};
  }
  defineNamedBarrier(b, op->template getParentOfType<ModuleOp>(), loc,
                     l.target);
  Type i32 = b.getI32Type();
  Value id = LLVM::AndOp::create(b, loc, castTo(b, loc, args[0], i32),
                                 constInt(b, loc, i32, 15));
  LLVM::CallOp::create(
      b, loc, TypeRange{}, namedBarrierFunction,
      ValueRange{id, castTo(b, loc, args[1], i32),
                 constInt(b, loc, b.getI1Type(), Arrive ? 0 : 1)});
  return SmallVector<Value>{};
}

/// The proxy kind of `fence.proxy.<kind>` (`async`, `alias`), if any.
static std::optional<StringRef> proxyKind(ModifiersAttr mods) {
  if (!hasFlag(mods, Flag::proxy) ||
      (mods.getExtras() && mods.getExtras().size()))
    return std::nullopt;
  if (hasFlag(mods, Flag::async))
    return StringRef("async");
  if (hasFlag(mods, Flag::alias))
    return StringRef("alias");
  return std::nullopt;
}

template <typename OpTy>
Results lowerFence(OpTy op, ValueRange, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  if (std::optional<StringRef> kind = proxyKind(mods)) {
    // fence.proxy.async / .alias orders the generic proxy against the async
    // (bulk copies, tensor maps, wgmma's operands) or an aliased one: on
    // NVIDIA, its own instruction. This lowering makes every such access an
    // ordinary one, so elsewhere a memory fence over the state space's reach
    // does it: a CTA for `.shared::cta`, else the GPU.
    ArrayRef<StateSpace> spaces = mods.getSpaces();
    std::string text = ("fence.proxy." + *kind).str();
    for (StateSpace s : spaces)
      text += "." + stringifyStateSpace(s).str();
    if (l.target.createProxyFence(b, op.getLoc(), text))
      return SmallVector<Value>{};
    MemScope scope = spaces.size() == 1 && (spaces[0] == StateSpace::shared ||
                                            spaces[0] == StateSpace::shared_cta)
                         ? MemScope::cta
                         : MemScope::gpu;
    LLVM::FenceOp::create(b, op.getLoc(), LLVM::AtomicOrdering::acq_rel,
                          l.target.getSyncScope(scope));
    return SmallVector<Value>{};
  }
  MemScope scope = mods.getScope().value_or(MemScope::gpu);
  if (auto extras = mods.getExtras())
    for (Attribute e : extras)
      if (cast<StringAttr>(e).getValue() == "gl")
        scope = MemScope::gpu;
  LLVM::AtomicOrdering ord = mods.getSem() == MemSemantics::acq_rel
                                 ? LLVM::AtomicOrdering::acq_rel
                                 : LLVM::AtomicOrdering::seq_cst;
  LLVM::FenceOp::create(b, op.getLoc(), ord, l.target.getSyncScope(scope));
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerGriddepcontrol(OpTy op, ValueRange, ModifiersAttr mods,
                            ConversionPatternRewriter &b, const Lowering &l) {
  l.target.createGridDependencyControl(b, op.getLoc(),
                                       *griddepMode(mods) == "wait");
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerNanosleep(OpTy op, ValueRange, ModifiersAttr,
                       ConversionPatternRewriter &b, const Lowering &l) {
  l.target.createSleep(b, op.getLoc());
  return SmallVector<Value>{};
}

/// membar.gl is the one membar with a word the parser keeps.
std::string checkMembar(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  ModifierPolicy p;
  p.extras = mods && mods.getExtras() && mods.getExtras().size() == 1 &&
             cast<StringAttr>(mods.getExtras()[0]).getValue() == "gl";
  return checkModifiers(op, p);
}

/// fence: of the proxy forms, `.proxy.async` (with a state space or not)
/// and `.proxy.alias`; the tensor-map proxy fences are not lowered.
std::string checkFence(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  std::optional<StringRef> kind = mods ? proxyKind(mods) : std::nullopt;
  if (kind && (*kind == "async" || *kind == "alias") && !mods.getSem() &&
      !mods.getScope()) {
    ArrayRef<StateSpace> spaces = mods.getSpaces();
    if (spaces.empty() ||
        (spaces.size() == 1 &&
         (spaces[0] == StateSpace::global || spaces[0] == StateSpace::shared ||
          spaces[0] == StateSpace::shared_cta ||
          spaces[0] == StateSpace::shared_cluster)))
      return "";
  }
  return checkModifiers(
      op, {}, [](ModifiersAttr mods) -> std::optional<StringRef> {
        if (hasFlag(mods, Flag::proxy) || mods.getSpaces().size())
          return "";
        return std::nullopt;
      });
}

std::string checkGriddepcontrol(Operation *op, const TargetInfo &) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  ModifierPolicy p;
  p.extras = griddepMode(mods).has_value();
  return checkModifiers(op, p);
}

} // namespace

/// Zeroes the named barriers' words at the entry of each kernel (shared
/// memory starts undefined): every thread zeroes one word, chosen by its
/// linear thread index (a counted barrier needs 32 threads or more), then
/// the whole CTA synchronizes.
void zluda::ptx::lowering::zeroNamedBarriers(ModuleOp module,
                                             ArrayRef<StringRef> kernels,
                                             const TargetInfo &target) {
  if (!SymbolTable::lookupSymbolIn(module, namedBarrierWords))
    return;
  OpBuilder b(module.getContext());
  Type i32 = b.getI32Type();
  for (StringRef name : kernels) {
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!fn || fn.getBody().empty())
      continue;
    b.setInsertionPointToStart(&fn.getBody().front());
    Location loc = fn.getLoc();
    Value index = LLVM::AndOp::create(b, loc, target.linearThreadIndex(b, loc),
                                      constInt(b, loc, i32, 15));
    // The barrier word `index` and its two accumulators' words.
    for (int64_t base : {0, 16, 32}) {
      Value word = namedBarrierWord(
          b, loc,
          LLVM::AddOp::create(b, loc, index, constInt(b, loc, i32, base))
              .getResult());
      LLVM::StoreOp::create(b, loc, constInt(b, loc, i32, 0), word, 4);
    }
    target.createBarrier(b, loc);
  }
}

void zluda::ptx::lowering::populateBarrierPatterns(TypeConverter &converter,
                                                   RewritePatternSet &patterns,
                                                   const TargetInfo &target,
                                                   LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerBarrier<BarSyncOp>);
  add(lowerBarrier<BarrierSyncOp>);
  add(lowerBarrier<BarArriveOp, /*Arrive=*/true>);
  add(lowerBarrier<BarrierArriveOp, /*Arrive=*/true>);
  add(lowerBarRed<BarRedOp>);
  add(lowerBarRed<BarrierRedOp>);
  add(lowerFence<MembarOp>, checkMembar);
  add(lowerFence<FenceOp>, checkFence);
  add(lowerGriddepcontrol<GriddepcontrolOp>, checkGriddepcontrol);
  add(lowerNanosleep<NanosleepOp>);
}
