//===- SpecialRegisterOpToLLVM.cpp - Special registers --------------------===//
//
// %tid, %ntid, %ctaid, %nctaid, %laneid, %warpid, the lane masks, clocks
// and timers, %envreg, the performance counters and the machine's numbering,
// each read through TargetInfo (docs/lowering.md).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

struct SRegLowering : TargetOpConversion<SRegOp> {
  using TargetOpConversion::TargetOpConversion;
  LogicalResult
  matchAndRewrite(SRegOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SpecialRegAttr reg = op.getReg();
    Value v =
        isLaneMask(reg.getReg())
            ? getLaneMask(rewriter, op.getLoc(), reg.getReg())
        : isCounter(reg.getReg())
            ? getCounter(rewriter, op.getLoc(), reg.getReg())
        : reg.getReg() == SReg::envreg
            ? target.readEnvironmentRegister(rewriter, op.getLoc(),
                                             reg.getIndex())
        // %pm0..7: performance counters whose behaviour the PTX ISA leaves
        // undefined; they count nothing here.
        : reg.getReg() == SReg::pm || reg.getReg() == SReg::pm_64
            ? LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                       rewriter.getI64Type(), 0)
            : target.getSpecialRegister(rewriter, op.getLoc(), reg.getReg(),
                                        reg.getDim(), op.getType());
    if (!v)
      return op.emitError("unsupported: special register %")
             << stringifySReg(reg.getReg());
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), v, op.getType()));
    return success();
  }
  static bool isLaneMask(SReg reg) {
    return reg == SReg::lanemask_eq || reg == SReg::lanemask_le ||
           reg == SReg::lanemask_lt || reg == SReg::lanemask_ge ||
           reg == SReg::lanemask_gt;
  }

  static bool isCounter(SReg reg) {
    return reg == SReg::clock || reg == SReg::clock_hi ||
           reg == SReg::clock64 || reg == SReg::globaltimer ||
           reg == SReg::globaltimer_lo || reg == SReg::globaltimer_hi;
  }

  /// %clock64 and %globaltimer, and their 32-bit halves.
  Value getCounter(OpBuilder &b, Location loc, SReg reg) const {
    bool cycles =
        reg == SReg::clock || reg == SReg::clock_hi || reg == SReg::clock64;
    Value v = cycles ? target.readCycleCounter(b, loc)
                     : target.readGlobalTimer(b, loc);
    if (reg == SReg::clock64 || reg == SReg::globaltimer)
      return v;
    Type i32 = b.getI32Type();
    if (reg == SReg::clock_hi || reg == SReg::globaltimer_hi)
      v = LLVM::LShrOp::create(
          b, loc, v, LLVM::ConstantOp::create(b, loc, v.getType(), 32));
    return LLVM::TruncOp::create(b, loc, i32, v);
  }

  /// The %lanemask_* registers, from %laneid: eq = 1 << lane,
  /// lt = eq - 1, le = lt | eq, ge = ~lt, gt = ~le (32 lanes).
  Value getLaneMask(OpBuilder &b, Location loc, SReg reg) const {
    Type i32 = b.getI32Type();
    Value lane = target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
    Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
    Value allOnes = LLVM::ConstantOp::create(b, loc, i32, -1);
    Value eq = LLVM::ShlOp::create(b, loc, one, lane);
    Value lt = LLVM::SubOp::create(b, loc, eq, one);
    Value le = LLVM::OrOp::create(b, loc, lt, eq);
    switch (reg) {
    case SReg::lanemask_eq:
      return eq;
    case SReg::lanemask_lt:
      return lt;
    case SReg::lanemask_le:
      return le;
    case SReg::lanemask_ge:
      return LLVM::XOrOp::create(b, loc, lt, allOnes);
    default:
      return LLVM::XOrOp::create(b, loc, le, allOnes);
    }
  }
};

/// Every register reads on both targets but `%envreg`, which has the
/// driver's values on NVPTX and only the cooperative-launch grid workspace
/// (%envreg1/2) on AMDGPU.
std::string checkSReg(Operation *op, const TargetInfo &target) {
  SpecialRegAttr reg = cast<SRegOp>(op).getReg();
  if (reg.getReg() == SReg::envreg &&
      !target.hasEnvironmentRegister(reg.getIndex()))
    return ("special register %" + stringifySReg(reg.getReg()) +
            std::to_string(reg.getIndex()))
        .str();
  return "";
}

} // namespace

void zluda::ptx::lowering::populateSpecialRegisterPatterns(
    TypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target, LoweringState &state) {
  patterns.add<SRegLowering>(converter, patterns.getContext(), target);
  addCheck<SRegOp>(state, patterns.getContext(), checkSReg);
}
