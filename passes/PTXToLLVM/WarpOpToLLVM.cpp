//===- WarpOpToLLVM.cpp - Warp-level operations ---------------------------===//
//
// shfl.sync in its four modes, vote and ballots, redux, match, activemask,
// elect and bar.warp.sync, each built on TargetInfo's shuffle, ballot and warp
// barrier (docs/lowering.md, "Warps").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

template <typename OpTy>
Results lowerWarpBarrier(OpTy op, ValueRange args, ModifiersAttr,
                         ConversionPatternRewriter &b, const Lowering &l) {
  Value mask = args.empty()
                   ? Value(constInt(b, op.getLoc(), b.getI32Type(), -1))
                   : castTo(b, op.getLoc(), args[0], b.getI32Type());
  l.target.createWarpBarrier(b, op.getLoc(), mask);
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerShfl(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  // PTX ISA: lanes [minLane, maxLane] form the segment (c[12:8] is the
  // segment mask, c[4:0] the clamp); an out-of-segment source copies the
  // thread's own value and clears p.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value a = castTo(b, loc, args[0], i32);
  // Constant b and c with the clamp at 31 (__shfl_xor_sync and __shfl_sync
  // with a constant lane, any width): bfly (b within the segment) and idx
  // read a lane that is the same function of the lane in every warp and
  // always valid: the target's fixed permute where it has one.
  APInt bc, cc;
  if (matchPattern(args[1], m_ConstantInt(&bc)) &&
      matchPattern(args[2], m_ConstantInt(&cc)) &&
      (cc.getZExtValue() & 31) == 31) {
    unsigned bk = bc.getZExtValue() & 31;
    unsigned seg = cc.getZExtValue() >> 8 & 31;
    Value d;
    if (*mods.getMode() == Mode::bfly && (bk & seg) == 0)
      d = l.target.createFixedShuffle(b, loc, a, 31, 0, bk);
    else if (*mods.getMode() == Mode::idx)
      d = l.target.createFixedShuffle(b, loc, a, seg, bk & ~seg & 31, 0);
    if (d) {
      SmallVector<Value> results = {
          castTo(b, loc, d, op->getResult(0).getType())};
      if (op->getNumResults() > 1)
        results.push_back(constInt(b, loc, b.getI1Type(), 1));
      return results;
    }
  }
  Value bv = LLVM::AndOp::create(b, loc, castTo(b, loc, args[1], i32),
                                 constInt(b, loc, i32, 31));
  Value c = castTo(b, loc, args[2], i32);
  Value lane = l.target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
  Value lane5 = LLVM::AndOp::create(b, loc, lane, constInt(b, loc, i32, 31));
  Value cval = LLVM::AndOp::create(b, loc, c, constInt(b, loc, i32, 31));
  Value seg = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, c, constInt(b, loc, i32, 8)),
      constInt(b, loc, i32, 31));
  Value notSeg = LLVM::XOrOp::create(b, loc, seg, constInt(b, loc, i32, -1));
  Value minLane = LLVM::AndOp::create(b, loc, lane5, seg);
  Value maxLane = LLVM::OrOp::create(b, loc, minLane,
                                     LLVM::AndOp::create(b, loc, cval, notSeg));
  Value j, pval;
  using P = LLVM::ICmpPredicate;
  switch (*mods.getMode()) {
  case Mode::up:
    j = LLVM::SubOp::create(b, loc, lane5, bv);
    pval = LLVM::ICmpOp::create(b, loc, P::sge, j, maxLane);
    break;
  case Mode::down:
    j = LLVM::AddOp::create(b, loc, lane5, bv);
    pval = LLVM::ICmpOp::create(b, loc, P::sle, j, maxLane);
    break;
  case Mode::bfly:
    j = LLVM::XOrOp::create(b, loc, lane5, bv);
    pval = LLVM::ICmpOp::create(b, loc, P::sle, j, maxLane);
    break;
  default: // idx
    j = LLVM::OrOp::create(b, loc, minLane,
                           LLVM::AndOp::create(b, loc, bv, notSeg));
    pval = LLVM::ICmpOp::create(b, loc, P::sle, j, maxLane);
    break;
  }
  Value src = LLVM::SelectOp::create(b, loc, pval, j, lane5);
  Value member = castTo(b, loc, args[3], i32);
  Value d = l.target.createShuffle(b, loc, a, src, member);
  SmallVector<Value> results = {castTo(b, loc, d, op->getResult(0).getType())};
  if (op->getNumResults() > 1)
    results.push_back(pval);
  return results;
}

template <typename OpTy>
Results lowerVote(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value p = castTo(b, loc, args[0], b.getI1Type());
  Value mask = args.size() > 1 ? castTo(b, loc, args[1], i32)
                               : constInt(b, loc, i32, -1);
  Mode mode = *mods.getMode();
  if (mode == Mode::all)
    p = LLVM::XOrOp::create(b, loc, p, constInt(b, loc, b.getI1Type(), 1));
  Value ballot = l.target.createBallot(b, loc, p, mask);
  if (mode == Mode::ballot)
    return one(castTo(b, loc, ballot, op->getResult(0).getType()));
  Value zero = constInt(b, loc, i32, 0);
  if (mode == Mode::uni) {
    // The same predicate in every active lane of the mask: none or all of
    // them set.
    Value lanes =
        l.target.createBallot(b, loc, constInt(b, loc, b.getI1Type(), 1), mask);
    return one(LLVM::OrOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ballot, zero),
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, ballot, lanes)));
  }
  Value r = LLVM::ICmpOp::create(b, loc,
                                 mode == Mode::all ? LLVM::ICmpPredicate::eq
                                                   : LLVM::ICmpPredicate::ne,
                                 ballot, zero);
  return one(r);
}

template <typename OpTy>
Results lowerRedux(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  // Every member lane runs this with the same mask, so each folds the
  // member lanes' values in lane order: 32 reads of a constant lane, the
  // non-members skipped (they may be inactive). Exact for any mask.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value a = castTo(b, loc, args[0], i32);
  Value mask = castTo(b, loc, args[1], i32);
  bool s = isSignedIntType(*mods.getType());
  ReduceOp red = *mods.getRedOp();
  int32_t identity = 0;
  if (red == ReduceOp::and_ || (red == ReduceOp::min && !s))
    identity = -1;
  else if (red == ReduceOp::min)
    identity = INT32_MAX;
  else if (red == ReduceOp::max && s)
    identity = INT32_MIN;
  Value acc = constInt(b, loc, i32, identity);
  Value c1 = constInt(b, loc, i32, 1);
  using P = LLVM::ICmpPredicate;
  for (int lane = 0; lane < 32; ++lane) {
    Value v =
        l.target.createShuffle(b, loc, a, constInt(b, loc, i32, lane), mask);
    Value folded;
    switch (red) {
    case ReduceOp::add:
      folded = LLVM::AddOp::create(b, loc, acc, v);
      break;
    case ReduceOp::and_:
      folded = LLVM::AndOp::create(b, loc, acc, v);
      break;
    case ReduceOp::or_:
      folded = LLVM::OrOp::create(b, loc, acc, v);
      break;
    case ReduceOp::xor_:
      folded = LLVM::XOrOp::create(b, loc, acc, v);
      break;
    default: { // min, max
      P pred =
          red == ReduceOp::min ? (s ? P::slt : P::ult) : (s ? P::sgt : P::ugt);
      Value keep = LLVM::ICmpOp::create(b, loc, pred, acc, v);
      folded = LLVM::SelectOp::create(b, loc, keep, acc, v);
      break;
    }
    }
    Value bit = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, mask, constInt(b, loc, i32, lane)),
        c1);
    Value member =
        LLVM::ICmpOp::create(b, loc, P::ne, bit, constInt(b, loc, i32, 0));
    acc = LLVM::SelectOp::create(b, loc, member, folded, acc);
  }
  return one(castTo(b, loc, acc, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerMatch(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  // .any: the member lanes holding this lane's value; .all: the member mask
  // if every member holds the same value, else 0 (p: whether they do). As
  // for redux, each member lane is read at a constant index and lanes
  // outside the mask are skipped.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Type t = instType(op, mods);
  bool wide = bitWidth(t) == 64;
  Value a = castTo(b, loc, args[0], t);
  Value mask = castTo(b, loc, args[1], i32);
  Value lo = wide ? Value(LLVM::TruncOp::create(b, loc, i32, a)) : a;
  Value hi =
      wide ? Value(LLVM::TruncOp::create(
                 b, loc, i32,
                 LLVM::LShrOp::create(b, loc, a, constInt(b, loc, t, 32))))
           : Value();
  using P = LLVM::ICmpPredicate;
  Value same = constInt(b, loc, i32, 0);
  for (int lane = 0; lane < 32; ++lane) {
    Value idx = constInt(b, loc, i32, lane);
    Value eq = LLVM::ICmpOp::create(
        b, loc, P::eq, l.target.createShuffle(b, loc, lo, idx, mask), lo);
    if (wide)
      eq = LLVM::AndOp::create(
          b, loc, eq,
          LLVM::ICmpOp::create(b, loc, P::eq,
                               l.target.createShuffle(b, loc, hi, idx, mask),
                               hi));
    Value bit =
        LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i32, eq), idx);
    same = LLVM::OrOp::create(b, loc, same, bit);
  }
  same = LLVM::AndOp::create(b, loc, same, mask);
  if (mods.getMode() != Mode::all)
    return one(castTo(b, loc, same, op->getResult(0).getType()));
  Value all = LLVM::ICmpOp::create(b, loc, P::eq, same, mask);
  Value d = LLVM::SelectOp::create(b, loc, all, mask, constInt(b, loc, i32, 0));
  SmallVector<Value> results = {castTo(b, loc, d, op->getResult(0).getType())};
  if (op->getNumResults() > 1)
    results.push_back(all);
  return results;
}

template <typename OpTy>
Results lowerActivemask(OpTy op, ValueRange, ModifiersAttr,
                        ConversionPatternRewriter &b, const Lowering &l) {
  return one(castTo(b, op.getLoc(), l.target.createActiveMask(b, op.getLoc()),
                    op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerElect(OpTy op, ValueRange args, ModifiersAttr,
                   ConversionPatternRewriter &b, const Lowering &l) {
  // elect.sync d|p, membermask: one active lane of the mask is the leader
  // (the PTX ISA leaves which to the implementation: the lowest, as on the
  // H200); d is its lane id in every thread, p true in the leader alone.
  // The active mask and the lane come from the thread's warp (half a wave
  // on wave64).
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value mask = castTo(b, loc, args[0], i32);
  Value cand =
      LLVM::AndOp::create(b, loc, l.target.createActiveMask(b, loc), mask);
  Value leader = LLVM::CountTrailingZerosOp::create(b, loc, i32, cand, false);
  Value lane = l.target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
  return SmallVector<Value>{
      castTo(b, loc, leader, op->getResult(0).getType()),
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lane, leader)};
}

/// redux: the integer forms (the float ones and .abs are sm_100's).
std::string checkRedux(Operation *op, const TargetInfo &) {
  return checkModifiers(op, {},
                        [](ModifiersAttr mods) -> std::optional<StringRef> {
                          if (!mods.getType() || isFloatType(*mods.getType()) ||
                              hasFlag(mods, Flag::abs))
                            return "";
                          return std::nullopt;
                        });
}

} // namespace

void zluda::ptx::lowering::populateWarpPatterns(TypeConverter &converter,
                                                RewritePatternSet &patterns,
                                                const TargetInfo &target,
                                                LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerShfl<ShflOp>);
  add(lowerVote<VoteOp>);
  add(lowerRedux<ReduxOp>, checkRedux);
  add(lowerMatch<MatchOp>);
  add(lowerActivemask<ActivemaskOp>);
  add(lowerElect<ElectOp>);
  add(lowerWarpBarrier<BarWarpSyncOp>);
}
