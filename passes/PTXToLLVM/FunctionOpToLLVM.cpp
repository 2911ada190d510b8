//===- FunctionOpToLLVM.cpp - Kernels, functions, calls, control flow -----===//
//
// Kernels (the target's parameter passing and kernel attributes), device
// functions with PTX's ABI (.param values in the callee's own stack slots,
// .reg returns), direct and indirect calls, the CUDA runtime's device
// functions (malloc, free, vprintf, __assertfail), returns, exit,
// branches, constants, trap, brkpt and pmevent (docs/lowering.md,
// "Kernels, functions, memory").
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// The CUDA runtime's device functions that modules declare `.extern`,
/// with their C signatures (PTX passes them in .param storage).
struct RuntimeFunction {
  llvm::StringLiteral name;
  /// 'v' void, 'i' i32, 'l' i64: the result, then the parameters.
  llvm::StringLiteral signature;
};

constexpr RuntimeFunction runtimeFunctions[] = {
    {"malloc", "ll"},
    {"free", "vl"},
    {"vprintf", "ill"},
    {"__assertfail", "vllill"},
};

const RuntimeFunction *findRuntimeFunction(StringRef name) {
  for (const RuntimeFunction &f : runtimeFunctions)
    if (f.name == name)
      return &f;
  return nullptr;
}

LLVM::LLVMFunctionType runtimeFunctionType(MLIRContext *ctx,
                                           const RuntimeFunction &f) {
  auto type = [&](char c) -> Type {
    return c == 'v'   ? Type(LLVM::LLVMVoidType::get(ctx))
           : c == 'i' ? Type(IntegerType::get(ctx, 32))
                      : Type(IntegerType::get(ctx, 64));
  };
  SmallVector<Type> params;
  for (char c : f.signature.drop_front())
    params.push_back(type(c));
  return LLVM::LLVMFunctionType::get(type(f.signature.front()), params);
}

/// A `.param` parameter crosses a call as a value (the PTX ABI's: nvcc's
/// code declares call-site `.param` storage, but the callee's storage is its
/// own): scalars as integers of their width, arrays and vectors as bytes.
Type paramValueType(MLIRContext *ctx, ParamAttr d) {
  uint64_t bits = getTypeBitWidth(d.getType());
  if (d.getDims().empty() && !d.getVec() && bits >= 8)
    return IntegerType::get(ctx, bits);
  uint64_t size = std::max<uint64_t>(bits / 8, 1);
  for (int64_t dim : d.getDims())
    size *= std::max<int64_t>(dim, 1);
  if (d.getVec())
    size *= d.getVec();
  return LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), size);
}

unsigned paramAlign(ParamAttr d) {
  uint64_t bits = getTypeBitWidth(d.getType());
  uint64_t align =
      d.getAlign() ? d.getAlign() : std::max<uint64_t>(bits / 8, 1);
  return std::min<uint64_t>(llvm::PowerOf2Ceil(align), 16);
}

template <typename FnOp> struct FunctionLowering : OpConversionPattern<FnOp> {
  FunctionLowering(const TypeConverter &tc, MLIRContext *ctx, Lowering l)
      : OpConversionPattern<FnOp>(tc, ctx), target(l.target), lowering(l) {}

  LogicalResult
  matchAndRewrite(FnOp op, typename FnOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    bool isKernel = std::is_same_v<FnOp, EntryOp>;
    SmallVector<ParamAttr> decls = getDeclaredParams(op);
    size_t numReturns = op.getReturns() ? op.getReturns()->size() : 0;
    if (!isKernel)
      lowering.state.signatures[op.getSymName()] = {decls, numReturns};
    // The CUDA runtime's device functions keep their C signatures (the
    // driver links them on NVPTX).
    if (const RuntimeFunction *rt = findRuntimeFunction(op.getSymName());
        rt && !isKernel && op.getBody().empty()) {
      LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getSymName(),
                               runtimeFunctionType(ctx, *rt));
      rewriter.eraseOp(op);
      return success();
    }

    // Kernel parameters are pointers to the parameter bytes, as the target
    // passes them (AMDGPU: byref into the kernarg segment; NVPTX: byval),
    // laid out as CUDA declares them (each at its alignment, arrays as
    // bytes). A function's `.param` parameters and returns are values
    // (paramValueType), each kept in a stack slot of the function's own that
    // its body reads and writes, as the PTX ABI has them; passing pointers
    // into the caller's frame instead broke recursive functions on NVIDIA.
    // The block arguments of `.reg` return parameters are the registers'
    // values before the body writes them: undefined, not LLVM arguments.
    SmallVector<Type> argTypes, resultTypes;
    TypeConverter::SignatureConversion sig(decls.size());
    SmallVector<unsigned> undefInputs;
    SmallVector<std::pair<unsigned, ParamAttr>> slotInputs; // remapped to slots
    SmallVector<std::pair<unsigned, unsigned>> storedArgs;  // new arg -> input
    SmallVector<LoweringState::ReturnPart> returns;
    for (auto [i, d] : llvm::enumerate(decls)) {
      bool isReturn = i < numReturns;
      if (isReturn && d.getSpace() == StateSpace::reg) {
        undefInputs.push_back(i);
        Type t = getRegisterType(ctx, d.getType());
        resultTypes.push_back(t);
        returns.push_back({Value(), t});
        continue;
      }
      if (d.getSpace() == StateSpace::param && isKernel) {
        Type t =
            LLVM::LLVMPointerType::get(ctx, target.kernelParamAddressSpace());
        sig.addInputs(i, t);
        argTypes.push_back(t);
      } else if (d.getSpace() == StateSpace::param) {
        Type t = paramValueType(ctx, d);
        slotInputs.push_back({unsigned(i), d});
        if (isReturn) {
          resultTypes.push_back(t);
          returns.push_back({Value(), t}); // slot filled in below
        } else {
          storedArgs.push_back({unsigned(argTypes.size()), unsigned(i)});
          sig.addInputs(t);
          argTypes.push_back(t);
        }
      } else {
        Type t = getRegisterType(ctx, d.getType());
        sig.addInputs(i, t);
        argTypes.push_back(t);
      }
    }
    Type resultType = resultTypes.empty() ? Type(LLVM::LLVMVoidType::get(ctx))
                      : resultTypes.size() == 1
                          ? resultTypes.front()
                          : LLVM::LLVMStructType::getLiteral(ctx, resultTypes);
    auto fnType = LLVM::LLVMFunctionType::get(resultType, argTypes);
    auto func = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getSymName(),
                                         fnType);
    bool external = op.getBody().empty();
    if (auto linkage = op.getLinkage();
        linkage && *linkage == Linkage::extern_ && external)
      func.setLinkage(LLVM::Linkage::External);
    else if (!op.getLinkage() && !isKernel)
      func.setLinkage(LLVM::Linkage::Internal);
    if (isKernel) {
      target.setKernelAttributes(func, op);
      for (auto [i, d] : llvm::enumerate(decls)) {
        uint64_t size = getTypeBitWidth(d.getType()) / 8;
        for (int64_t dim : d.getDims())
          size *= std::max<int64_t>(dim, 1);
        if (d.getVec())
          size *= d.getVec();
        auto bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), size);
        func.setArgAttr(i,
                        target.kernelParamsByValue()
                            ? LLVM::LLVMDialect::getByValAttrName()
                            : LLVM::LLVMDialect::getByRefAttrName(),
                        TypeAttr::get(bytes));
        uint64_t align =
            d.getAlign() ? d.getAlign() : std::max<uint64_t>(size, 1);
        align = std::min<uint64_t>(llvm::PowerOf2Ceil(align), 16);
        func.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                        rewriter.getI64IntegerAttr(align));
      }
    }
    if (!external) {
      rewriter.inlineRegionBefore(op.getBody(), func.getBody(), func.end());
      Block &entry = func.getBody().front();
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&entry);
      for (unsigned i : undefInputs)
        sig.remapInput(i,
                       {LLVM::UndefOp::create(rewriter, op.getLoc(),
                                              entry.getArgument(i).getType())});
      llvm::DenseMap<unsigned, Value> slots;
      for (auto [i, d] : slotInputs) {
        Value one = LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                             rewriter.getI32Type(), 1);
        Value slot =
            createStackSlot(rewriter, op.getLoc(), target,
                            paramValueType(ctx, d), one, paramAlign(d));
        // The body addresses .param storage generically.
        slot = castTo(rewriter, op.getLoc(), slot,
                      LLVM::LLVMPointerType::get(ctx, 0));
        slots[i] = slot;
        sig.remapInput(i, {slot});
      }
      for (size_t i = 0; i < numReturns; ++i)
        if (decls[i].getSpace() == StateSpace::param)
          returns[i].slot = slots[i];
      if (failed(rewriter.convertRegionTypes(&func.getBody(),
                                             *this->getTypeConverter(), &sig)))
        return failure();
      // The incoming values into their slots.
      Block &body = func.getBody().front();
      for (auto [arg, input] : storedArgs) {
        rewriter.setInsertionPointAfter(slots[input].getDefiningOp());
        LLVM::StoreOp::create(rewriter, op.getLoc(), body.getArgument(arg),
                              slots[input], paramAlign(decls[input]));
      }
      lowering.state.returnParts[func] = returns;
    }
    rewriter.eraseOp(op);
    return success();
  }

  const TargetInfo &target;
  Lowering lowering;
};

struct RetLowering : OpConversionPattern<RetOp> {
  RetLowering(const TypeConverter &tc, MLIRContext *ctx, Lowering l)
      : OpConversionPattern(tc, ctx), lowering(l) {}
  Lowering lowering;
  LogicalResult
  matchAndRewrite(RetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values;
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto parts = func ? lowering.state.returnParts.find(func)
                      : lowering.state.returnParts.end();
    if (parts != lowering.state.returnParts.end()) {
      // .reg returns from the operands, .param returns from their slots.
      ValueRange regs = adaptor.getValues();
      size_t next = 0;
      for (const LoweringState::ReturnPart &part : parts->second)
        values.push_back(part.slot
                             ? Value(LLVM::LoadOp::create(rewriter, op.getLoc(),
                                                          part.type, part.slot))
                             : regs[next++]);
    } else {
      values.assign(adaptor.getValues().begin(), adaptor.getValues().end());
    }
    if (values.size() <= 1) {
      rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, values);
      return success();
    }
    SmallVector<Type> types(ValueRange(values).getTypes());
    Type st = LLVM::LLVMStructType::getLiteral(op.getContext(), types);
    Value agg = LLVM::UndefOp::create(rewriter, op.getLoc(), st);
    for (auto [i, v] : llvm::enumerate(values))
      agg = LLVM::InsertValueOp::create(rewriter, op.getLoc(), agg, v, i);
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, agg);
    return success();
  }
};

struct ExitLowering : TargetOpConversion<ExitOp> {
  using TargetOpConversion::TargetOpConversion;
  LogicalResult
  matchAndRewrite(ExitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target.createExit(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
};

struct BraLowering : OpConversionPattern<BraOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BraOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::BrOp>(op, adaptor.getDestOperands(),
                                            op.getDest());
    return success();
  }
};

struct CondBraLowering : OpConversionPattern<CondBraOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CondBraOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::CondBrOp>(
        op, adaptor.getCondition(), op.getTrueDest(),
        adaptor.getTrueDestOperands(), op.getFalseDest(),
        adaptor.getFalseDestOperands());
    return success();
  }
};

struct BrxIdxLowering : OpConversionPattern<BrxIdxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BrxIdxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // An index past the list is undefined in PTX: it goes to the last target.
    SmallVector<int32_t> cases;
    SmallVector<Block *> dests;
    SmallVector<ValueRange> operands;
    for (auto [i, b] : llvm::enumerate(op.getTargets())) {
      cases.push_back(static_cast<int32_t>(i));
      dests.push_back(b);
      operands.push_back(ValueRange());
    }
    Value index = castTo(rewriter, op.getLoc(), adaptor.getIndex(),
                         rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<LLVM::SwitchOp>(
        op, index, dests.back(), ValueRange(), cases, dests, operands);
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ConstantOp>(op, op.getType(),
                                                  op.getValue());
    return success();
  }
};

struct UndefLowering : OpConversionPattern<UndefOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UndefOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // A register read before any write: zero, deterministically.
    rewriter.replaceOpWithNewOp<LLVM::ZeroOp>(op, op.getType());
    return success();
  }
};

struct CallLowering : OpConversionPattern<CallOp> {
  CallLowering(const TypeConverter &tc, MLIRContext *ctx, Lowering l)
      : OpConversionPattern(tc, ctx), target(l.target), lowering(l) {}
  const TargetInfo &target;
  Lowering lowering;

  /// The callee's declared returns and parameters: the prototype of an
  /// indirect call, else the function's declaration (lowered or not yet).
  bool calleeSignature(CallOp op, SmallVector<ParamAttr> &rets,
                       SmallVector<ParamAttr> &params) const {
    if (!op.getCallee()) {
      if (!op.getPrototype())
        return false;
      if (auto r = op.getPrototypeReturns())
        for (Attribute a : *r)
          rets.push_back(cast<ParamAttr>(a));
      ArrayAttr proto = *op.getPrototype();
      for (Attribute a : proto)
        params.push_back(cast<ParamAttr>(a));
      return true;
    }
    SmallVector<ParamAttr> decls;
    size_t numReturns;
    auto it = lowering.state.signatures.find(*op.getCallee());
    if (it != lowering.state.signatures.end()) {
      decls = it->second.first;
      numReturns = it->second.second;
    } else {
      Operation *fn = SymbolTable::lookupNearestSymbolFrom(
          op, StringAttr::get(op.getContext(), *op.getCallee()));
      auto func = dyn_cast_or_null<FuncOp>(fn);
      if (!func)
        return false;
      decls = getDeclaredParams(func);
      numReturns = func.getReturns() ? func.getReturns()->size() : 0;
    }
    rets.assign(decls.begin(), decls.begin() + numReturns);
    params.assign(decls.begin() + numReturns, decls.end());
    return true;
  }
  LogicalResult
  matchAndRewrite(CallOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The CUDA runtime's functions: arguments loaded from their .param
    // storage, called with the C signature (or replaced by the target),
    // the result stored back.
    if (const RuntimeFunction *rt =
            op.getCallee() ? findRuntimeFunction(*op.getCallee()) : nullptr) {
      auto fnType = runtimeFunctionType(getContext(), *rt);
      bool hasResult = !isa<LLVM::LLVMVoidType>(fnType.getReturnType());
      if (adaptor.getArgs().size() != fnType.getNumParams() ||
          adaptor.getRetParams().size() != size_t(hasResult))
        return op.emitError("unsupported: call to '")
               << *op.getCallee() << "' with an unexpected signature";
      SmallVector<Value> values;
      for (auto [slot, type] : llvm::zip(adaptor.getArgs(), fnType.getParams()))
        values.push_back(
            LLVM::LoadOp::create(rewriter, op.getLoc(), type, slot));
      Value result;
      if (!target.lowerRuntimeCall(rewriter, op.getLoc(), *op.getCallee(),
                                   values, result)) {
        auto call = LLVM::CallOp::create(rewriter, op.getLoc(), fnType,
                                         *op.getCallee(), values);
        if (hasResult)
          result = call.getResult();
      }
      if (hasResult)
        LLVM::StoreOp::create(rewriter, op.getLoc(), result,
                              adaptor.getRetParams()[0]);
      rewriter.eraseOp(op);
      return success();
    }
    if (!op.getCallee() && !adaptor.getTarget())
      return op.emitError("unsupported: call without a target");
    // .param arguments and returns cross the call as values (see
    // FunctionLowering): loaded from the call-site storage before the call,
    // stored into it after.
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    SmallVector<ParamAttr> retDecls, paramDecls;
    if (!calleeSignature(op, retDecls, paramDecls) ||
        paramDecls.size() != adaptor.getArgs().size())
      return op.emitError("unsupported: call whose callee's parameters are "
                          "not known");
    SmallVector<Value> args;
    for (auto [d, a] : llvm::zip(paramDecls, adaptor.getArgs()))
      args.push_back(d.getSpace() == StateSpace::param
                         ? Value(LLVM::LoadOp::create(rewriter, loc,
                                                      paramValueType(ctx, d), a,
                                                      paramAlign(d)))
                         : a);
    SmallVector<Type> results;
    for (ParamAttr d : retDecls)
      results.push_back(d.getSpace() == StateSpace::param
                            ? paramValueType(ctx, d)
                            : getRegisterType(ctx, d.getType()));
    Type resultType = results.empty() ? Type(LLVM::LLVMVoidType::get(ctx))
                      : results.size() == 1
                          ? results.front()
                          : LLVM::LLVMStructType::getLiteral(ctx, results);
    SmallVector<Type> argTypes(ValueRange(args).getTypes());
    auto fnType = LLVM::LLVMFunctionType::get(resultType, argTypes);
    LLVM::CallOp call;
    if (op.getCallee()) {
      call = LLVM::CallOp::create(rewriter, op.getLoc(), fnType,
                                  *op.getCallee(), args);
    } else {
      // Through a function pointer (a generic address in a register, with a
      // .callprototype): the callee lowered with the same convention, its
      // parameters and returns as pointers to the caller's storage.
      Value fn = adaptor.getTarget();
      if (!isa<LLVM::LLVMPointerType>(fn.getType()))
        fn = LLVM::IntToPtrOp::create(
            rewriter, op.getLoc(), LLVM::LLVMPointerType::get(op.getContext()),
            castTo(rewriter, op.getLoc(), adaptor.getTarget(),
                   rewriter.getI64Type()));
      SmallVector<Value> operands{fn};
      operands.append(args);
      call = LLVM::CallOp::create(rewriter, op.getLoc(), fnType, operands);
    }
    // .reg returns replace the op's results, .param returns go to their
    // call-site storage.
    SmallVector<Value> regResults;
    auto retSlots = adaptor.getRetParams();
    size_t nextSlot = 0;
    for (auto [i, d] : llvm::enumerate(retDecls)) {
      Value v = results.size() == 1 ? call.getResult()
                                    : Value(LLVM::ExtractValueOp::create(
                                          rewriter, loc, call.getResult(), i));
      if (d.getSpace() != StateSpace::param) {
        regResults.push_back(v);
        continue;
      }
      if (nextSlot >= retSlots.size())
        return op.emitError("unsupported: call without storage for a "
                            ".param return");
      LLVM::StoreOp::create(rewriter, loc, v, retSlots[nextSlot++],
                            paramAlign(d));
    }
    if (regResults.size() != op.getNumResults())
      return op.emitError("unsupported: call whose returns do not match the "
                          "callee's");
    rewriter.replaceOp(op, regResults);
    return success();
  }
};

/// `brkpt`: a debugger breakpoint, llvm.debugtrap (AMDGPU `s_trap 3`,
/// which the trap handler ignores when no debugger is attached; NVPTX
/// `brkpt`).
template <typename OpTy>
Results lowerBrkpt(OpTy op, ValueRange, ModifiersAttr,
                   ConversionPatternRewriter &b, const Lowering &) {
  LLVM::CallIntrinsicOp::create(
      b, op.getLoc(), b.getStringAttr("llvm.debugtrap"), ValueRange{});
  return SmallVector<Value>{};
}

/// `pmevent`: signals a performance-monitor event to a profiler. AMDGPU has
/// no such counters for a program to trigger: nothing (as on NVIDIA with no
/// profiler attached). NVPTX emits NVIDIA's instruction (NativeInstLowering).
template <typename OpTy>
Results lowerPmevent(OpTy, ValueRange, ModifiersAttr,
                     ConversionPatternRewriter &, const Lowering &) {
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerTrap(OpTy op, ValueRange, ModifiersAttr,
                  ConversionPatternRewriter &b, const Lowering &) {
  // Aborts the kernel: s_trap on AMDGPU (the runtime reports the fault),
  // trap on NVIDIA. llvm.trap does not return; the PTX after it is left as
  // it is (unreachable), so the block stays well formed.
  LLVM::Trap::create(b, op.getLoc());
  return SmallVector<Value>{};
}

/// Calls to the CUDA device runtime (device-side launches, streams, events,
/// graphs, memory): reported per calling kernel, never left to fail as
/// undefined symbols at link time.
std::string checkCall(Operation *op, const TargetInfo &) {
  auto call = cast<CallOp>(op);
  if (!call.getCallee())
    return "";
  if (const char *kind = deviceRuntimeFunctionKind(*call.getCallee()))
    return ("call to the CUDA device runtime function '" + *call.getCallee() +
            "' (" + kind + ")")
        .str();
  return "";
}

/// pmevent keeps its event operands as words.
std::string checkPmevent(Operation *op, const TargetInfo &) {
  ModifierPolicy p;
  p.extras = true;
  return checkModifiers(op, p);
}

} // namespace

void zluda::ptx::lowering::populateFunctionPatterns(TypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    const TargetInfo &target,
                                                    LoweringState &state) {
  MLIRContext *ctx = patterns.getContext();
  Lowering l{target, state};
  patterns.add<FunctionLowering<EntryOp>, FunctionLowering<FuncOp>,
               CallLowering, RetLowering>(converter, ctx, l);
  addCheck<CallOp>(state, ctx, checkCall);
  patterns.add<ExitLowering>(converter, ctx, target);
  patterns.add<BraLowering, CondBraLowering, BrxIdxLowering, ConstantLowering,
               UndefLowering>(converter, ctx);
  InstPatterns add(converter, patterns, target, state);
  add(lowerTrap<TrapOp>);
  add(lowerBrkpt<BrkptOp>);
  add(lowerPmevent<PmeventOp>, checkPmevent);
}

bool zluda::ptx::isRuntimeFunction(llvm::StringRef name) {
  return findRuntimeFunction(name) != nullptr;
}

const char *zluda::ptx::deviceRuntimeFunctionKind(llvm::StringRef name) {
  // The device runtime's API (cuda_device_runtime_api.h), its CDP2 entry
  // points, and the driver's functions its library calls (`cnp*` and the
  // reserved `__cuda_syscall_*`).
  if (name.starts_with("__cuda_syscall_"))
    return "the device runtime's driver interface";
  bool cdp2 = name.consume_front("__cudaCDP2");
  name.consume_back("_ptsz");
  static const llvm::StringMap<const char *> kinds = [] {
    llvm::StringMap<const char *> m;
    const char *launch = "dynamic parallelism: a device-side launch";
    for (const char *f :
         {"cudaGetParameterBuffer", "cudaGetParameterBufferV2",
          "cudaLaunchDevice", "cudaLaunchDeviceV2", "GetParameterBuffer",
          "GetParameterBufferV2", "LaunchDevice", "LaunchDeviceV2",
          "__cudaDeviceSynchronizeDeprecationAvoidance"})
      m[f] = launch;
    const char *graph = "a device-side graph call";
    for (const char *f :
         {"cudaGraphSetConditional", "cudaGraphLaunch",
          "cudaGetCurrentGraphExec", "cudaGraphKernelNodeSetEnabled",
          "cudaGraphKernelNodeSetGridDim", "cudaGraphKernelNodeSetParam",
          "cudaGraphKernelNodeUpdatesApply"})
      m[f] = graph;
    const char *driver = "the device runtime's driver interface";
    for (const char *f :
         {"cnpDeviceGetAttribute", "cnpEventCreate", "cnpEventDestroy",
          "cnpEventRecord", "cnpFuncGetAttribute", "cnpGetCacheConfig",
          "cnpGetDevice", "cnpGetDeviceCount", "cnpGetLastError", "cnpGetLimit",
          "cnpGetParameterBuffer", "cnpGetParameterBufferV2",
          "cnpGetSharedMemConfig", "cnpLaunchDevice", "cnpLaunchDeviceV2",
          "cnpSetLastError", "cnpStreamCreate", "cnpStreamDestroy",
          "cnpStreamWaitEvent"})
      m[f] = driver;
    const char *rt = "the device runtime API";
    for (const char *f : {"DeviceGetAttribute",
                          "DeviceGetCacheConfig",
                          "DeviceGetLimit",
                          "DeviceGetSharedMemConfig",
                          "EventCreateWithFlags",
                          "EventDestroy",
                          "EventRecord",
                          "EventRecordWithFlags",
                          "Free",
                          "FuncGetAttributes",
                          "GetDevice",
                          "GetDeviceCount",
                          "GetErrorName",
                          "GetErrorString",
                          "GetLastError",
                          "Malloc",
                          "Memcpy2DAsync",
                          "Memcpy3DAsync",
                          "MemcpyAsync",
                          "Memset2DAsync",
                          "Memset3DAsync",
                          "MemsetAsync",
                          "OccupancyMaxActiveBlocksPerMultiprocessor",
                          "OccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
                          "PeekAtLastError",
                          "RuntimeGetVersion",
                          "StreamCreateWithFlags",
                          "StreamDestroy",
                          "StreamWaitEvent"})
      m[std::string("cuda") + f] = rt;
    const char *cg = "cooperative groups through the device runtime";
    for (const char *f :
         {"cudaCGGetIntrinsicHandle", "cudaCGGetRank", "cudaCGGetSize",
          "cudaCGSynchronize", "cudaCGSynchronizeGrid"})
      m[f] = cg;
    return m;
  }();
  // The CDP2 entry points are the API's names without `cuda`.
  auto it = kinds.find(cdp2 ? ("cuda" + name).str() : name.str());
  return it == kinds.end() ? nullptr : it->second;
}
