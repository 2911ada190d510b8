//===- GlobalOpToLLVM.cpp - Module-scope variables ------------------------===//
//
// .global, .const, .shared and module-scope .local variables with their
// initializers (dense, partial, symbol addresses: function tables and
// vtables) and linkage, and their addresses (docs/lowering.md, "Kernels,
// functions, memory").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// A dense initializer is lowered for an array (of scalars) it does not
/// overrun, in row-major order.
bool denseInitializerFits(GlobalOp op) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(op.getInitAttr());
  if (!dense)
    return true;
  std::optional<ArrayRef<int64_t>> dims = op.getDims();
  if (op.getVec() || !dims || dims->empty())
    return false;
  int64_t count = 1;
  for (int64_t d : *dims)
    count *= d;
  return dense.getNumElements() <= count;
}

/// An initializer holding addresses of symbols (function tables, vtables)
/// that the lowering builds: a scalar, or a one-dimensional array of
/// integers, floats and whole addresses (with offsets, no byte masks) of
/// 32- or 64-bit elements.
bool symbolInitializerFits(GlobalOp op) {
  if (op.getVec() || (op.getDims() && op.getDims()->size() > 1))
    return false;
  unsigned width =
      getRegisterType(op.getContext(), op.getType()).getIntOrFloatBitWidth();
  auto fits = [&](Attribute a) {
    if (auto sym = dyn_cast<SymbolAddrAttr>(a))
      return sym.getMask() == 0 && (width == 32 || width == 64);
    return isa<IntegerAttr, FloatAttr>(a);
  };
  Attribute init = op.getInitAttr();
  if (auto list = dyn_cast<ArrayAttr>(init)) {
    int64_t count = op.getDims() ? (*op.getDims())[0] : 1;
    return op.getDims() && int64_t(list.size()) <= count &&
           llvm::all_of(list, fits);
  }
  return isa<SymbolAddrAttr>(init) && fits(init);
}

struct AddressOfLowering : OpConversionPattern<AddressOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddressOfOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type ptr = getTypeConverter()->convertType(op.getType());
    auto module = op->getParentOfType<ModuleOp>();
    Operation *sym = SymbolTable::lookupSymbolIn(module, op.getSymbolAttr());
    unsigned as = 0;
    if (auto g = dyn_cast_or_null<LLVM::GlobalOp>(sym))
      as = g.getAddrSpace();
    Value addr = LLVM::AddressOfOp::create(
        rewriter, op.getLoc(), LLVM::LLVMPointerType::get(op.getContext(), as),
        op.getSymbol());
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), addr, ptr));
    return success();
  }
};

struct GlobalLowering : TargetOpConversion<GlobalOp> {
  using TargetOpConversion::TargetOpConversion;
  LogicalResult
  matchAndRewrite(GlobalOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Type elem = getRegisterType(ctx, op.getType());
    Type type = elem;
    if (op.getVec())
      type = LLVM::LLVMArrayType::get(elem, *op.getVec());
    uint64_t count = 1;
    if (auto dims = op.getDims())
      for (int64_t d : llvm::reverse(*dims)) {
        type = LLVM::LLVMArrayType::get(type, d);
        count *= d;
      }
    Attribute init = op.getInitAttr();
    if (init && !isa<DenseElementsAttr, IntegerAttr, FloatAttr>(init)) {
      if (!symbolInitializerFits(op))
        return op.emitError("unsupported: initializer of '")
               << op.getSymName() << "'";
      return lowerSymbolInitializer(op, elem, type, rewriter);
    }
    if (auto dense = dyn_cast_or_null<DenseElementsAttr>(init)) {
      // Dense initializers list the array's elements in row-major order,
      // possibly fewer: PTX zero-fills the rest.
      if (!denseInitializerFits(op))
        return op.emitError("unsupported: initializer shape of '")
               << op.getSymName() << "'";
      Type elt = dense.getElementType();
      auto shape = RankedTensorType::get(*op.getDims(), elt);
      if (dense.getNumElements() < static_cast<int64_t>(count)) {
        SmallVector<Attribute> values(dense.getValues<Attribute>());
        values.resize(count, rewriter.getZeroAttr(elt));
        init = DenseElementsAttr::get(shape, values);
      } else if (op.getDims()->size() > 1) {
        init = dense.reshape(shape);
      }
    }
    bool isExtern = op.getLinkage() && *op.getLinkage() == Linkage::extern_;
    unsigned as = target.getAddressSpace(op.getSpace());
    auto g = LLVM::GlobalOp::create(
        rewriter, op.getLoc(), type, /*isConstant=*/false, linkageOf(op),
        op.getSymName(), as == 3 ? Attribute() : init,
        op.getAlignment().value_or(0), as);
    if (!init && as != 3 && !isExtern)
      g.setValueAttr(Attribute()); // zero-initialized below
    if (!init && !isExtern && as != 3) {
      Block *b = rewriter.createBlock(&g.getInitializerRegion());
      rewriter.setInsertionPointToStart(b);
      Value zero = LLVM::ZeroOp::create(rewriter, op.getLoc(), type);
      LLVM::ReturnOp::create(rewriter, op.getLoc(), zero);
    }
    if (as == 3 && !isExtern) {
      Block *b = rewriter.createBlock(&g.getInitializerRegion());
      rewriter.setInsertionPointToStart(b);
      Value undef = LLVM::PoisonOp::create(rewriter, op.getLoc(), type);
      LLVM::ReturnOp::create(rewriter, op.getLoc(), undef);
    }
    rewriter.eraseOp(op);
    return success();
  }
  /// `.global` and `.const` variables are the host's too: it finds them by
  /// name (cuModuleGetGlobal, cudaMemcpyToSymbol) and may write them, even
  /// `.const` ones and those without `.visible`, so they keep their names in
  /// the code object and are never constant (an internal constant with a
  /// zero initializer would fold every load to 0). Shared memory and
  /// module-scope `.local` variables are the module's own.
  LLVM::Linkage linkageOf(GlobalOp op) const {
    bool isExtern = op.getLinkage() && *op.getLinkage() == Linkage::extern_;
    StateSpace space = op.getSpace();
    if (isExtern || space == StateSpace::global || space == StateSpace::const_)
      return LLVM::Linkage::External;
    return LLVM::Linkage::Internal;
  }

  /// A global whose initializer holds symbol addresses: an initializer
  /// region of constant expressions (address, byte offset, ptrtoint, trunc
  /// for 32-bit elements), missing elements zero.
  LogicalResult
  lowerSymbolInitializer(GlobalOp op, Type elem, Type type,
                         ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto module = op->getParentOfType<ModuleOp>();
    unsigned as = target.getAddressSpace(op.getSpace());
    auto g = LLVM::GlobalOp::create(rewriter, loc, type, /*isConstant=*/false,
                                    linkageOf(op), op.getSymName(), Attribute(),
                                    op.getAlignment().value_or(0), as);
    Block *b = rewriter.createBlock(&g.getInitializerRegion());
    rewriter.setInsertionPointToStart(b);
    auto element = [&](Attribute a) -> Value {
      auto sym = dyn_cast<SymbolAddrAttr>(a);
      if (!sym) {
        if (auto f = dyn_cast<FloatAttr>(a))
          return LLVM::ConstantOp::create(
              rewriter, loc, elem,
              rewriter.getFloatAttr(elem, f.getValueAsDouble()));
        return LLVM::ConstantOp::create(
            rewriter, loc, elem,
            rewriter.getIntegerAttr(elem,
                                    cast<IntegerAttr>(a).getValue().sextOrTrunc(
                                        elem.getIntOrFloatBitWidth())));
      }
      // Functions and variables by their address in their own space (on
      // both targets a global or constant address equals its generic one).
      Operation *target = SymbolTable::lookupSymbolIn(module, sym.getSymbol());
      unsigned symAs = 0;
      if (auto v = dyn_cast_or_null<GlobalOp>(target))
        symAs = this->target.getAddressSpace(v.getSpace());
      else if (auto v = dyn_cast_or_null<LLVM::GlobalOp>(target))
        symAs = v.getAddrSpace(); // converted already
      Value addr = LLVM::AddressOfOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(ctx, symAs),
          sym.getSymbol());
      if (sym.getOffset())
        addr = LLVM::GEPOp::create(
            rewriter, loc, addr.getType(), rewriter.getI8Type(), addr,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(sym.getOffset())});
      Value i =
          LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), addr);
      Type it = rewriter.getIntegerType(elem.getIntOrFloatBitWidth());
      if (it != i.getType())
        i = LLVM::TruncOp::create(rewriter, loc, it, i);
      return it == elem
                 ? i
                 : Value(LLVM::BitcastOp::create(rewriter, loc, elem, i));
    };
    Value v;
    if (auto list = dyn_cast<ArrayAttr>(op.getInitAttr())) {
      v = LLVM::ZeroOp::create(rewriter, loc, type);
      for (auto [i, a] : llvm::enumerate(list))
        v = LLVM::InsertValueOp::create(rewriter, loc, v, element(a),
                                        ArrayRef<int64_t>{int64_t(i)});
    } else {
      v = element(op.getInitAttr());
    }
    LLVM::ReturnOp::create(rewriter, loc, v);
    rewriter.eraseOp(op);
    return success();
  }
};

std::string checkGlobal(Operation *op, const TargetInfo &) {
  auto global = cast<GlobalOp>(op);
  Attribute init = global.getInitAttr();
  if (init && !isa<DenseElementsAttr, IntegerAttr, FloatAttr>(init) &&
      !symbolInitializerFits(global))
    return ("initializer of '" + global.getSymName() +
            "' (nested lists, or symbol addresses in vectors, "
            "multi-dimensional arrays or byte masks)")
        .str();
  if (!denseInitializerFits(global))
    return ("initializer shape of '" + global.getSymName() +
            "' (vectors, or more values than elements)")
        .str();
  return "";
}

} // namespace

void zluda::ptx::lowering::populateGlobalPatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  const TargetInfo &target,
                                                  LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<GlobalLowering>(converter, ctx, target);
  patterns.add<AddressOfLowering>(converter, ctx);
  addCheck<GlobalOp>(state, ctx, checkGlobal);
}
