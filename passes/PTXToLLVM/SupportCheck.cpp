//===- SupportCheck.cpp - What the lowering handles, before it runs -------===//
//
// An op is supported when a registered pattern lowers it and its family's
// check accepts it (its modifiers, operand forms, the target's registers);
// everything else is reported, with its location and function, before the
// conversion starts, so that the conversion itself never fails on it.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "dialects/ptx/PTXDialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

std::string zluda::ptx::lowering::instructionText(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName().stripDialect();
  if (auto mods = op->getAttrOfType<ModifiersAttr>("mods")) {
    std::string m;
    llvm::raw_string_ostream ms(m);
    printModifiers(ms, mods);
    if (!m.empty())
      os << '.' << m;
  }
  return text;
}

std::string zluda::ptx::lowering::checkModifiers(Operation *op,
                                                 const ModifierPolicy &p) {
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  if (!mods)
    return "";
  auto has = [&](Flag f) { return hasFlag(mods, f); };
  std::optional<RoundingMode> rnd = mods.getRounding();
  if ((has(Flag::cc) && !p.carry) || (mods.getExtras() && !p.extras) ||
      (rnd && *rnd != RoundingMode::rn && !p.anyRounding && !p.directed) ||
      ((has(Flag::NaN) || has(Flag::xorsign)) && !p.nanXorsign) ||
      (has(Flag::relu) && !p.relu))
    return instructionText(op);
  for (TypeKind t : mods.getTypes()) {
    bool packed = t == TypeKind::f16x2 || t == TypeKind::bf16x2;
    bool fp8Pair = t == TypeKind::e4m3x2 || t == TypeKind::e5m2x2;
    bool packedInt = t == TypeKind::u16x2 || t == TypeKind::s16x2;
    if ((packed && p.packedHalves) || (t == TypeKind::tf32 && p.tf32) ||
        (fp8Pair && p.fp8Pairs) || (packedInt && p.packedInts) ||
        (t == TypeKind::b128 && p.b128))
      continue;
    if (packed || packedInt || fp8Pair || t == TypeKind::tf32 ||
        t == TypeKind::e4m3 || t == TypeKind::e5m2 || t == TypeKind::b128)
      return instructionText(op);
  }
  return "";
}

std::string zluda::ptx::lowering::checkModifiers(
    Operation *op, const ModifierPolicy &p,
    llvm::function_ref<std::optional<StringRef>(ModifiersAttr)> refuse) {
  if (std::string text = checkModifiers(op, p); !text.empty())
    return text;
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  if (!mods)
    return "";
  if (std::optional<StringRef> suffix = refuse(mods))
    return instructionText(op) + suffix->str();
  return "";
}

namespace {

/// The ops the registered patterns lower (an op-independent pattern, the
/// native instructions', counts through LoweringState).
llvm::DenseSet<OperationName> loweredOps(RewritePatternSet &patterns) {
  llvm::DenseSet<OperationName> ops;
  for (const std::unique_ptr<RewritePattern> &p : patterns.getNativePatterns())
    if (std::optional<OperationName> root = p->getRootKind())
      ops.insert(*root);
  return ops;
}

/// Why the lowering cannot handle `op`, or empty.
std::string unsupportedReason(Operation *op, const TargetInfo &target,
                              const LoweringState &state,
                              const llvm::DenseSet<OperationName> &lowered) {
  if (!isa_and_nonnull<PTXDialect>(op->getDialect()))
    return "";
  if (state.nativeInstructions && op->hasAttr("native"))
    return "";
  if (!lowered.contains(op->getName()))
    return instructionText(op);
  UnsupportedCheck check = state.checks.lookup(op->getName());
  return check ? check(op, target) : checkModifiers(op, {});
}

} // namespace

llvm::SetVector<Operation *> zluda::ptx::lowering::reportUnsupported(
    ModuleOp module, const TargetInfo &target, RewritePatternSet &patterns,
    const LoweringState &state) {
  llvm::DenseSet<OperationName> lowered = loweredOps(patterns);
  llvm::SetVector<Operation *> holders;
  module.walk([&](Operation *op) {
    std::string reason = unsupportedReason(op, target, state, lowered);
    if (reason.empty())
      return;
    InFlightDiagnostic diag = op->emitError("unsupported: ") << reason;
    Operation *fn =
        isa<EntryOp, FuncOp>(op)
            ? op
            : op->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
    if (fn && !isa<EntryOp, FuncOp>(fn))
      fn = nullptr;
    if (fn)
      diag.attachNote() << "in '"
                        << fn->getAttrOfType<StringAttr>(
                                 SymbolTable::getSymbolAttrName())
                               .getValue()
                        << "'";
    holders.insert(fn);
  });
  return holders;
}

namespace {

/// reportUnsupported with the patterns and state of a conversion for
/// `target`.
llvm::SetVector<Operation *> reportUnsupported(ModuleOp module,
                                               const TargetInfo &target) {
  TypeConverter converter;
  populatePTXToLLVMTypeConversion(converter, target);
  RewritePatternSet patterns(module.getContext());
  LoweringState state;
  populatePTXToLLVMPatterns(converter, patterns, target, state);
  return lowering::reportUnsupported(module, target, patterns, state);
}

} // namespace

LogicalResult zluda::ptx::checkSupported(ModuleOp module,
                                         const TargetInfo &target) {
  return success(reportUnsupported(module, target).empty());
}

FailureOr<SmallVector<std::string>>
zluda::ptx::removeUnsupportedKernels(ModuleOp module,
                                     const TargetInfo &target) {
  llvm::SetVector<Operation *> bad = reportUnsupported(module, target);
  if (bad.contains(nullptr))
    return failure();
  // A function referring to a removed one (a call, an address) goes too,
  // and so does a variable whose initializer holds a removed function's
  // address (a vtable), with the functions using it; to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation &fn : module.getBody()->getOperations()) {
      if (auto global = dyn_cast<GlobalOp>(fn)) {
        if (bad.contains(&fn) || !global.getInitAttr())
          continue;
        global.getInitAttr().walk([&](SymbolAddrAttr a) {
          Operation *sym =
              SymbolTable::lookupSymbolIn(module, a.getSymbol().getAttr());
          if (sym && bad.contains(sym))
            changed |= bad.insert(&fn);
        });
        continue;
      }
      if (!isa<EntryOp, FuncOp>(fn) || bad.contains(&fn))
        continue;
      auto uses = SymbolTable::getSymbolUses(&fn);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses) {
        Operation *sym = SymbolTable::lookupSymbolIn(
            module, use.getSymbolRef().getRootReference());
        if (sym && bad.contains(sym)) {
          changed |= bad.insert(&fn);
          break;
        }
      }
    }
  }
  SmallVector<std::string> removed;
  for (Operation *fn : bad) {
    if (auto entry = dyn_cast<EntryOp>(fn))
      removed.push_back(entry.getSymName().str());
    fn->erase();
  }
  return removed;
}
