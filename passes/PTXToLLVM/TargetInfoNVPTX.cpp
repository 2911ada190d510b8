//===- TargetInfoNVPTX.cpp - NVPTX side of the lowering seam --------------===//
//
// The verification target: the same target-independent lowering, finished
// here for NVIDIA GPUs, must compute what NVIDIA's compilation of the
// original PTX computes (test/verify).
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/TargetInfo.h"

#include "llvm/ADT/StringSwitch.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace zluda::ptx;

namespace {

/// One PTX instruction as inline assembly, for what NVVM has no intrinsic
/// for; `sideEffects` for registers that change under the program (%smid).
Value inlinePTX(OpBuilder &b, Location loc, Type type, ValueRange operands,
                StringRef text, StringRef constraints,
                bool sideEffects = false) {
  return LLVM::InlineAsmOp::create(b, loc, type, operands, text, constraints,
                                   sideEffects, /*is_align_stack=*/false,
                                   LLVM::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

class NVPTXTargetInfo : public TargetInfo {
public:
  explicit NVPTXTargetInfo(StringRef chip) : chip(chip.str()) {}

  StringRef getTriple() const override { return "nvptx64-nvidia-cuda"; }
  StringRef getDataLayout() const override {
    // 32-bit pointers into shared, const and local memory (LLVM's
    // -nvptx-short-ptr, which the code generator sets: nvcc's addressing).
    return "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-i64:64-i128:128-"
           "i256:256-v16:16-v32:32-n16:32:64";
  }
  StringRef getChip() const override { return chip; }
  unsigned getAllocaAddressSpace() const override { return 0; }
  unsigned getWaveSize() const override { return 32; }
  bool kernelParamsByValue() const override { return true; }
  unsigned kernelParamAddressSpace() const override { return 0; }

  unsigned getAddressSpace(StateSpace space) const override {
    switch (space) {
    case StateSpace::global:
      return 1;
    case StateSpace::shared:
    case StateSpace::shared_cta:
      return 3;
    case StateSpace::const_:
      return 4;
    case StateSpace::local:
      return 5;
    case StateSpace::shared_cluster:
      return 7;
    default:
      return 0;
    }
  }

  Value getSpecialRegister(OpBuilder &b, Location loc, SReg reg, char dim,
                           Type) const override {
    Type i32 = b.getI32Type();
    auto pick = [&](auto x, auto y, auto z) -> Value {
      switch (dim) {
      case 'x':
        return decltype(x)::create(b, loc, i32);
      case 'y':
        return decltype(y)::create(b, loc, i32);
      default:
        return decltype(z)::create(b, loc, i32);
      }
    };
    switch (reg) {
    case SReg::tid:
      return pick(NVVM::ThreadIdXOp(), NVVM::ThreadIdYOp(),
                  NVVM::ThreadIdZOp());
    case SReg::ntid:
      return pick(NVVM::BlockDimXOp(), NVVM::BlockDimYOp(),
                  NVVM::BlockDimZOp());
    case SReg::ctaid:
      return pick(NVVM::BlockIdXOp(), NVVM::BlockIdYOp(), NVVM::BlockIdZOp());
    case SReg::nctaid:
      return pick(NVVM::GridDimXOp(), NVVM::GridDimYOp(), NVVM::GridDimZOp());
    case SReg::laneid:
      return NVVM::LaneIdOp::create(b, loc, i32);
    case SReg::WARP_SZ:
      return LLVM::ConstantOp::create(b, loc, i32, 32);
    default:
      return nativeRegister(b, loc, reg, dim);
    }
  }

  /// The other registers NVIDIA's hardware has: read with `mov`, as the
  /// original does.
  Value nativeRegister(OpBuilder &b, Location loc, SReg reg, char dim) const {
    std::string name = "%" + stringifySReg(reg).str();
    if (dim)
      name += std::string(".") + dim;
    Type type = b.getI32Type();
    std::string text = "mov.u32 $0, " + name + ";", constraint = "=r";
    switch (reg) {
    case SReg::gridid:
    case SReg::current_graph_exec:
      type = b.getI64Type();
      text = "mov.u64 $0, " + name + ";";
      constraint = "=l";
      break;
    case SReg::is_explicit_cluster:
      text =
          "{ .reg .pred p; mov.pred p, " + name + "; selp.u32 $0, 1, 0, p; }";
      break;
    case SReg::pm:
    case SReg::pm_64:
    case SReg::envreg:
      return Value(); // indexed: not here
    default:
      break;
    }
    return inlinePTX(b, loc, type, ValueRange{}, text, constraint,
                     /*sideEffects=*/true);
  }

  /// NVIDIA's driver's values, every index.
  bool hasEnvironmentRegister(int64_t) const override { return true; }
  bool lowersNativeInstructions() const override { return true; }
  /// fma on bf16 is fma.rn.bf16 (sm_80 and later).
  bool hasBf16Fma() const override { return true; }
  /// atomicrmw fadd f32 is atom/red.add.f32, which flushes.
  bool atomicAddF32FlushesSubnormals() const override { return true; }
  Value readEnvironmentRegister(OpBuilder &b, Location loc,
                                int64_t index) const override {
    // NVVM has no intrinsic for them: the instruction itself.
    std::string text = "mov.u32 $0, %envreg" + std::to_string(index) + ";";
    return inlinePTX(b, loc, b.getI32Type(), ValueRange{}, text, "=r");
  }

  Value readCycleCounter(OpBuilder &b, Location loc) const override {
    return NVVM::Clock64Op::create(b, loc, b.getI64Type());
  }

  Value readGlobalTimer(OpBuilder &b, Location loc) const override {
    return NVVM::GlobalTimerOp::create(b, loc, b.getI64Type());
  }

  bool lowerRuntimeCall(OpBuilder &, Location, StringRef, ValueRange,
                        Value &) const override {
    return false; // the driver links malloc, free, vprintf, __assertfail
  }

  void createBarrier(OpBuilder &b, Location loc) const override {
    NVVM::Barrier0Op::create(b, loc);
  }

  void createWarpBarrier(OpBuilder &b, Location loc,
                         Value memberMask) const override {
    // The named lanes only: a full mask from divergent code never completes.
    LLVM::CallIntrinsicOp::create(b, loc,
                                  b.getStringAttr("llvm.nvvm.bar.warp.sync"),
                                  ValueRange{memberMask});
  }

  Value createShuffle(OpBuilder &b, Location loc, Value value, Value srcLane,
                      Value memberMask) const override {
    // shfl.sync.idx with clamp 31 and no segment reads lane srcLane.
    Value clamp = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 31);
    return NVVM::ShflOp::create(
        b, loc, b.getI32Type(), memberMask, value, srcLane, clamp,
        NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::idx),
        UnitAttr());
  }

  Value createBallot(OpBuilder &b, Location loc, Value pred,
                     Value memberMask) const override {
    return NVVM::VoteSyncOp::create(
        b, loc, b.getI32Type(), memberMask, pred,
        NVVM::VoteSyncKindAttr::get(b.getContext(),
                                    NVVM::VoteSyncKind::ballot));
  }

  Value createActiveMask(OpBuilder &b, Location loc) const override {
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getI32Type(), b.getStringAttr("llvm.nvvm.activemask"),
               ValueRange())
        .getResult(0);
  }

  void createSleep(OpBuilder &b, Location loc) const override {
    Value t = LLVM::ConstantOp::create(b, loc, b.getI32Type(), 100);
    NVVM::NanosleepOp::create(b, loc, t);
  }

  /// cp.async as it is (nvvm.cp.async): the copy overlaps what follows,
  /// which a synchronous copy made wait (async-copy GEMMs at 0.3-0.5 of
  /// NVIDIA's speed).
  bool createAsyncCopy(OpBuilder &b, Location loc, Value dst, Value src,
                       int64_t size, Value srcSize,
                       bool cacheGlobal) const override {
    NVVM::CpAsyncOp::create(b, loc, dst, src, uint32_t(size),
                            cacheGlobal ? NVVM::LoadCacheModifierKind::CG
                                        : NVVM::LoadCacheModifierKind::CA,
                            srcSize);
    return true;
  }

  void createAsyncCopyCommit(OpBuilder &b, Location loc) const override {
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
  }

  void createAsyncCopyWait(OpBuilder &b, Location loc,
                           int64_t pending) const override {
    NVVM::CpAsyncWaitGroupOp::create(b, loc, int32_t(pending));
  }

  void createGridDependencyControl(OpBuilder &b, Location loc,
                                   bool wait) const override {
    LLVM::CallIntrinsicOp::create(
        b, loc,
        b.getStringAttr(wait ? "llvm.nvvm.griddepcontrol.wait"
                             : "llvm.nvvm.griddepcontrol.launch.dependents"),
        ValueRange{});
  }

  Value createApproxMath(OpBuilder &b, Location loc, FloatOp op,
                         ValueRange operands) const override {
    // The instructions themselves (non-.ftz forms: the lowering flushes).
    // rcp.approx.f32 has no NVVM intrinsic but the .ftz one; f64 has only
    // rcp.approx.ftz.f64.
    if (op == FloatOp::tanh) // no NVVM intrinsic either
      return inlinePTX(b, loc, b.getF32Type(), operands,
                       "tanh.approx.f32 $0, $1;", "=f,f");
    if (op == FloatOp::rcp) {
      Type t = operands[0].getType();
      if (t.isF64())
        return LLVM::CallIntrinsicOp::create(
                   b, loc, t, b.getStringAttr("llvm.nvvm.rcp.approx.ftz.d"),
                   operands)
            .getResult(0);
      return inlinePTX(b, loc, t, operands, "rcp.approx.f32 $0, $1;", "=f,f");
    }
    StringRef intrinsic;
    switch (op) {
    case FloatOp::sin:
      intrinsic = "llvm.nvvm.sin.approx.f";
      break;
    case FloatOp::cos:
      intrinsic = "llvm.nvvm.cos.approx.f";
      break;
    case FloatOp::ex2:
      intrinsic = "llvm.nvvm.ex2.approx.f32";
      break;
    case FloatOp::lg2:
      intrinsic = "llvm.nvvm.lg2.approx.f";
      break;
    case FloatOp::rsqrt:
      intrinsic = "llvm.nvvm.rsqrt.approx.f";
      break;
    case FloatOp::sqrt:
      intrinsic = "llvm.nvvm.sqrt.approx.f";
      break;
    case FloatOp::div:
      intrinsic = "llvm.nvvm.div.approx.f";
      break;
    default:
      break;
    }
    if (intrinsic.empty())
      return {};
    return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                         b.getStringAttr(intrinsic), operands)
        .getResult(0);
  }

  Value createTf32Conversion(OpBuilder &b, Location loc, Value x,
                             RoundingMode rounding) const override {
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getI32Type(),
               b.getStringAttr(rounding == RoundingMode::rn
                                   ? "llvm.nvvm.f2tf32.rn"
                                   : "llvm.nvvm.f2tf32.rna"),
               x)
        .getResult(0);
  }

  bool createProxyFence(OpBuilder &b, Location loc,
                        StringRef instruction) const override {
    LLVM::InlineAsmOp::create(b, loc, TypeRange{}, ValueRange{},
                              (instruction + ";").str(), "~{memory}",
                              /*has_side_effects=*/true,
                              /*is_align_stack=*/false,
                              LLVM::TailCallKind::None, LLVM::AsmDialectAttr(),
                              ArrayAttr());
    return true;
  }

  /// NVIDIA's `div.full.f32`, so that the oracle compares the same bits
  /// (the exact quotient differs from it in the last bits).
  Value createFullRangeDivision(OpBuilder &b, Location loc, Value a,
                                Value d) const override {
    return LLVM::CallIntrinsicOp::create(b, loc, b.getF32Type(),
                                         b.getStringAttr("llvm.nvvm.div.full"),
                                         ValueRange{a, d})
        .getResult(0);
  }

  /// The same PTX instruction, so that ptxas fuses our build's mul/add
  /// pairs exactly as it fuses the original's (LLVM's own fusion picks other
  /// pairs, and the oracle compares bits).
  Value createContractible(OpBuilder &b, Location loc, FloatOp op, bool ftz,
                           Value a, Value c) const override {
    Type t = a.getType();
    bool f64 = t.isF64();
    std::string text = (stringifyFloatOp(op) + (ftz && !f64 ? ".ftz" : "") +
                        (f64 ? ".f64" : ".f32") + " $0, $1, $2;")
                           .str();
    return inlinePTX(b, loc, t, ValueRange{a, c}, text,
                     f64 ? "=d,d,d" : "=f,f,f");
  }

  Value createIsSpace(OpBuilder &b, Location loc, StateSpace space,
                      Value ptr) const override {
    if (space == StateSpace::param) {
      // No NVVM intrinsic: NVIDIA's own instruction.
      Value r = inlinePTX(b, loc, b.getI32Type(), ValueRange{ptr},
                          "{ .reg .pred p; isspacep.param p, $1; "
                          "selp.u32 $0, 1, 0, p; }",
                          "=r,l");
      return LLVM::TruncOp::create(b, loc, b.getI1Type(), r);
    }
    StringRef name = space == StateSpace::shared  ? "llvm.nvvm.isspacep.shared"
                     : space == StateSpace::local ? "llvm.nvvm.isspacep.local"
                                                  : "llvm.nvvm.isspacep.global";
    return LLVM::CallIntrinsicOp::create(b, loc, b.getI1Type(),
                                         b.getStringAttr(name), ValueRange{ptr})
        .getResult(0);
  }

  void createExit(OpBuilder &b, Location loc) const override {
    LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.nvvm.exit"),
                                  ValueRange());
    LLVM::UnreachableOp::create(b, loc);
  }

  /// LLVM 22's NVPTX backend emits every atomicrmw as a relaxed .gpu atom
  /// whatever its syncscope and ordering (only cmpxchg keeps them), which
  /// is right for PTX's default only: anything else is NVIDIA's own
  /// instruction, atom{.sem}{.scope}{.space}.op.type (red without a result).
  bool createAtomicRMW(OpBuilder &b, Location loc, StringRef ptxOp, Value ptr,
                       Value value, LLVM::AtomicOrdering ordering,
                       MemScope scope, bool returnsOld,
                       Value &old) const override {
    using O = LLVM::AtomicOrdering;
    if (scope == MemScope::gpu && ordering == O::monotonic)
      return false;
    StringRef sem = ordering == O::monotonic ? ".relaxed"
                    : ordering == O::acquire ? ".acquire"
                    : ordering == O::release ? ".release"
                    : ordering == O::acq_rel ? ".acq_rel"
                                             : "";
    if (sem.empty())
      return false;
    StringRef scopeText = scope == MemScope::cta       ? ".cta"
                          : scope == MemScope::cluster ? ".cluster"
                          : scope == MemScope::gpu     ? ".gpu"
                                                       : ".sys";
    unsigned as = cast<LLVM::LLVMPointerType>(ptr.getType()).getAddressSpace();
    StringRef space = as == 1 ? ".global" : as == 3 ? ".shared" : "";
    // The value in an NVPTX register of its width.
    Type t = value.getType();
    unsigned bits = t.getIntOrFloatBitWidth();
    if (auto v = dyn_cast<VectorType>(t))
      bits = v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
    Type reg = t.isF32() || t.isF64() || t.isInteger()
                   ? t
                   : Type(b.getIntegerType(bits));
    char letter = reg.isF32()   ? 'f'
                  : reg.isF64() ? 'd'
                  : bits == 16  ? 'h'
                  : bits == 32  ? 'r'
                                : 'l';
    Value v = reg == t ? value : LLVM::BitcastOp::create(b, loc, reg, value);
    Value addr = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
    std::string qualified = (sem + scopeText + space + "." + ptxOp).str();
    auto create = [&](TypeRange results, StringRef text,
                      std::string constraints) {
      return LLVM::InlineAsmOp::create(
          b, loc, results, ValueRange{addr, v}, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr());
    };
    if (!returnsOld) {
      create(TypeRange{}, "red" + qualified + " [$0], $1;",
             std::string("l,") + letter + ",~{memory}");
      old = Value();
      return true;
    }
    Value r = create(TypeRange{reg}, "atom" + qualified + " $0, [$1], $2;",
                     std::string("=") + letter + ",l," + letter + ",~{memory}")
                  .getResult(0);
    old = reg == t ? r : LLVM::BitcastOp::create(b, loc, t, r);
    return true;
  }

  StringRef getSyncScope(MemScope scope) const override {
    switch (scope) {
    case MemScope::cta:
      return "block";
    case MemScope::cluster:
      return "cluster";
    case MemScope::gpu:
      return "device";
    case MemScope::sys:
      return "";
    }
    return "";
  }

  void setKernelAttributes(LLVM::LLVMFuncOp func,
                           Operation *entry) const override {
    MLIRContext *ctx = func.getContext();
    func->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(),
                  UnitAttr::get(ctx));
    if (auto max = entry->getAttrOfType<DenseI32ArrayAttr>("maxntid"))
      func->setAttr(NVVM::NVVMDialect::getMaxntidAttrName(), max);
    if (auto req = entry->getAttrOfType<DenseI32ArrayAttr>("reqntid"))
      func->setAttr(NVVM::NVVMDialect::getReqntidAttrName(), req);
  }

private:
  std::string chip;
};

} // namespace

std::unique_ptr<TargetInfo>
zluda::ptx::createNVPTXTargetInfo(StringRef chip, std::string &error) {
  unsigned sm;
  StringRef digits = chip;
  if (!digits.consume_front("sm_") ||
      digits.take_while(llvm::isDigit).getAsInteger(10, sm) || sm < 70) {
    error = ("unknown or unsupported NVIDIA architecture '" + chip +
             "' (sm_70 and up)")
                .str();
    return nullptr;
  }
  return std::make_unique<NVPTXTargetInfo>(chip);
}
