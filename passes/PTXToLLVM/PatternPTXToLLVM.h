//===- PatternPTXToLLVM.h - The lowering's families -------------*- C++ -*-===//
//
// Internal to passes/PTXToLLVM: what the family files share. Each family
// (docs/lowering.md, in that order) is one file with one populate function
// that adds its patterns and, for the ops they lower, its support checks;
// the helpers below are the ones more than one family uses.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_PATTERNPTXTOLLVM_H
#define ZLUDA_PASSES_PTXTOLLVM_PATTERNPTXTOLLVM_H

#include "passes/PTXToLLVM/DirectedRounding.h"
#include "passes/PTXToLLVM/FloatOp.h"
#include "passes/PTXToLLVM/PTXToLLVM.h"
#include "passes/PTXToLLVM/TargetInfo.h"

#include "dialects/ptx/PTXOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <string>

namespace zluda::ptx::lowering {

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

#define ZLUDA_FAMILY(Name)                                                     \
  void populate##Name##Patterns(                                               \
      mlir::TypeConverter &converter, mlir::RewritePatternSet &patterns,       \
      const TargetInfo &target, LoweringState &state);
/// ArithmeticOpToLLVM.cpp: integer and float arithmetic, carry chains,
/// mul24/mad24, sad, dot products, video instructions, approximate math.
ZLUDA_FAMILY(Arithmetic)
/// CompareSelectOpToLLVM.cpp: setp, set, selp, slct, testp.
ZLUDA_FAMILY(CompareSelect)
/// BitOpToLLVM.cpp: logic, shifts, funnel shifts, bit fields, bit search,
/// lop3, prmt, fns.
ZLUDA_FAMILY(Bit)
/// ConvertOpToLLVM.cpp: cvt (FP8 included), cvt.pack, mov.
ZLUDA_FAMILY(Convert)
/// MemoryOpToLLVM.cpp: ld, ldu, st, prefetch, cvta, isspacep, cp.async,
/// alloca and the stack, local variables and addresses.
ZLUDA_FAMILY(Memory)
/// AtomicOpToLLVM.cpp: atom, red.
ZLUDA_FAMILY(Atomic)
/// BarrierOpToLLVM.cpp: bar/barrier (named, with counts, .red), membar,
/// fence, griddepcontrol, nanosleep.
ZLUDA_FAMILY(Barrier)
/// MbarrierOpToLLVM.cpp: mbarrier, cp.async.mbarrier.arrive, the non-tensor
/// bulk copies (cp.async.bulk and its groups, L2 prefetch).
ZLUDA_FAMILY(Mbarrier)
/// WarpOpToLLVM.cpp: shfl, vote, redux, match, activemask, bar.warp.sync.
ZLUDA_FAMILY(Warp)
/// MatrixOpToLLVM.cpp: mma, wmma, ldmatrix, stmatrix, movmatrix in
/// software (lane shuffles, NVIDIA's tensor-core sums reproduced).
ZLUDA_FAMILY(Matrix)
/// FunctionOpToLLVM.cpp: kernels, functions, calls (the CUDA runtime's
/// included), returns, branches, constants, trap/brkpt/pmevent.
ZLUDA_FAMILY(Function)
/// GlobalOpToLLVM.cpp: module-scope variables and their addresses.
ZLUDA_FAMILY(Global)
/// SpecialRegisterOpToLLVM.cpp: the special registers.
ZLUDA_FAMILY(SpecialRegister)
/// NativeOpToLLVM.cpp: NVIDIA's own instructions where the target has them.
ZLUDA_FAMILY(Native)
#undef ZLUDA_FAMILY

/// What the families leave to do once the module is converted: the named
/// barriers' zeroing at every kernel's entry (BarrierOpToLLVM.cpp) and the
/// body of `isspacep.const`'s address test (MemoryOpToLLVM.cpp).
void zeroNamedBarriers(mlir::ModuleOp module,
                       llvm::ArrayRef<llvm::StringRef> kernels,
                       const TargetInfo &target);
void defineConstAddressTest(mlir::ModuleOp module, const TargetInfo &target);

//===----------------------------------------------------------------------===//
// The patterns' context
//===----------------------------------------------------------------------===//

/// What a pattern needs besides its op: the target and the conversion's
/// state. Two references, copied into every pattern.
struct Lowering {
  const TargetInfo &target;
  LoweringState &state;

  /// The CC.CF register (i32, 0 or 1) of the function holding `op`: a stack
  /// slot at the function's entry, zeroed there, which SROA turns into SSA
  /// values, so the carry flows through branches like any register.
  mlir::Value carrySlot(mlir::OpBuilder &b, mlir::Operation *op) const;
  /// A pointer for the address operand `addr` of an access in `space`.
  mlir::Value pointer(mlir::OpBuilder &b, mlir::Location loc, mlir::Value addr,
                      std::optional<StateSpace> space) const;
};

/// A structural pattern (functions, variables, registers) that asks the
/// target.
template <typename OpTy>
struct TargetOpConversion : mlir::OpConversionPattern<OpTy> {
  TargetOpConversion(const mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
                     const TargetInfo &target)
      : mlir::OpConversionPattern<OpTy>(tc, ctx), target(target) {}
  const TargetInfo &target;
};

using Results = mlir::FailureOr<llvm::SmallVector<mlir::Value>>;

/// One pattern per instruction op: the family function computes the results.
template <typename OpTy> struct InstLowering : mlir::OpConversionPattern<OpTy> {
  using Fn = Results (*)(OpTy, mlir::ValueRange, ModifiersAttr,
                         mlir::ConversionPatternRewriter &, const Lowering &);
  InstLowering(const mlir::TypeConverter &tc, mlir::MLIRContext *ctx,
               Lowering l, Fn fn)
      : mlir::OpConversionPattern<OpTy>(tc, ctx), lowering(l), fn(fn) {}
  mlir::LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    auto results = fn(op, adaptor.getArgs(), op.getMods(), rewriter, lowering);
    if (mlir::failed(results))
      return mlir::failure();
    rewriter.replaceOp(op, *results);
    return mlir::success();
  }
  Lowering lowering;
  Fn fn;
};

/// The support check of `OpTy`'s pattern.
template <typename OpTy>
void addCheck(LoweringState &state, mlir::MLIRContext *ctx,
              UnsupportedCheck check) {
  state.checks[mlir::OperationName(OpTy::getOperationName(), ctx)] = check;
}

/// Adds the pattern lowering the instruction `OpTy` with `fn`, and its
/// support check (null: the modifiers every instruction is checked for).
template <typename OpTy>
void addInst(mlir::RewritePatternSet &patterns,
             const mlir::TypeConverter &converter, const TargetInfo &target,
             LoweringState &state,
             Results (*fn)(OpTy, mlir::ValueRange, ModifiersAttr,
                           mlir::ConversionPatternRewriter &, const Lowering &),
             UnsupportedCheck check = nullptr) {
  patterns.add<InstLowering<OpTy>>(converter, patterns.getContext(),
                                   Lowering{target, state}, fn);
  addCheck<OpTy>(state, patterns.getContext(), check);
}

/// A family's instruction patterns with their support checks, added as
/// `add(lowerX<XOp>, checkX)`.
class InstPatterns {
public:
  InstPatterns(const mlir::TypeConverter &converter,
               mlir::RewritePatternSet &patterns, const TargetInfo &target,
               LoweringState &state)
      : converter(converter), patterns(patterns), target(target), state(state) {
  }
  template <typename OpTy>
  void operator()(Results (*fn)(OpTy, mlir::ValueRange, ModifiersAttr,
                                mlir::ConversionPatternRewriter &,
                                const Lowering &),
                  UnsupportedCheck check = nullptr) const {
    addInst(patterns, converter, target, state, fn, check);
  }

private:
  const mlir::TypeConverter &converter;
  mlir::RewritePatternSet &patterns;
  const TargetInfo &target;
  LoweringState &state;
};

//===----------------------------------------------------------------------===//
// Support checks
//===----------------------------------------------------------------------===//

/// Reports every op of `module` that no pattern of `patterns` lowers or
/// that its family's check (in `state`) refuses, as `unsupported: ...` with
/// its location and function; returns the functions holding one (null for
/// an op outside functions).
llvm::SetVector<mlir::Operation *>
reportUnsupported(mlir::ModuleOp module, const TargetInfo &target,
                  mlir::RewritePatternSet &patterns,
                  const LoweringState &state);

/// The modifiers outside the common set an instruction's family lowers
/// (each false: the instruction is unsupported when it carries it).
struct ModifierPolicy {
  bool carry = false;        ///< .cc
  bool extras = false;       ///< modifiers the parser keeps as words
  bool anyRounding = false;  ///< every rounding modifier (cvt)
  bool directed = false;     ///< .rz .rm .rp (the op's directed arithmetic)
  bool nanXorsign = false;   ///< .NaN, .xorsign
  bool relu = false;         ///< .relu
  bool packedHalves = false; ///< .f16x2, .bf16x2
  bool packedInts = false;   ///< .u16x2, .s16x2
  bool tf32 = false;         ///< .tf32
  bool fp8Pairs = false;     ///< .e4m3x2, .e5m2x2
  bool b128 = false;         ///< .b128
};

/// The instruction as written, `name.modifiers` (the text of its
/// `unsupported:` diagnostic).
std::string instructionText(mlir::Operation *op);
/// "" if every modifier of `op` (an instruction) is in the common set or
/// allowed by `policy`, else instructionText.
std::string checkModifiers(mlir::Operation *op, const ModifierPolicy &policy);
/// checkModifiers, then the family's own refusal of an instruction that
/// carries modifiers: `refuse` gives nothing to accept it, else the suffix
/// of instructionText in the diagnostic ("" for none).
std::string checkModifiers(
    mlir::Operation *op, const ModifierPolicy &policy,
    llvm::function_ref<std::optional<llvm::StringRef>(ModifiersAttr)> refuse);

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The LLVM type an instruction computes in for PTX type `kind`.
mlir::Type semanticType(mlir::MLIRContext *ctx, TypeKind kind);
/// The instruction type's (the `i`-th type modifier's) LLVM type.
mlir::Type instType(mlir::Operation *op, ModifiersAttr mods, unsigned i = 0);
unsigned bitWidth(mlir::Type t);
/// Converts `v` to `to`: same width by bitcast, integers by truncation or
/// extension (`signExtend` for signed PTX types), pointers by ptrtoint.
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::Type to, bool signExtend = false);
mlir::Value constInt(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                     int64_t v);
mlir::Value constFloat(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                       double v);
/// An integer constant of type `t`: a scalar, or a splat vector.
mlir::Value splatInt(mlir::OpBuilder &b, mlir::Location loc, mlir::Type t,
                     int64_t v);
/// The integer type of a float type's bits (f32 -> i32, vector<2xf16> ->
/// vector<2xi16>).
mlir::Type bitsType(mlir::Type t);
/// The smallest normal magnitude of the types `.ftz` applies to (f32 and
/// f16, scalars or pairs); 0 for the others.
double ftzMinNormal(mlir::Type t);
/// `.ftz` on f32 and f16 (scalars or pairs): subnormal inputs and results
/// become zero of the same sign.
mlir::Value flushDenormal(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value v);
/// `.sat` on floats: clamp to [0, 1], NaN to +0.
mlir::Value saturate(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v);
/// NVIDIA's canonical NaN (all ones but the sign) where `bad` holds.
mlir::Value canonicalNaNIf(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value bad, mlir::Value v);
/// `.relu` on a float result: negative values and -0 become +0, NaN the
/// canonical NaN.
mlir::Value floatRelu(mlir::OpBuilder &b, mlir::Location loc, mlir::Value r);
/// The high half of the double-width product of `x` and `y` (mul.hi).
mlir::Value mulHigh(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                    mlir::Value y, bool isSigned);
/// Stack memory for `count` values of `elem`: an alloca in the target's
/// alloca address space, as an addrspace(5) (.local) pointer.
mlir::Value createStackSlot(mlir::OpBuilder &b, mlir::Location loc,
                            const TargetInfo &target, mlir::Type elem,
                            mlir::Value count, unsigned align);
/// Whether the instruction carries the modifier flag `f`.
bool hasFlag(ModifiersAttr mods, Flag f);
/// The directed mode of a float rounding modifier (.rz .rm .rp), if any.
std::optional<Directed> directedMode(std::optional<RoundingMode> r);
/// The LLVM ordering of a PTX memory semantics (`dflt` without one).
mlir::LLVM::AtomicOrdering ordering(std::optional<MemSemantics> sem,
                                    mlir::LLVM::AtomicOrdering dflt);
/// The single-result form of Results.
Results one(mlir::Value v);
/// An instruction with nothing to do on the target (a wait for work the
/// lowering has already completed, an invalidation): no results.
template <typename OpTy>
Results lowerNothing(OpTy, mlir::ValueRange, ModifiersAttr,
                     mlir::ConversionPatternRewriter &, const Lowering &) {
  return llvm::SmallVector<mlir::Value>{};
}

} // namespace zluda::ptx::lowering

#endif // ZLUDA_PASSES_PTXTOLLVM_PATTERNPTXTOLLVM_H
