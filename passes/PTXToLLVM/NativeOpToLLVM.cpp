//===- NativeOpToLLVM.cpp - NVIDIA's own instructions ---------------------===//
//
// The families the AMDGPU lowering leaves out (textures, surfaces, matrix
// instructions, barrier objects, bulk copies), kept by the parser in their
// original spelling (the `native` attribute), emitted as inline PTX where
// TargetInfo says the target runs them (NVPTX, for the verification
// oracle's runtime shim). Elsewhere they stay unsupported.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// An instruction of a family the AMDGPU lowering leaves out (textures,
/// surfaces, matrix instructions, barrier objects, bulk copies; the parser's
/// `native` template) on a target that has it: NVIDIA's own instruction as
/// inline PTX, its results and operands in registers of their width. Only
/// the NVPTX target registers it.
struct NativeInstLowering : ConversionPattern {
  NativeInstLowering(const TypeConverter &tc, MLIRContext *ctx)
      : ConversionPattern(tc, MatchAnyOpTypeTag(), /*benefit=*/2, ctx) {}

  /// The inline-asm constraint letter of an NVPTX register holding `t`.
  static char letter(Type t) {
    switch (t.getIntOrFloatBitWidth()) {
    case 1:
      return 'b';
    case 16:
      return 'h';
    case 32:
      return t.isF32() ? 'f' : 'r';
    default:
      return t.isF64() ? 'd' : 'l';
    }
  }
  /// The type of the NVPTX register inline asm holds a `t` in: f32, f64
  /// and integers as they are, pointers as i64, halves and vectors as
  /// integers of their width.
  static Type registerType(OpBuilder &b, Type t) {
    if (t.isF32() || t.isF64() || t.isInteger())
      return t;
    return b.getIntegerType(bitWidth(t));
  }
  /// `v` in its registerType.
  static Value scalar(OpBuilder &b, Location loc, Value v) {
    Type t = v.getType(), r = registerType(b, t);
    if (r == t)
      return v;
    if (isa<LLVM::LLVMPointerType>(t))
      return LLVM::PtrToIntOp::create(b, loc, r, v);
    return LLVM::BitcastOp::create(b, loc, r, v);
  }

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto text = op->getAttrOfType<StringAttr>("native");
    if (!text)
      return failure();
    Location loc = op->getLoc();
    std::string constraints;
    SmallVector<Type> outTypes, resultTypes;
    for (Type t : op->getResultTypes()) {
      Type r = getTypeConverter()->convertType(t);
      if (!r)
        return failure();
      resultTypes.push_back(r);
      Type s = registerType(rewriter, r);
      outTypes.push_back(s);
      constraints += (constraints.empty() ? "=" : ",=");
      constraints += letter(s);
    }
    // The first `native_tied` operands are the results' registers read
    // again (wgmma's accumulators): tied to them.
    int64_t tied = 0;
    if (auto t = op->getAttrOfType<IntegerAttr>("native_tied"))
      tied = t.getInt();
    SmallVector<Value> inputs;
    for (auto [i, v] : llvm::enumerate(operands)) {
      Value s = scalar(rewriter, loc, v);
      if (static_cast<int64_t>(i) < tied && s.getType() != outTypes[i])
        s = LLVM::BitcastOp::create(rewriter, loc, outTypes[i], s);
      inputs.push_back(s);
      constraints += constraints.empty() ? "" : ",";
      constraints += static_cast<int64_t>(i) < tied
                         ? std::to_string(i)
                         : std::string(1, letter(s.getType()));
    }
    SmallVector<Type, 1> asmType;
    if (outTypes.size() == 1)
      asmType.push_back(outTypes.front());
    else if (!outTypes.empty())
      asmType.push_back(
          LLVM::LLVMStructType::getLiteral(op->getContext(), outTypes));
    auto call = LLVM::InlineAsmOp::create(
        rewriter, loc, asmType, inputs, text.getValue(), constraints,
        /*has_side_effects=*/true,
        /*is_align_stack=*/false, LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr(), ArrayAttr());
    SmallVector<Value> results;
    for (auto [i, t] : llvm::enumerate(resultTypes)) {
      Value r = outTypes.size() == 1
                    ? call.getResult(0)
                    : LLVM::ExtractValueOp::create(
                          rewriter, loc, call.getResult(0),
                          ArrayRef<int64_t>{static_cast<int64_t>(i)});
      if (r.getType() != t)
        r = LLVM::BitcastOp::create(rewriter, loc, t, r);
      results.push_back(r);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void zluda::ptx::lowering::populateNativePatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  const TargetInfo &target,
                                                  LoweringState &state) {
  if (!target.lowersNativeInstructions())
    return;
  patterns.add<NativeInstLowering>(converter, patterns.getContext());
  state.nativeInstructions = true;
}
