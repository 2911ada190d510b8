//===- Printf.cpp - CUDA vprintf and __assertfail on AMDGPU ---------------===//
//
// CUDA's device printf is `vprintf(format, buffer)`: the arguments packed in
// a buffer, each at its own alignment (int 4 bytes; long, double and
// pointers 8; floats already promoted to double). The AMDGPU lowering turns
// it into a call to `__zluda_vprintf(format, buffer)`; after O3, when the
// format is a constant string, each call is expanded here into the device
// library's printf protocol (`__ockl_printf_begin`, `_append_args`,
// `_append_string_n`, the same calls clang emits for HIP's printf), which
// the ROCm runtime serves through its hostcall buffer. A format that is not
// a constant (chosen at run time) is walked at run time by
// `__zluda_vprintf_dynamic`, which counts its conversions, then appends the
// format and each argument the same way. `__assertfail` prints CUDA's
// assertion message the same way, then traps.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/Printf.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cctype>

using namespace llvm;

namespace {

enum class ArgKind { Int32, Int64, Double, String };

struct PrintfArg {
  ArgKind kind;
  Value *value; // i64 (integers, double bits) or ptr (strings)
};

Error makeError(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

/// The arguments a format string consumes, in order.
Expected<SmallVector<ArgKind>> parseFormat(StringRef fmt) {
  SmallVector<ArgKind> kinds;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%')
      continue;
    ++i;
    if (i < fmt.size() && fmt[i] == '%')
      continue;
    while (i < fmt.size() && StringRef("-+ #0").contains(fmt[i]))
      ++i;
    auto number = [&] {
      if (i < fmt.size() && fmt[i] == '*') {
        kinds.push_back(ArgKind::Int32);
        ++i;
        return;
      }
      while (i < fmt.size() && isdigit(static_cast<unsigned char>(fmt[i])))
        ++i;
    };
    number();
    if (i < fmt.size() && fmt[i] == '.') {
      ++i;
      number();
    }
    unsigned longs = 0;
    while (i < fmt.size() && StringRef("hlzjtL").contains(fmt[i])) {
      if (fmt[i] == 'l' || fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't')
        ++longs;
      if (fmt[i] == 'L')
        return makeError("printf: long double (%L) is not supported");
      ++i;
    }
    if (i >= fmt.size())
      return makeError("printf: the format ends inside a conversion");
    char c = fmt[i];
    if (StringRef("diouxXc").contains(c))
      kinds.push_back(longs ? ArgKind::Int64 : ArgKind::Int32);
    else if (StringRef("fFeEgGaA").contains(c))
      kinds.push_back(ArgKind::Double);
    else if (c == 's')
      kinds.push_back(ArgKind::String);
    else if (c == 'p')
      kinds.push_back(ArgKind::Int64);
    else
      return makeError("printf: unsupported conversion '%" + std::string(1, c) +
                       "'");
  }
  return kinds;
}

/// The constant string a pointer-sized integer designates, from its NUL.
std::optional<StringRef> constantString(Value *v, const DataLayout &dl) {
  auto *c = dyn_cast<Constant>(v);
  if (!c)
    return std::nullopt;
  if (auto *ce = dyn_cast<ConstantExpr>(c);
      ce && ce->getOpcode() == Instruction::PtrToInt)
    c = ce->getOperand(0);
  if (!c->getType()->isPointerTy())
    return std::nullopt;
  APInt offset(64, 0);
  auto *base = dyn_cast<GlobalVariable>(
      c->stripAndAccumulateConstantOffsets(dl, offset, true));
  if (!base || !base->hasDefinitiveInitializer())
    return std::nullopt;
  auto *data = dyn_cast<ConstantDataSequential>(base->getInitializer());
  if (!data || !data->isString())
    return std::nullopt;
  StringRef s = data->getAsString();
  if (offset.getZExtValue() >= s.size())
    return std::nullopt;
  s = s.drop_front(offset.getZExtValue());
  return s.take_until([](char ch) { return ch == '\0'; });
}

class Emitter {
public:
  explicit Emitter(Module &m) : m(m), ctx(m.getContext()) {}

  /// desc = begin; the format; each argument; the last one marked.
  void emit(IRBuilder<> &b, Value *fmt, uint64_t fmtLen,
            ArrayRef<PrintfArg> args) {
    Type *i32 = b.getInt32Ty(), *i64 = b.getInt64Ty();
    Value *desc =
        b.CreateCall(fn("__ockl_printf_begin", i64, {i64}), {b.getInt64(0)});
    desc = appendString(b, desc, fmt, b.getInt64(fmtLen + 1), args.empty());
    for (size_t k = 0; k < args.size(); ++k) {
      bool last = k + 1 == args.size();
      const PrintfArg &a = args[k];
      if (a.kind == ArgKind::String) {
        // A null pointer prints "(null)", as CUDA's printf does.
        Value *isNull = b.CreateIsNull(a.value);
        Value *str = b.CreateSelect(isNull, nullString(b), a.value);
        Value *len =
            b.CreateAdd(b.CreateCall(strlenFn(), {str}), b.getInt64(1));
        desc = appendString(b, desc, str, len, last);
        continue;
      }
      SmallVector<Value *> ops = {desc, b.getInt32(1), a.value};
      for (int z = 0; z < 6; ++z)
        ops.push_back(b.getInt64(0));
      ops.push_back(b.getInt32(last));
      SmallVector<Type *> params = {i64, i32, i64, i64, i64,
                                    i64, i64, i64, i64, i32};
      desc = b.CreateCall(fn("__ockl_printf_append_args", i64, params), ops);
    }
  }

  /// A private constant C string in the module.
  Value *cString(IRBuilder<> &b, StringRef s) {
    return b.CreateGlobalString(s, "__zluda_printf_str", 4, &m);
  }

  /// Declares the device library's printf functions in the module.
  void declareLibrary() {
    Type *i64 = Type::getInt64Ty(ctx), *i32 = Type::getInt32Ty(ctx);
    Type *ptr = PointerType::get(ctx, 0);
    fn("__ockl_printf_begin", i64, {i64});
    fn("__ockl_printf_append_args", i64,
       {i64, i32, i64, i64, i64, i64, i64, i64, i64, i32});
    fn("__ockl_printf_append_string_n", i64, {i64, ptr, i64, i32});
    strlenFn();
  }

private:
  FunctionCallee fn(StringRef name, Type *result, ArrayRef<Type *> params) {
    return m.getOrInsertFunction(name,
                                 FunctionType::get(result, params, false));
  }
  Value *appendString(IRBuilder<> &b, Value *desc, Value *str, Value *len,
                      bool last) {
    Type *i64 = b.getInt64Ty(), *i32 = b.getInt32Ty();
    Type *ptr = PointerType::get(ctx, 0);
    Value *flat = b.CreatePointerBitCastOrAddrSpaceCast(str, ptr);
    return b.CreateCall(
        fn("__ockl_printf_append_string_n", i64, {i64, ptr, i64, i32}),
        {desc, flat, len, b.getInt32(last)});
  }
  Value *nullString(IRBuilder<> &b) {
    if (!null)
      null = cString(b, "(null)");
    return b.CreatePointerBitCastOrAddrSpaceCast(null,
                                                 PointerType::get(ctx, 0));
  }
  /// i64 __zluda_strlen(ptr): a loop, defined once per module.
  Function *strlenFn() {
    if (Function *f = m.getFunction("__zluda_strlen"))
      return f;
    Type *i64 = Type::getInt64Ty(ctx), *ptr = PointerType::get(ctx, 0);
    Function *f =
        Function::Create(FunctionType::get(i64, {ptr}, false),
                         GlobalValue::InternalLinkage, "__zluda_strlen", m);
    BasicBlock *entry = BasicBlock::Create(ctx, "entry", f);
    BasicBlock *loop = BasicBlock::Create(ctx, "loop", f);
    BasicBlock *done = BasicBlock::Create(ctx, "done", f);
    IRBuilder<> b(entry);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    PHINode *n = b.CreatePHI(i64, 2);
    n->addIncoming(b.getInt64(0), entry);
    Value *c = b.CreateLoad(b.getInt8Ty(),
                            b.CreateGEP(b.getInt8Ty(), f->getArg(0), n));
    Value *next = b.CreateAdd(n, b.getInt64(1));
    n->addIncoming(next, loop);
    b.CreateCondBr(b.CreateIsNull(c), done, loop);
    b.SetInsertPoint(done);
    b.CreateRet(n);
    return f;
  }

  Module &m;
  LLVMContext &ctx;
  Value *null = nullptr;
};

/// The run-time format walker, i32 __zluda_vprintf_dynamic(i64 format, i64
/// buffer): PrintfDynamic.ll, embedded at build time.
constexpr const char *dynamicPrintfIR =
#include "compiler/Codegen/PrintfDynamic.inc"
    ;

/// Defines __zluda_vprintf_dynamic (and the walker) in `m`, once.
Expected<Function *> dynamicPrintf(Module &m, Emitter &emitter) {
  if (Function *f = m.getFunction("__zluda_vprintf_dynamic"))
    return f;
  emitter.declareLibrary();
  SMDiagnostic diag;
  if (parseAssemblyInto(MemoryBufferRef(dynamicPrintfIR, "printf"), &m, nullptr,
                        diag))
    return makeError("printf: the run-time format walker does not parse: " +
                     diag.getMessage());
  return m.getFunction("__zluda_vprintf_dynamic");
}

} // namespace

Error zluda::codegen::expandPrintf(Module &m) {
  Function *vprintf = m.getFunction("__zluda_vprintf");
  Function *assertfail = m.getFunction("__zluda_assertfail");
  if (!vprintf && !assertfail)
    return Error::success();
  Emitter emitter(m);
  const DataLayout &dl = m.getDataLayout();
  LLVMContext &ctx = m.getContext();
  Type *ptr = PointerType::get(ctx, 0);

  if (vprintf) {
    for (User *u : make_early_inc_range(vprintf->users())) {
      auto *call = dyn_cast<CallInst>(u);
      if (!call)
        continue;
      std::optional<StringRef> fmt = constantString(call->getArgOperand(0), dl);
      if (!fmt) {
        Expected<Function *> dynamic = dynamicPrintf(m, emitter);
        if (!dynamic)
          return dynamic.takeError();
        call->setCalledFunction(*dynamic);
        continue;
      }
      auto kinds = parseFormat(*fmt);
      if (!kinds)
        return kinds.takeError();
      IRBuilder<> b(call);
      Value *buffer = b.CreateIntToPtr(call->getArgOperand(1), ptr);
      SmallVector<PrintfArg> args;
      uint64_t offset = 0;
      for (ArgKind k : *kinds) {
        uint64_t size = k == ArgKind::Int32 ? 4 : 8;
        offset = alignTo(offset, size);
        Value *at = b.CreateConstGEP1_64(b.getInt8Ty(), buffer, offset);
        Value *v =
            b.CreateLoad(size == 4 ? b.getInt32Ty() : b.getInt64Ty(), at);
        if (k == ArgKind::Int32)
          v = b.CreateZExt(v, b.getInt64Ty());
        if (k == ArgKind::String)
          v = b.CreateIntToPtr(v, ptr);
        args.push_back({k, v});
        offset += size;
      }
      Value *fmtPtr = b.CreateIntToPtr(call->getArgOperand(0), ptr);
      emitter.emit(b, fmtPtr, fmt->size(), args);
      // CUDA's printf returns the number of arguments.
      call->replaceAllUsesWith(b.getInt32(args.size()));
      call->eraseFromParent();
    }
    vprintf->eraseFromParent();
  }

  if (assertfail) {
    for (User *u : make_early_inc_range(assertfail->users())) {
      auto *call = dyn_cast<CallInst>(u);
      if (!call)
        continue;
      // __assertfail(message, file, line, function, charSize).
      IRBuilder<> b(call);
      StringRef text = "%s:%u: %s: Device-side assertion `%s' failed.\n";
      Value *fmt = emitter.cString(b, text);
      auto str = [&](unsigned i) {
        return PrintfArg{ArgKind::String,
                         b.CreateIntToPtr(call->getArgOperand(i), ptr)};
      };
      PrintfArg line{ArgKind::Int32,
                     b.CreateZExt(call->getArgOperand(2), b.getInt64Ty())};
      emitter.emit(b, fmt, text.size(), {str(1), line, str(3), str(0)});
      b.CreateIntrinsic(Intrinsic::trap, {});
      call->eraseFromParent();
    }
    assertfail->eraseFromParent();
  }
  return Error::success();
}
