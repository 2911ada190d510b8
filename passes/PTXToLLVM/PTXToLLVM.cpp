//===- PTXToLLVM.cpp - Lowering of the ptx dialect to LLVM ----------------===//
//
// The pass: target-independent lowering of PTX semantics, one family of
// instructions a file (PatternPTXToLLVM.h lists them, in the order of
// docs/lowering.md); everything that depends on the hardware goes through
// TargetInfo. The pass owns the conversion's state. An op or a modifier the
// lowering does not handle is reported before the conversion starts
// (SupportCheck.cpp), so that the conversion itself never fails on it.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PTXToLLVM.h"
#include "passes/PTXToLLVM/PatternPTXToLLVM.h"
#include "passes/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Transforms/DialectConversion.h"

namespace zluda::ptx {
#define GEN_PASS_DEF_CONVERTPTXTOLLVM
#include "passes/Passes.h.inc"
} // namespace zluda::ptx

using namespace mlir;
using namespace zluda::ptx;

namespace {

/// Whether `v` is the address of a device function's parameter (or an
/// offset from it): a block argument of a `.func` in the `.param` space.
bool isDeviceFunctionParam(Value v) {
  auto ptr = dyn_cast<PtrType>(v.getType());
  if (!ptr || ptr.getSpace() != StateSpace::param)
    return false;
  while (auto addr = v.getDefiningOp<AddrOp>())
    v = addr.getBase();
  auto arg = dyn_cast<BlockArgument>(v);
  return arg && isa_and_nonnull<FuncOp>(arg.getOwner()->getParentOp());
}

struct ConvertPTXToLLVMPass
    : zluda::ptx::impl::ConvertPTXToLLVMBase<ConvertPTXToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<TargetInfo> target =
        createTargetInfo(targetName, chip, error, warpsPerWave);
    if (!target) {
      module.emitError(error);
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populatePTXToLLVMTypeConversion(converter, *target);
    RewritePatternSet patterns(ctx);
    LoweringState state;
    populatePTXToLLVMPatterns(converter, patterns, *target, state);
    if (!lowering::reportUnsupported(module, *target, patterns, state).empty())
      return signalPassFailure();
    ConversionTarget legal(*ctx);
    legal.addLegalDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect,
                          NVVM::NVVMDialect>();
    legal.addIllegalDialect<PTXDialect>();
    legal.addLegalOp<ModuleOp>();
    SmallVector<StringRef> kernels;
    module.walk([&](EntryOp e) { kernels.push_back(e.getSymName()); });
    module.walk([&](MovOp mov) {
      if (mov->getNumOperands() == 1 && mov->getNumResults() == 1 &&
          isDeviceFunctionParam(mov->getOperand(0)))
        state.localParamAddresses.insert(mov);
    });
    // The module's other ops first (variables: functions take their
    // addresses), then one function at a time: a conversion keeps both the
    // old and the new form of what it converts until it ends, so converting
    // function by function keeps that to one function (bounded memory on
    // large modules, docs/benchmarks.md).
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<Operation *> others, functions;
    for (Operation &op : module.getBody()->getOperations())
      (isa<FuncOp, EntryOp>(op) ? functions : others).push_back(&op);
    if (failed(applyPartialConversion(others, legal, frozen)))
      return signalPassFailure();
    for (Operation *fn : functions)
      if (failed(applyPartialConversion(fn, legal, frozen)))
        return signalPassFailure();
    lowering::zeroNamedBarriers(module, kernels, *target);
    lowering::defineConstAddressTest(module, *target);
    target->finishModule(module, kernels);
    module->removeAttr("ptx.module");
    module->removeAttr("ptx.pragmas");
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    StringAttr::get(ctx, target->getTriple()));
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(ctx, target->getDataLayout()));
  }
};

} // namespace

void zluda::ptx::populatePTXToLLVMTypeConversion(TypeConverter &converter,
                                                 const TargetInfo &target) {
  converter.addConversion([](Type t) -> std::optional<Type> {
    if (t.isIntOrFloat() || isa<VectorType>(t) || isa<LLVM::LLVMPointerType>(t))
      return t;
    return std::nullopt;
  });
  converter.addConversion([&target](PtrType t) -> Type {
    unsigned as = t.getSpace() == StateSpace::param
                      ? 0
                      : target.getAddressSpace(t.getSpace());
    return LLVM::LLVMPointerType::get(t.getContext(), as);
  });
  auto cast = [](OpBuilder &b, Type to, ValueRange in, Location loc) -> Value {
    if (in.size() != 1)
      return Value();
    if (isa<LLVM::LLVMPointerType>(to) &&
        isa<LLVM::LLVMPointerType>(in[0].getType()))
      return LLVM::AddrSpaceCastOp::create(b, loc, to, in[0]);
    return UnrealizedConversionCastOp::create(b, loc, to, in).getResult(0);
  };
  converter.addSourceMaterialization(cast);
  converter.addTargetMaterialization(cast);
}

void zluda::ptx::populatePTXToLLVMPatterns(TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const TargetInfo &target,
                                           LoweringState &state) {
  using namespace zluda::ptx::lowering;
  populateArithmeticPatterns(converter, patterns, target, state);
  populateCompareSelectPatterns(converter, patterns, target, state);
  populateBitPatterns(converter, patterns, target, state);
  populateConvertPatterns(converter, patterns, target, state);
  populateMemoryPatterns(converter, patterns, target, state);
  populateAtomicPatterns(converter, patterns, target, state);
  populateBarrierPatterns(converter, patterns, target, state);
  populateMbarrierPatterns(converter, patterns, target, state);
  populateWarpPatterns(converter, patterns, target, state);
  populateMatrixPatterns(converter, patterns, target, state);
  populateFunctionPatterns(converter, patterns, target, state);
  populateGlobalPatterns(converter, patterns, target, state);
  populateSpecialRegisterPatterns(converter, patterns, target, state);
  populateNativePatterns(converter, patterns, target, state);
}
