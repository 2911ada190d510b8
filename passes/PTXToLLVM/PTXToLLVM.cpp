//===- PTXToLLVM.cpp - Lowering of the ptx dialect to LLVM ----------------===//
//
// Target-independent lowering of PTX semantics; everything that depends on
// the hardware goes through TargetInfo. Each PTX instruction family is one
// function below, written down per family in docs/lowering.md. An op or a
// modifier the lowering does not handle is reported before the conversion
// starts (checkSupported), so that the conversion itself never fails on it.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PTXToLLVM.h"
#include "passes/PTXToLLVM/DirectedRounding.h"
#include "passes/Passes.h"

#include "dialects/ptx/PTXOps.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace zluda::ptx {
#define GEN_PASS_DEF_CONVERTPTXTOLLVM
#include "passes/Passes.h.inc"
} // namespace zluda::ptx

using namespace mlir;
using namespace zluda::ptx;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The LLVM type an instruction computes in for PTX type `kind`.
Type semanticType(MLIRContext *ctx, TypeKind kind) {
  switch (kind) {
  case TypeKind::f16x2:
    return VectorType::get({2}, Float16Type::get(ctx));
  case TypeKind::bf16x2:
    return VectorType::get({2}, BFloat16Type::get(ctx));
  case TypeKind::u16x2:
  case TypeKind::s16x2:
    return VectorType::get({2}, IntegerType::get(ctx, 16));
  case TypeKind::pred:
    return IntegerType::get(ctx, 1);
  default:
    return getRegisterType(ctx, kind);
  }
}

unsigned bitWidth(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getNumElements() * v.getElementType().getIntOrFloatBitWidth();
  if (isa<LLVM::LLVMPointerType>(t))
    return 64;
  return t.getIntOrFloatBitWidth();
}

/// Converts `v` to `to`: same width by bitcast, integers by truncation or
/// extension (`signExtend` for signed PTX types), pointers by ptrtoint.
Value castTo(OpBuilder &b, Location loc, Value v, Type to,
             bool signExtend = false) {
  Type from = v.getType();
  if (from == to)
    return v;
  if (isa<LLVM::LLVMPointerType>(from)) {
    if (isa<LLVM::LLVMPointerType>(to))
      return LLVM::AddrSpaceCastOp::create(b, loc, to, v);
    Value i = LLVM::PtrToIntOp::create(
        b, loc, b.getIntegerType(bitWidth(to) == 32 ? 32 : 64), v);
    return castTo(b, loc, i, to, signExtend);
  }
  unsigned fw = bitWidth(from), tw = bitWidth(to);
  if (fw == tw)
    return LLVM::BitcastOp::create(b, loc, to, v);
  // Different widths: go through integers.
  Type fromInt = b.getIntegerType(fw), toInt = b.getIntegerType(tw);
  Value i = castTo(b, loc, v, fromInt);
  Value r = tw < fw      ? Value(LLVM::TruncOp::create(b, loc, toInt, i))
            : signExtend ? Value(LLVM::SExtOp::create(b, loc, toInt, i))
                         : Value(LLVM::ZExtOp::create(b, loc, toInt, i));
  return castTo(b, loc, r, to);
}

Value constInt(OpBuilder &b, Location loc, Type t, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, t, b.getIntegerAttr(t, v));
}

Value constFloat(OpBuilder &b, Location loc, Type t, double v) {
  if (auto vt = dyn_cast<VectorType>(t))
    return LLVM::ConstantOp::create(
        b, loc, t,
        DenseElementsAttr::get(vt, b.getFloatAttr(vt.getElementType(), v)));
  return LLVM::ConstantOp::create(b, loc, t, b.getFloatAttr(t, v));
}

/// The smallest normal magnitude of the types `.ftz` applies to (f32 and
/// f16, scalars or pairs); 0 for the others.
double ftzMinNormal(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF32() ? 0x1p-126 : e.isF16() ? 0x1p-14 : 0.0;
}

/// `.ftz` on f32 and f16 (scalars or pairs): subnormal inputs and results
/// become zero of the same sign.
Value flushDenormal(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  double minNormal = ftzMinNormal(t);
  if (minNormal == 0.0)
    return v;
  Value absV = LLVM::FAbsOp::create(b, loc, v);
  Value tiny = constFloat(b, loc, t, minNormal);
  Value isSub =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, absV, tiny);
  Value zero = LLVM::CopySignOp::create(b, loc, constFloat(b, loc, t, 0.0), v);
  return LLVM::SelectOp::create(b, loc, isSub, zero, v);
}

/// `.sat` on floats: clamp to [0, 1], NaN to +0.
Value saturate(OpBuilder &b, Location loc, Value v) {
  Type t = v.getType();
  Value zero = constFloat(b, loc, t, 0.0), one = constFloat(b, loc, t, 1.0);
  Value gt0 = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, v, zero);
  Value r = LLVM::SelectOp::create(b, loc, gt0, v, zero);
  Value lt1 = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, r, one);
  return LLVM::SelectOp::create(b, loc, lt1, r, one);
}

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

/// Stack memory for `count` values of `elem`: an alloca in the target's
/// alloca address space, as an addrspace(5) (.local) pointer.
Value createStackSlot(OpBuilder &b, Location loc, const TargetInfo &target,
                      Type elem, Value count, unsigned align) {
  MLIRContext *ctx = b.getContext();
  unsigned as = target.getAllocaAddressSpace();
  Value slot = LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, as), elem, count, align);
  if (as != 5)
    slot = LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 5), slot);
  return slot;
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

/// A function's results in declaration order: `.reg` returns come from the
/// `ret`'s operands, `.param` returns from their stack slot.
struct ReturnPart {
  Value slot; ///< null for a `.reg` return
  Type type;
};

struct Lowering {
  const TargetInfo &target;
  const TypeConverter &converter;
  /// Each function's CC.CF register, made on first use.
  mutable llvm::DenseMap<Operation *, Value> carrySlots;
  /// Each lowered function's results (see ReturnPart).
  mutable llvm::DenseMap<Operation *, SmallVector<ReturnPart>> returnParts;
  /// Each function's declared returns and parameters, by name, recorded when
  /// it is lowered (calls may be converted before or after their callee).
  mutable llvm::StringMap<std::pair<SmallVector<ParamAttr>, size_t>> signatures;

  /// The CC.CF register (i32, 0 or 1) of the function holding `op`: a stack
  /// slot at the function's entry, zeroed there, which SROA turns into SSA
  /// values, so the carry flows through branches like any register.
  Value carrySlot(OpBuilder &b, Operation *op) const {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    Value &slot = carrySlots[func];
    if (slot)
      return slot;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&func.getBody().front());
    Location loc = func.getLoc();
    Type i32 = b.getI32Type();
    Value one = LLVM::ConstantOp::create(b, loc, i32, 1);
    slot = createStackSlot(b, loc, target, i32, one, 4);
    LLVM::StoreOp::create(b, loc, LLVM::ConstantOp::create(b, loc, i32, 0),
                          slot);
    return slot;
  }

  /// A pointer for the address operand `addr` of an access in `space`.
  Value pointer(OpBuilder &b, Location loc, Value addr,
                std::optional<StateSpace> space) const {
    MLIRContext *ctx = b.getContext();
    unsigned as = space ? target.getAddressSpace(*space) : 0;
    auto ptrTy = LLVM::LLVMPointerType::get(ctx, as);
    if (isa<LLVM::LLVMPointerType>(addr.getType()))
      return castTo(b, loc, addr, ptrTy);
    // 32-bit address spaces take the low half of a 64-bit address.
    unsigned ptrBits = (as == 3 || as == 5) ? 32 : 64;
    Value i = castTo(b, loc, addr, b.getIntegerType(ptrBits));
    return LLVM::IntToPtrOp::create(b, loc, ptrTy, i);
  }
};

//===----------------------------------------------------------------------===//
// Support check
//===----------------------------------------------------------------------===//

const llvm::StringSet<> &supportedInstructions() {
  static const llvm::StringSet<> set = {"add",
                                        "sub",
                                        "mul",
                                        "mad",
                                        "fma",
                                        "div",
                                        "rem",
                                        "neg",
                                        "abs",
                                        "min",
                                        "max",
                                        "and",
                                        "or",
                                        "xor",
                                        "not",
                                        "cnot",
                                        "shl",
                                        "shr",
                                        "setp",
                                        "selp",
                                        "slct",
                                        "mul24",
                                        "mad24",
                                        "testp",
                                        "fns",
                                        "cvt.pack",
                                        "tanh",
                                        "ldu",
                                        "prefetch",
                                        "prefetchu",
                                        "mov",
                                        "cvt",
                                        "cvta",
                                        "ld",
                                        "st",
                                        "atom",
                                        "red",
                                        "bar.sync",
                                        "barrier.sync",
                                        "bar.arrive",
                                        "barrier.arrive",
                                        "membar",
                                        "fence",
                                        "shfl",
                                        "vote",
                                        "activemask",
                                        "popc",
                                        "clz",
                                        "brev",
                                        "rcp",
                                        "sqrt",
                                        "rsqrt",
                                        "sin",
                                        "cos",
                                        "ex2",
                                        "lg2",
                                        "copysign",
                                        "shf",
                                        "set",
                                        "nanosleep",
                                        "griddepcontrol",
                                        "cp.async",
                                        "cp.async.commit_group",
                                        "cp.async.wait_group",
                                        "cp.async.wait_all",
                                        "bar.warp.sync",
                                        "bfe",
                                        "bfi",
                                        "bmsk",
                                        "prmt",
                                        "redux",
                                        "addc",
                                        "subc",
                                        "madc",
                                        "trap",
                                        "brkpt",
                                        "pmevent",
                                        "isspacep",
                                        "alloca",
                                        "stacksave",
                                        "stackrestore",
                                        "bfind",
                                        "lop3",
                                        "sad",
                                        "vadd",
                                        "vsub",
                                        "vabsdiff",
                                        "vmin",
                                        "vmax",
                                        "vshl",
                                        "vshr",
                                        "vabsdiff2",
                                        "vabsdiff4",
                                        "dp4a",
                                        "dp2a",
                                        "bar.red",
                                        "barrier.red",
                                        "match"};
  return set;
}

/// Whether the instruction carries the modifier flag `f`.
bool hasFlag(ModifiersAttr mods, Flag f) {
  return bitEnumContainsAny(mods.getFlags(), f);
}

/// A dense initializer is lowered for an array (of scalars) it does not
/// overrun, in row-major order.
/// The directed mode of a float rounding modifier (.rz .rm .rp), if any.
std::optional<Directed> directedMode(std::optional<RoundingMode> r) {
  if (r == RoundingMode::rz)
    return Directed::towardZero;
  if (r == RoundingMode::rm)
    return Directed::down;
  if (r == RoundingMode::rp)
    return Directed::up;
  return std::nullopt;
}

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

/// The FP8 conversions lowered: to an e4m3x2/e5m2x2 pair from two f32 or
/// an f16x2 with .rn.satfinite, and from a pair to f16x2 with .rn; each
/// with or without .relu.
bool isFp8Convert(ModifiersAttr mods) {
  if (!mods || mods.getTypes().size() != 2 ||
      mods.getRounding() != RoundingMode::rn)
    return false;
  TypeKind d = *mods.getType(0), s = *mods.getType(1);
  auto fp8 = [](TypeKind k) {
    return k == TypeKind::e4m3x2 || k == TypeKind::e5m2x2;
  };
  if (fp8(d) && (s == TypeKind::f32 || s == TypeKind::f16x2))
    return hasFlag(mods, Flag::satfinite);
  return d == TypeKind::f16x2 && fp8(s) && !hasFlag(mods, Flag::satfinite);
}

/// `griddepcontrol`'s mode: "wait" or "launch_dependents".
std::optional<StringRef> griddepMode(ModifiersAttr mods) {
  if (!mods || !mods.getExtras() || mods.getExtras().size() != 1)
    return std::nullopt;
  StringRef mode = cast<StringAttr>(mods.getExtras()[0]).getValue();
  if (mode != "wait" && mode != "launch_dependents")
    return std::nullopt;
  return mode;
}

/// Why the lowering cannot handle `op`, or empty.
std::string unsupportedReason(Operation *op, StringRef target) {
  StringRef name = op->getName().stripDialect();
  // The families NVIDIA's GPUs have natively, emitted as written there
  // (NativeInstLowering).
  if (target == "nvptx" && op->hasAttr("native"))
    return "";
  if (auto global = dyn_cast<GlobalOp>(op)) {
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
  if (auto sreg = dyn_cast<SRegOp>(op)) {
    // What both targets' getSpecialRegister and SRegLowering read.
    switch (sreg.getReg().getReg()) {
    case SReg::tid:
    case SReg::ntid:
    case SReg::ctaid:
    case SReg::nctaid:
    case SReg::laneid:
    case SReg::WARP_SZ:
    case SReg::lanemask_eq:
    case SReg::lanemask_le:
    case SReg::lanemask_lt:
    case SReg::lanemask_ge:
    case SReg::lanemask_gt:
    case SReg::clock:
    case SReg::clock_hi:
    case SReg::clock64:
    case SReg::globaltimer:
    case SReg::globaltimer_lo:
    case SReg::globaltimer_hi:
      return "";
    case SReg::envreg:
      // The driver's values: NVIDIA's own registers on NVPTX; on AMDGPU only
      // the cooperative-launch grid workspace (%envreg1/2) has a meaning.
      if (target == "nvptx" || sreg.getReg().getIndex() == 1 ||
          sreg.getReg().getIndex() == 2)
        return "";
      return ("special register %" + stringifySReg(sreg.getReg().getReg()))
          .str();
    default:
      // The machine's numbering, shared memory sizes, clusters, graphs
      // (TargetInfo), and the performance counters %pm<n> (SRegLowering).
      return "";
    }
  }
  if (auto call = dyn_cast<CallOp>(op)) {
    // Device functions of the CUDA runtime (printf, assert, device-side
    // malloc) that have no AMDGPU implementation here yet; without this they
    // would surface as undefined symbols at link time.
    static const llvm::StringSet<> runtime = {
        "cudaGetParameterBufferV2", "cudaLaunchDeviceV2",
        "cudaGetParameterBuffer", "cudaLaunchDevice"};
    if (call.getCallee() && runtime.contains(*call.getCallee()))
      return ("call to the CUDA runtime function '" + *call.getCallee() + "'")
          .str();
    return "";
  }
  auto mods = op->getAttrOfType<ModifiersAttr>("mods");
  if (!mods)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  os << name;
  std::string m;
  llvm::raw_string_ostream ms(m);
  printModifiers(ms, mods);
  if (!m.empty())
    os << '.' << m;
  if (!supportedInstructions().contains(name))
    return text;
  auto has = [&](Flag f) { return hasFlag(mods, f); };
  // Modifiers not lowered yet.
  // The extras lowered: membar.gl, and griddepcontrol's mode.
  bool extrasOk =
      name == "pmevent" ||
      (name == "griddepcontrol"
           ? griddepMode(mods).has_value()
           : name == "membar" && mods.getExtras() &&
                 mods.getExtras().size() == 1 &&
                 cast<StringAttr>(mods.getExtras()[0]).getValue() == "gl");
  bool carryOk = name == "add" || name == "sub" || name == "mad" ||
                 name == "addc" || name == "subc" || name == "madc";
  std::optional<RoundingMode> rnd = mods.getRounding();
  bool directedOk =
      directedMode(rnd) && mods.getType() &&
      hasDirectedArith(name, semanticType(op->getContext(), *mods.getType()));
  if ((has(Flag::cc) && !carryOk) || (mods.getExtras() && !extrasOk) ||
      (rnd && *rnd != RoundingMode::rn && name != "cvt" && !directedOk) ||
      ((has(Flag::NaN) || has(Flag::xorsign)) && name != "min" &&
       name != "max") ||
      (has(Flag::relu) && name != "min" && name != "max" && name != "fma" &&
       name != "cvt"))
    return text;
  // Packed halves: elementwise arithmetic, comparisons and conversions from
  // f32 pairs are lowered; tf32 only as the target of cvt.rna.
  static const llvm::StringSet<> packedOk = {
      "add",  "sub", "mul", "fma", "min",  "max", "set",
      "setp", "cvt", "neg", "abs", "tanh", "ex2"};
  for (TypeKind t : mods.getTypes()) {
    bool packed = t == TypeKind::f16x2 || t == TypeKind::bf16x2;
    if (packed && packedOk.contains(name))
      continue;
    // Packed atomic adds (atom/red.add.noftz.f16x2) are elementwise.
    if (packed && (name == "atom" || name == "red") &&
        mods.getRedOp() == ReduceOp::add)
      continue;
    if (t == TypeKind::tf32 && name == "cvt" &&
        (mods.getRounding() == RoundingMode::rna ||
         mods.getRounding() == RoundingMode::rn) &&
        !hasFlag(mods, Flag::relu) && !hasFlag(mods, Flag::satfinite))
      continue;
    // FP8 pairs: cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32 and
    // cvt.rn.f16x2.{e4m3x2,e5m2x2}.
    if ((t == TypeKind::e4m3x2 || t == TypeKind::e5m2x2) && name == "cvt" &&
        isFp8Convert(mods))
      continue;
    // Packed 16-bit integers (sm_90): add (CUDA's __vadd2 and friends
    // compile to it), min and max, elementwise.
    bool packedInt = t == TypeKind::u16x2 || t == TypeKind::s16x2;
    if (packedInt && (name == "min" || name == "max" || name == "add") &&
        !hasFlag(mods, Flag::sat))
      continue;
    if (packedInt)
      return text;
    // 128-bit values: moves (packing and unpacking), and cas and exch
    // atomics (NVIDIA's instructions on sm_90; on AMDGPU, which has no
    // 128-bit atomics, codegen makes them critical sections).
    if (t == TypeKind::b128 &&
        (name == "mov" ||
         (name == "atom" && (mods.getRedOp() == ReduceOp::cas ||
                             mods.getRedOp() == ReduceOp::exch))))
      continue;
    if (packed || t == TypeKind::tf32 || t == TypeKind::e4m3 ||
        t == TypeKind::e5m2 || t == TypeKind::e4m3x2 || t == TypeKind::e5m2x2 ||
        t == TypeKind::b128)
      return text;
  }
  if (name == "cvt" && mods.getRounding() == RoundingMode::rna &&
      mods.getType() != TypeKind::tf32)
    return text;
  if (name == "cvt") {
    Type dt = semanticType(op->getContext(), *mods.getType(0)),
         st = semanticType(op->getContext(), *mods.getType(1));
    // .relu: f16/bf16 (and pairs) from f32, and the FP8 pairs' conversions.
    bool reluOk = (st.isF32() && (getElementTypeOrSelf(dt).isF16() ||
                                  getElementTypeOrSelf(dt).isBF16())) ||
                  isFp8Convert(mods);
    if ((has(Flag::relu) && !reluOk) ||
        (has(Flag::satfinite) && !isFp8Convert(mods)) ||
        rnd == RoundingMode::rs || (has(Flag::sat) && isa<VectorType>(dt)) ||
        (directedMode(rnd) && !hasDirectedConvert(st, dt)))
      return text;
  }
  if (name == "fence" && (has(Flag::proxy) || mods.getSpaces().size()))
    return text;
  if (name == "lop3" &&
      (op->getNumResults() != 1 || op->getNumOperands() != 4 ||
       !matchPattern(op->getOperand(3), m_Constant())))
    return text;
  if (name == "redux" &&
      (!mods.getType() || isFloatType(*mods.getType()) || has(Flag::abs)))
    return text;
  if (name.starts_with("v") && name != "vote") {
    // Video instructions: whole words only (no .b0/.h1 selectors, no lane
    // mask or merge), and the SIMD ones with .add or no secondary op.
    if (auto sels = op->getAttrOfType<ArrayAttr>("selectors"))
      for (Attribute sel : sels)
        if (!cast<StringAttr>(sel).getValue().empty())
          return text + " with operand selectors";
    if (mods.getRedOp() && *mods.getRedOp() != ReduceOp::add)
      return text;
  }
  // Vector atomics (sm_90, .global): adds only (f32, halves, packed halves).
  if ((name == "atom" || name == "red") && mods.getVec() &&
      mods.getRedOp() != ReduceOp::add)
    return text;
  if (name == "cp.async") {
    // The size must be a constant; the `ignore-src` predicate form is not
    // lowered yet.
    Attribute size;
    if (op->getNumOperands() < 3 ||
        !matchPattern(op->getOperand(2), m_Constant(&size)))
      return text + " with a non-constant size";
    for (Value v : op->getOperands())
      if (v.getType().isInteger(1))
        return text + " with an ignore-src predicate";
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Structure
//===----------------------------------------------------------------------===//

template <typename FnOp> struct FunctionLowering : OpConversionPattern<FnOp> {
  FunctionLowering(const TypeConverter &tc, MLIRContext *ctx, const Lowering &l)
      : OpConversionPattern<FnOp>(tc, ctx), target(l.target), lowering(l) {}

  LogicalResult
  matchAndRewrite(FnOp op, typename FnOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    bool isKernel = std::is_same_v<FnOp, EntryOp>;
    SmallVector<ParamAttr> decls = getDeclaredParams(op);
    size_t numReturns = op.getReturns() ? op.getReturns()->size() : 0;
    if (!isKernel)
      lowering.signatures[op.getSymName()] = {decls, numReturns};
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
    SmallVector<ReturnPart> returns;
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
      lowering.returnParts[func] = returns;
    }
    rewriter.eraseOp(op);
    return success();
  }

  const TargetInfo &target;
  const Lowering &lowering;
};

struct RetLowering : OpConversionPattern<RetOp> {
  RetLowering(const TypeConverter &tc, MLIRContext *ctx, const Lowering &l)
      : OpConversionPattern(tc, ctx), lowering(l) {}
  const Lowering &lowering;
  LogicalResult
  matchAndRewrite(RetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values;
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    auto parts =
        func ? lowering.returnParts.find(func) : lowering.returnParts.end();
    if (parts != lowering.returnParts.end()) {
      // .reg returns from the operands, .param returns from their slots.
      ValueRange regs = adaptor.getValues();
      size_t next = 0;
      for (const ReturnPart &part : parts->second)
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

struct ExitLowering : OpConversionPattern<ExitOp> {
  ExitLowering(const TypeConverter &tc, MLIRContext *ctx, const TargetInfo &t)
      : OpConversionPattern(tc, ctx), target(t) {}
  LogicalResult
  matchAndRewrite(ExitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target.createExit(rewriter, op.getLoc());
    rewriter.eraseOp(op);
    return success();
  }
  const TargetInfo &target;
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

struct AddrLowering : OpConversionPattern<AddrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AddrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value base = adaptor.getBase();
    Location loc = op.getLoc();
    if (isa<LLVM::LLVMPointerType>(base.getType())) {
      Value off = constInt(rewriter, loc, rewriter.getI64Type(),
                           static_cast<int64_t>(op.getOffset()));
      rewriter.replaceOpWithNewOp<LLVM::GEPOp>(
          op, base.getType(), rewriter.getI8Type(), base, ValueRange{off});
      return success();
    }
    Value off = constInt(rewriter, loc, base.getType(),
                         static_cast<int64_t>(op.getOffset()));
    rewriter.replaceOpWithNewOp<LLVM::AddOp>(op, base, off);
    return success();
  }
};

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
    SmallVector<Value> inputs;
    for (Value v : operands) {
      Value s = scalar(rewriter, loc, v);
      inputs.push_back(s);
      constraints += constraints.empty() ? "" : ",";
      constraints += letter(s.getType());
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

struct SRegLowering : OpConversionPattern<SRegOp> {
  SRegLowering(const TypeConverter &tc, MLIRContext *ctx, const TargetInfo &t)
      : OpConversionPattern(tc, ctx), target(t) {}
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

  const TargetInfo &target;
};

struct GlobalLowering : OpConversionPattern<GlobalOp> {
  GlobalLowering(const TypeConverter &tc, MLIRContext *ctx, const TargetInfo &t)
      : OpConversionPattern(tc, ctx), target(t) {}
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

  const TargetInfo &target;
};

struct LocalVarLowering : OpConversionPattern<LocalVarOp> {
  LocalVarLowering(const TypeConverter &tc, MLIRContext *ctx,
                   const TargetInfo &t)
      : OpConversionPattern(tc, ctx), target(t) {}
  LogicalResult
  matchAndRewrite(LocalVarOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    uint64_t size = std::max<uint64_t>(getTypeBitWidth(op.getType()) / 8, 1);
    if (op.getVec())
      size *= *op.getVec();
    if (auto dims = op.getDims())
      for (int64_t d : *dims)
        size *= std::max<int64_t>(d, 1);
    Type bytes = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), size);
    Type resultType = getTypeConverter()->convertType(op.getAddr().getType());
    if (op.getSpace() == StateSpace::shared) {
      // Function-scope .shared: a module-level LDS variable.
      auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
      auto module = op->getParentOfType<ModuleOp>();
      std::string name = (func ? func.getSymName() : StringRef("fn")).str() +
                         "." + op.getName().str();
      OpBuilder::InsertPoint ip = rewriter.saveInsertionPoint();
      rewriter.setInsertionPointToStart(module.getBody());
      auto g = LLVM::GlobalOp::create(
          rewriter, loc, bytes, false, LLVM::Linkage::Internal, name,
          Attribute(), op.getAlignment().value_or(4),
          target.getAddressSpace(StateSpace::shared));
      Block *b = rewriter.createBlock(&g.getInitializerRegion());
      rewriter.setInsertionPointToStart(b);
      LLVM::ReturnOp::create(
          rewriter, loc,
          LLVM::PoisonOp::create(rewriter, loc, bytes).getResult());
      rewriter.restoreInsertionPoint(ip);
      Value addr = LLVM::AddressOfOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(ctx, 3), name);
      rewriter.replaceOp(op, castTo(rewriter, loc, addr, resultType));
      return success();
    }
    // .local and call-site .param: stack memory.
    Value one = constInt(rewriter, loc, rewriter.getI32Type(), 1);
    Value alloca = createStackSlot(rewriter, loc, target, bytes, one,
                                   op.getAlignment().value_or(8));
    rewriter.replaceOp(op, castTo(rewriter, loc, alloca, resultType));
    return success();
  }
  const TargetInfo &target;
};

struct CallLowering : OpConversionPattern<CallOp> {
  CallLowering(const TypeConverter &tc, MLIRContext *ctx, const Lowering &l)
      : OpConversionPattern(tc, ctx), target(l.target), lowering(l) {}
  const TargetInfo &target;
  const Lowering &lowering;

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
    auto it = lowering.signatures.find(*op.getCallee());
    if (it != lowering.signatures.end()) {
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

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// One pattern per instruction op: the family function computes the results.
template <typename OpTy> struct InstLowering : OpConversionPattern<OpTy> {
  using Fn = FailureOr<SmallVector<Value>> (*)(OpTy, ValueRange, ModifiersAttr,
                                               ConversionPatternRewriter &,
                                               const Lowering &);
  InstLowering(const TypeConverter &tc, MLIRContext *ctx, const Lowering &l,
               Fn fn)
      : OpConversionPattern<OpTy>(tc, ctx), lowering(l), fn(fn) {}
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto results = fn(op, adaptor.getArgs(), op.getMods(), rewriter, lowering);
    if (failed(results))
      return failure();
    rewriter.replaceOp(op, *results);
    return success();
  }
  const Lowering &lowering;
  Fn fn;
};

using Results = FailureOr<SmallVector<Value>>;

Results one(Value v) { return SmallVector<Value>{v}; }

/// The instruction type's LLVM type, and the operands converted to it.
Type instType(Operation *op, ModifiersAttr mods, unsigned i = 0) {
  return semanticType(op->getContext(), *mods.getType(i));
}

/// The high half of the double-width product of `x` and `y` (mul.hi).
Value mulHigh(OpBuilder &b, Location loc, Value x, Value y, bool isSigned) {
  Type t = x.getType();
  unsigned w = bitWidth(t);
  Type wide = b.getIntegerType(2 * w);
  auto ext = [&](Value v) -> Value {
    return isSigned ? Value(LLVM::SExtOp::create(b, loc, wide, v))
                    : Value(LLVM::ZExtOp::create(b, loc, wide, v));
  };
  Value p = LLVM::MulOp::create(b, loc, ext(x), ext(y));
  Value sh = LLVM::LShrOp::create(b, loc, p, constInt(b, loc, wide, w));
  return LLVM::TruncOp::create(b, loc, t, sh);
}

/// Whether an f32 float operation is one of PTX's `.approx` math functions.
bool isApproxMath(StringRef name, ModifiersAttr mods) {
  if (name == "sin" || name == "cos" || name == "ex2" || name == "lg2" ||
      name == "rsqrt")
    return true;
  return (name == "sqrt" || name == "div" || name == "rcp") &&
         hasFlag(mods, Flag::approx);
}

/// An integer constant of type `t`: a scalar, or a splat vector.
Value splatInt(OpBuilder &b, Location loc, Type t, int64_t v) {
  if (auto vt = dyn_cast<VectorType>(t))
    return LLVM::ConstantOp::create(
        b, loc, t,
        DenseElementsAttr::get(vt, b.getIntegerAttr(vt.getElementType(), v)));
  return constInt(b, loc, t, v);
}

/// The integer type of a float type's bits (f32 -> i32, vector<2xf16> ->
/// vector<2xi16>).
Type bitsType(Type t) {
  if (auto vt = dyn_cast<VectorType>(t))
    return VectorType::get(vt.getShape(), bitsType(vt.getElementType()));
  return IntegerType::get(t.getContext(), t.getIntOrFloatBitWidth());
}

/// NVIDIA's canonical NaN (all ones but the sign) where `bad` holds.
Value canonicalNaNIf(OpBuilder &b, Location loc, Value bad, Value v) {
  Type t = v.getType(), it = bitsType(t);
  unsigned w = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
  Value canon = LLVM::BitcastOp::create(
      b, loc, t,
      splatInt(b, loc, it,
               static_cast<int64_t>(
                   llvm::APInt::getSignedMaxValue(w).getZExtValue())));
  return LLVM::SelectOp::create(b, loc, bad, canon, v);
}

/// Float min/max (scalars or packed halves) with PTX's modifiers.
/// `.xorsign.abs`: the magnitudes' min/max, with the XOR of the operands'
/// signs. `.NaN`: a NaN operand gives the canonical NaN; without it a NaN
/// operand yields the other (minnum), and two NaNs give the canonical NaN,
/// when the sign modifier is ignored.
Value floatMinMax(OpBuilder &b, Location loc, bool isMin, Value x, Value y,
                  bool nan, bool xorsign) {
  Value a = xorsign ? Value(LLVM::FAbsOp::create(b, loc, x)) : x;
  Value c = xorsign ? Value(LLVM::FAbsOp::create(b, loc, y)) : y;
  Value r = isMin ? Value(LLVM::MinNumOp::create(b, loc, a, c))
                  : Value(LLVM::MaxNumOp::create(b, loc, a, c));
  if (!nan && !xorsign)
    return r;
  Value bad =
      nan ? LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, x, y)
          : LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, r, r);
  if (xorsign) {
    Type t = r.getType(), it = bitsType(t);
    unsigned w = getElementTypeOrSelf(t).getIntOrFloatBitWidth();
    auto bits = [&](Value v) { return LLVM::BitcastOp::create(b, loc, it, v); };
    Value sign = LLVM::AndOp::create(
        b, loc, LLVM::XOrOp::create(b, loc, bits(x), bits(y)),
        splatInt(
            b, loc, it,
            static_cast<int64_t>(llvm::APInt::getSignMask(w).getZExtValue())));
    r = LLVM::BitcastOp::create(b, loc, t,
                                LLVM::OrOp::create(b, loc, bits(r), sign));
  }
  return canonicalNaNIf(b, loc, bad, r);
}

/// `.relu` on a float result: negative values and -0 become +0 (as NVIDIA's
/// hardware gives), NaN the canonical NaN (fma.relu, cvt.relu).
Value floatRelu(OpBuilder &b, Location loc, Value r) {
  Type t = r.getType();
  Value zero =
      LLVM::BitcastOp::create(b, loc, t, splatInt(b, loc, bitsType(t), 0));
  Value negative =
      LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ole, r, zero);
  r = LLVM::SelectOp::create(b, loc, negative, zero, r);
  return canonicalNaNIf(
      b, loc, LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, r, r), r);
}

Results lowerArith(Operation *op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op->getLoc();
  StringRef name = op->getName().stripDialect();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  Type resT = op->getResult(0).getType();
  bool isFloat = isFloatType(kind);
  bool isSigned = isSignedIntType(kind) || kind == TypeKind::s16x2;
  bool ftz = hasFlag(mods, Flag::ftz);
  bool sat = hasFlag(mods, Flag::sat);
  std::optional<Mode> mode = mods.getMode();
  SmallVector<Value> in, raw;
  for (auto [i, a] : llvm::enumerate(args)) {
    Type want = t;
    // mad.wide's addend is twice as wide.
    if (name == "mad" && mode == Mode::wide && i == 2)
      want = b.getIntegerType(2 * bitWidth(t));
    Value v = castTo(b, loc, a, want);
    raw.push_back(v);
    if (isFloat && ftz)
      v = flushDenormal(b, loc, v);
    in.push_back(v);
  }
  // Contractible arithmetic (no rounding modifier, no .sat) as the target
  // would have it.
  if ((t.isF32() || t.isF64()) && !mods.getRounding() && !sat &&
      (name == "add" || name == "sub" || name == "mul"))
    if (Value r =
            l.target.createContractible(b, loc, name, ftz, raw[0], raw[1]))
      return one(castTo(b, loc, r, resT));
  Value r;
  if (isFloat && !isa<VectorType>(t)) {
    if (std::optional<Directed> d = directedMode(mods.getRounding())) {
      r = directedArith(b, loc, name, in, *d, ftz);
      if (sat)
        r = saturate(b, loc, r);
      return one(castTo(b, loc, r, resT));
    }
  }
  if (isFloat) {
    // (f64 has only rcp.approx.ftz.)
    Value fast =
        (t.isF32() || (t.isF64() && name == "rcp")) && isApproxMath(name, mods)
            ? l.target.createApproxMath(b, loc, name, in)
            : Value();
    // add/sub/mul without a rounding modifier may be fused into an fma
    // (the PTX ISA leaves that to the code generator, and ptxas does it);
    // with `.rn` they are rounded separately.
    auto contract = LLVM::FastmathFlagsAttr::get(
        b.getContext(), mods.getRounding() || sat || ftz
                            ? LLVM::FastmathFlags::none
                            : LLVM::FastmathFlags::contract);
    if (fast)
      r = fast;
    else if (name == "add")
      r = LLVM::FAddOp::create(b, loc, in[0], in[1], contract);
    else if (name == "sub")
      r = LLVM::FSubOp::create(b, loc, in[0], in[1], contract);
    else if (name == "mul")
      r = LLVM::FMulOp::create(b, loc, in[0], in[1], contract);
    else if (name == "div")
      r = LLVM::FDivOp::create(b, loc, in[0], in[1]);
    else if (name == "fma" || name == "mad") {
      r = LLVM::FMAOp::create(b, loc, in[0], in[1], in[2]);
      if (hasFlag(mods, Flag::relu))
        r = floatRelu(b, loc, r);
    } else if (name == "min" || name == "max")
      r = floatMinMax(b, loc, name == "min", in[0], in[1],
                      hasFlag(mods, Flag::NaN), hasFlag(mods, Flag::xorsign));
    else if (name == "neg" || name == "abs") {
      // NVIDIA returns the canonical NaN (all ones but the sign) for a NaN
      // operand rather than flipping or clearing its sign (measured).
      r = name == "neg" ? Value(LLVM::FNegOp::create(b, loc, in[0]))
                        : Value(LLVM::FAbsOp::create(b, loc, in[0]));
      if (isa<VectorType>(t))
        return one(castTo(b, loc, r, resT));
      r = canonicalNaNIf(
          b, loc,
          LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, in[0], in[0]),
          r);
    } else if (name == "rcp")
      r = LLVM::FDivOp::create(b, loc, constFloat(b, loc, t, 1.0), in[0]);
    else if (name == "sqrt")
      r = LLVM::SqrtOp::create(b, loc, in[0]);
    else if (name == "rsqrt")
      r = LLVM::FDivOp::create(b, loc, constFloat(b, loc, t, 1.0),
                               LLVM::SqrtOp::create(b, loc, in[0]));
    else if (name == "sin")
      r = LLVM::SinOp::create(b, loc, in[0]);
    else if (name == "cos")
      r = LLVM::CosOp::create(b, loc, in[0]);
    else if (name == "ex2")
      r = LLVM::Exp2Op::create(b, loc, in[0]);
    else if (name == "lg2")
      r = LLVM::Log2Op::create(b, loc, in[0]);
    else
      return op->emitError("unsupported: float ") << name;
    if (sat)
      r = saturate(b, loc, r);
    if (ftz && ftzMinNormal(t) != 0.0 &&
        (name == "mul" || name == "fma" || name == "mad")) {
      // NVIDIA detects tininess after rounding to 24 bits with an unbounded
      // exponent: FLT_MIN * 0.99999994 = FLT_MIN - 2^-150 is such a number
      // and gives 0 with .ftz though IEEE rounding makes it FLT_MIN
      // (measured); anything at or above the midpoint FLT_MIN - 2^-151
      // rounds to FLT_MIN and stays. f16 the same with 11 bits: the
      // midpoint 2^-14 - 2^-26. The product is exact in f64, the fma
      // rounded once to double precision.
      bool half = getElementTypeOrSelf(t).isF16();
      Type f64 = b.getF64Type();
      if (auto vt = dyn_cast<VectorType>(t))
        f64 = VectorType::get(vt.getShape(), f64);
      Value x = LLVM::FPExtOp::create(b, loc, f64, in[0]);
      Value y = LLVM::FPExtOp::create(b, loc, f64, in[1]);
      Value exact =
          name == "mul"
              ? Value(LLVM::FMulOp::create(b, loc, x, y))
              : Value(LLVM::FMAOp::create(
                    b, loc, x, y, LLVM::FPExtOp::create(b, loc, f64, in[2])));
      Value mag = LLVM::FAbsOp::create(b, loc, exact);
      Value tiny = LLVM::FCmpOp::create(
          b, loc, LLVM::FCmpPredicate::olt, mag,
          constFloat(b, loc, f64, half ? 0x1.ffep-15 : 0x1.ffffffp-127));
      Value zero =
          LLVM::CopySignOp::create(b, loc, constFloat(b, loc, t, 0.0), r);
      r = LLVM::SelectOp::create(b, loc, tiny, zero, r);
    }
    if (ftz)
      r = flushDenormal(b, loc, r);
    return one(castTo(b, loc, r, resT));
  }

  unsigned w = bitWidth(t);
  Type wide = b.getIntegerType(2 * w);
  auto ext = [&](Value v) -> Value {
    return isSigned ? Value(LLVM::SExtOp::create(b, loc, wide, v))
                    : Value(LLVM::ZExtOp::create(b, loc, wide, v));
  };
  auto mulFull = [&]() -> Value {
    if (mode == Mode::hi)
      return mulHigh(b, loc, in[0], in[1], isSigned);
    if (mode == Mode::wide)
      return LLVM::MulOp::create(b, loc, ext(in[0]), ext(in[1]));
    return LLVM::MulOp::create(b, loc, in[0], in[1]);
  };
  if (name == "add")
    r = sat ? Value(LLVM::SAddSat::create(b, loc, in[0], in[1]))
            : Value(LLVM::AddOp::create(b, loc, in[0], in[1]));
  else if (name == "sub")
    r = sat ? Value(LLVM::SSubSat::create(b, loc, in[0], in[1]))
            : Value(LLVM::SubOp::create(b, loc, in[0], in[1]));
  else if (name == "mul")
    r = mulFull();
  else if (name == "mad") {
    Value p = mulFull();
    r = LLVM::AddOp::create(b, loc, p, in[2]);
  } else if (name == "div" || name == "rem") {
    // PTX leaves division by zero unspecified and never traps; LLVM's is
    // undefined, so a zero divisor is replaced and the result chosen here.
    // INT_MIN / -1 wraps.
    Type it = in[0].getType();
    Value zero = constInt(b, loc, it, 0), oneV = constInt(b, loc, it, 1);
    Value isZero =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, in[1], zero);
    Value d = LLVM::SelectOp::create(b, loc, isZero, oneV, in[1]);
    Value q;
    if (isSigned) {
      Value minusOne = constInt(b, loc, it, -1);
      Value isM1 =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, d, minusOne);
      Value safe = LLVM::SelectOp::create(b, loc, isM1, oneV, d);
      Value neg = LLVM::SubOp::create(b, loc, zero, in[0]);
      Value div = LLVM::SDivOp::create(b, loc, in[0], safe);
      Value rem = LLVM::SRemOp::create(b, loc, in[0], safe);
      q = name == "div"
              ? Value(LLVM::SelectOp::create(b, loc, isM1, neg, div))
              : Value(LLVM::SelectOp::create(b, loc, isM1, zero, rem));
    } else {
      q = name == "div" ? Value(LLVM::UDivOp::create(b, loc, in[0], d))
                        : Value(LLVM::URemOp::create(b, loc, in[0], d));
    }
    // NVIDIA gives all ones for both (measured on the H200).
    Value byZero = constInt(b, loc, it, -1);
    r = LLVM::SelectOp::create(b, loc, isZero, byZero, q);
  } else if (name == "min" || name == "max") {
    if (name == "min")
      r = isSigned ? Value(LLVM::SMinOp::create(b, loc, in[0], in[1]))
                   : Value(LLVM::UMinOp::create(b, loc, in[0], in[1]));
    else
      r = isSigned ? Value(LLVM::SMaxOp::create(b, loc, in[0], in[1]))
                   : Value(LLVM::UMaxOp::create(b, loc, in[0], in[1]));
    // .relu (s32, s16x2): a negative result is 0.
    if (hasFlag(mods, Flag::relu))
      r = LLVM::SMaxOp::create(b, loc, r, splatInt(b, loc, r.getType(), 0));
  } else if (name == "neg")
    r = LLVM::SubOp::create(b, loc, constInt(b, loc, t, 0), in[0]);
  else if (name == "abs") {
    Value zero = constInt(b, loc, t, 0);
    Value negV = LLVM::SubOp::create(b, loc, zero, in[0]);
    Value isNeg =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, in[0], zero);
    r = LLVM::SelectOp::create(b, loc, isNeg, negV, in[0]);
  } else if (name == "and")
    r = LLVM::AndOp::create(b, loc, in[0], in[1]);
  else if (name == "or")
    r = LLVM::OrOp::create(b, loc, in[0], in[1]);
  else if (name == "xor")
    r = LLVM::XOrOp::create(b, loc, in[0], in[1]);
  else if (name == "not")
    r = LLVM::XOrOp::create(b, loc, in[0], constInt(b, loc, t, -1));
  else if (name == "cnot") {
    Value isZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, in[0],
                                        constInt(b, loc, t, 0));
    r = LLVM::ZExtOp::create(b, loc, t, isZero);
  } else if (name == "popc" || name == "clz") {
    Value c =
        name == "popc"
            ? Value(LLVM::CtPopOp::create(b, loc, t, in[0]))
            : Value(LLVM::CountLeadingZerosOp::create(b, loc, t, in[0], false));
    r = castTo(b, loc, c, b.getI32Type());
  } else if (name == "brev")
    r = LLVM::BitReverseOp::create(b, loc, t, in[0]);
  else
    return op->emitError("unsupported: integer ") << name;
  return one(castTo(b, loc, r, resT, isSigned));
}

/// Extended-precision arithmetic through CC.CF: add/sub/mad with `.cc`
/// (carry out) and addc/subc/madc (carry in, out with `.cc`), for 32- and
/// 64-bit integers. After a subtraction CF is the carry of a + ~b + 1, i.e.
/// not-borrow, as on NVIDIA GPUs (found by the oracle: a chain mixing
/// addc.cc and subc differs otherwise).
Results lowerCarryArith(Operation *op, ValueRange args, ModifiersAttr mods,
                        ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op->getLoc();
  StringRef name = op->getName().stripDialect();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  bool carryIn = name.ends_with("c");
  bool carryOut = hasFlag(mods, Flag::cc);
  bool isSub = name.starts_with("sub");
  SmallVector<Value> in;
  for (Value a : args)
    in.push_back(castTo(b, loc, a, t));
  Value x = in[0], y = in[1];
  if (name.starts_with("mad")) {
    // The product's low or high half (signed for .s32), then + c.
    Mode mode = mods.getMode().value_or(Mode::lo);
    x = mode == Mode::hi
            ? mulHigh(b, loc, x, y, isSignedIntType(*mods.getType()))
            : Value(LLVM::MulOp::create(b, loc, x, y));
    y = in[2];
  }
  using P = LLVM::ICmpPredicate;
  Value slot = carryIn || carryOut ? l.carrySlot(b, op) : Value();
  Type i32 = b.getI32Type();
  // First step: x +/- y, with its carry (x + y < x) or borrow (x < y).
  Value d = isSub ? Value(LLVM::SubOp::create(b, loc, x, y))
                  : Value(LLVM::AddOp::create(b, loc, x, y));
  Value out = isSub ? LLVM::ICmpOp::create(b, loc, P::ult, x, y)
                    : LLVM::ICmpOp::create(b, loc, P::ult, d, x);
  if (carryIn) {
    Value cf = LLVM::LoadOp::create(b, loc, i32, slot);
    // CC.CF holds a carry, also after a subtraction (as NVIDIA GPUs do:
    // a - b is a + ~b + 1), so the borrow in is its complement.
    if (isSub)
      cf = LLVM::XOrOp::create(b, loc, cf, constInt(b, loc, i32, 1));
    if (w != 32)
      cf = LLVM::ZExtOp::create(b, loc, t, cf);
    Value e = isSub ? Value(LLVM::SubOp::create(b, loc, d, cf))
                    : Value(LLVM::AddOp::create(b, loc, d, cf));
    Value out2 = isSub ? LLVM::ICmpOp::create(b, loc, P::ult, d, cf)
                       : LLVM::ICmpOp::create(b, loc, P::ult, e, d);
    out = LLVM::OrOp::create(b, loc, out, out2);
    d = e;
  }
  if (isSub)
    out = LLVM::XOrOp::create(b, loc, out, constInt(b, loc, b.getI1Type(), 1));
  if (carryOut)
    LLVM::StoreOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i32, out), slot);
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerArithOp(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  if (hasFlag(mods, Flag::cc))
    return lowerCarryArith(op, args, mods, b, l);
  return lowerArith(op, args, mods, b, l);
}

template <typename OpTy>
Results lowerCarryOp(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  return lowerCarryArith(op, args, mods, b, l);
}

template <typename OpTy>
Results lowerShift(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  // PTX clamps shift amounts: past the width, shl and shr.u give 0 and
  // shr.s the sign. LLVM's shifts are poison there.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  Value amt32 = castTo(b, loc, args[1], b.getI32Type());
  Value max = constInt(b, loc, b.getI32Type(), w - 1);
  Value clamped = LLVM::UMinOp::create(b, loc, amt32, max);
  Value amt = castTo(b, loc, clamped, t);
  Value big =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, amt32, max);
  bool isShl = op->getName().stripDialect() == "shl";
  Value r;
  if (!isShl && isSignedIntType(*mods.getType())) {
    r = LLVM::AShrOp::create(b, loc, a, amt);
  } else {
    Value s = isShl ? Value(LLVM::ShlOp::create(b, loc, a, amt))
                    : Value(LLVM::LShrOp::create(b, loc, a, amt));
    r = LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0), s);
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// The comparison of setp and set, in `t`, before any combination.
FailureOr<Value> compare(Operation *op, Value x, Value y, TypeKind kind,
                         ModifiersAttr mods, ConversionPatternRewriter &b) {
  Location loc = op->getLoc();
  CmpOp cmp = *mods.getCmp();
  if (isFloatType(kind)) {
    if (hasFlag(mods, Flag::ftz)) {
      x = flushDenormal(b, loc, x);
      y = flushDenormal(b, loc, y);
    }
    using P = LLVM::FCmpPredicate;
    P p;
    switch (cmp) {
    case CmpOp::eq:
      p = P::oeq;
      break;
    case CmpOp::ne:
      p = P::one;
      break;
    case CmpOp::lt:
      p = P::olt;
      break;
    case CmpOp::le:
      p = P::ole;
      break;
    case CmpOp::gt:
      p = P::ogt;
      break;
    case CmpOp::ge:
      p = P::oge;
      break;
    case CmpOp::equ:
      p = P::ueq;
      break;
    case CmpOp::neu:
      p = P::une;
      break;
    case CmpOp::ltu:
      p = P::ult;
      break;
    case CmpOp::leu:
      p = P::ule;
      break;
    case CmpOp::gtu:
      p = P::ugt;
      break;
    case CmpOp::geu:
      p = P::uge;
      break;
    case CmpOp::num:
      p = P::ord;
      break;
    case CmpOp::nan:
      p = P::uno;
      break;
    default:
      return op->emitError("unsupported: float comparison .")
             << stringifyCmpOp(cmp);
    }
    return Value(LLVM::FCmpOp::create(b, loc, p, x, y));
  }
  using P = LLVM::ICmpPredicate;
  bool s = isSignedIntType(kind);
  P p;
  switch (cmp) {
  case CmpOp::eq:
    p = P::eq;
    break;
  case CmpOp::ne:
    p = P::ne;
    break;
  case CmpOp::lt:
    p = s ? P::slt : P::ult;
    break;
  case CmpOp::le:
    p = s ? P::sle : P::ule;
    break;
  case CmpOp::gt:
    p = s ? P::sgt : P::ugt;
    break;
  case CmpOp::ge:
    p = s ? P::sge : P::uge;
    break;
  case CmpOp::lo:
    p = P::ult;
    break;
  case CmpOp::ls:
    p = P::ule;
    break;
  case CmpOp::hi:
    p = P::ugt;
    break;
  case CmpOp::hs:
    p = P::uge;
    break;
  default:
    return op->emitError("unsupported: integer comparison .")
           << stringifyCmpOp(cmp);
  }
  return Value(LLVM::ICmpOp::create(b, loc, p, x, y));
}

/// `.and/.or/.xor` with the predicate `c`.
Value combine(OpBuilder &b, Location loc, Value r, ModifiersAttr mods,
              Value c) {
  std::optional<BoolOp> boolOp = mods.getBoolOp();
  if (!boolOp)
    return r;
  switch (*boolOp) {
  case BoolOp::and_:
    return LLVM::AndOp::create(b, loc, r, c);
  case BoolOp::or_:
    return LLVM::OrOp::create(b, loc, r, c);
  case BoolOp::xor_:
    return LLVM::XOrOp::create(b, loc, r, c);
  }
  return r;
}

template <typename OpTy>
Results lowerSetp(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  auto c = compare(op, castTo(b, loc, args[0], t), castTo(b, loc, args[1], t),
                   kind, mods, b);
  if (failed(c))
    return failure();
  SmallVector<Value> results;
  if (isa<VectorType>(c->getType())) {
    // .f16x2/.bf16x2: p is the lower halves' comparison, q the upper's.
    for (int64_t i : {0, 1})
      results.push_back(LLVM::ExtractElementOp::create(
          b, loc, *c, constInt(b, loc, b.getI32Type(), i)));
  } else {
    results = {*c, LLVM::XOrOp::create(b, loc, *c,
                                       constInt(b, loc, b.getI1Type(), 1))};
  }
  if (mods.getBoolOp()) {
    Value pc = castTo(b, loc, args[2], b.getI1Type());
    for (Value &r : results)
      r = combine(b, loc, r, mods, pc);
  }
  results.resize(op->getNumResults());
  return results;
}

template <typename OpTy>
Results lowerSet(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // set.cmp.dtype.stype: 1.0f or all ones when true, 0 when false.
  Location loc = op.getLoc();
  TypeKind dk = *mods.getType(0), sk = *mods.getType(1);
  Type st = semanticType(op.getContext(), sk);
  auto c = compare(op, castTo(b, loc, args[0], st), castTo(b, loc, args[1], st),
                   sk, mods, b);
  if (failed(c))
    return failure();
  Value r = *c;
  if (mods.getBoolOp())
    r = combine(b, loc, r, mods, castTo(b, loc, args[2], b.getI1Type()));
  Type dt = semanticType(op.getContext(), dk);
  Value d;
  if (auto vt = dyn_cast<VectorType>(dt)) {
    // Packed: each half is 1.0 or 0 of its own type.
    Type et = vt.getElementType();
    Value yes = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getFloatAttr(et, 1.0)));
    Value no = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getFloatAttr(et, 0.0)));
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  } else if (isa<VectorType>(r.getType())) {
    // Packed source, integer word: each half 0xffff when true, 0 if not.
    auto vt = VectorType::get({2}, b.getI16Type());
    Value yes = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getI16IntegerAttr(-1)));
    Value no = LLVM::ConstantOp::create(
        b, loc, vt, DenseElementsAttr::get(vt, b.getI16IntegerAttr(0)));
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  } else {
    Value yes = isFloatType(dk) ? constFloat(b, loc, dt, 1.0)
                                : constInt(b, loc, dt, -1);
    Value no =
        isFloatType(dk) ? constFloat(b, loc, dt, 0.0) : constInt(b, loc, dt, 0);
    d = LLVM::SelectOp::create(b, loc, r, yes, no);
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// mul24/mad24 (.lo/.hi, .u32/.s32): the operands' low 24 bits (sign- or
/// zero-extended) multiplied into 48 bits; .lo keeps bits 31..0, .hi bits
/// 47..16; mad24 adds c, and .hi.sat.s32 saturates that sum.
template <typename OpTy>
Results lowerMul24(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type(), i24 = b.getIntegerType(24);
  bool s = isSignedIntType(*mods.getType());
  auto widen = [&](Value v) -> Value {
    Value low = LLVM::TruncOp::create(b, loc, i24, castTo(b, loc, v, i32));
    return s ? Value(LLVM::SExtOp::create(b, loc, i64, low))
             : Value(LLVM::ZExtOp::create(b, loc, i64, low));
  };
  Value p = LLVM::MulOp::create(b, loc, widen(args[0]), widen(args[1]));
  bool hi = mods.getMode() == Mode::hi;
  if (hi)
    p = s ? Value(LLVM::AShrOp::create(b, loc, p, constInt(b, loc, i64, 16)))
          : Value(LLVM::LShrOp::create(b, loc, p, constInt(b, loc, i64, 16)));
  if (args.size() == 3) {
    Value c = castTo(b, loc, args[2], i32);
    Value c64 = s ? Value(LLVM::SExtOp::create(b, loc, i64, c))
                  : Value(LLVM::ZExtOp::create(b, loc, i64, c));
    Value sum = LLVM::AddOp::create(b, loc, p, c64);
    if (hasFlag(mods, Flag::sat) && s) {
      sum = LLVM::SMaxOp::create(b, loc, sum, constInt(b, loc, i64, INT32_MIN));
      sum = LLVM::SMinOp::create(b, loc, sum, constInt(b, loc, i64, INT32_MAX));
    }
    p = sum;
  }
  return one(castTo(b, loc, LLVM::TruncOp::create(b, loc, i32, p),
                    op->getResult(0).getType()));
}

/// fns.b32 d, mask, base, offset: the position of the |offset|-th set bit
/// of mask from bit `base` (included) upward for offset > 0, downward for
/// offset < 0; offset 0: base itself if its bit is set; none: 0xffffffff.
/// The first |offset| - 1 set bits on the search side are cleared (32 steps
/// at most), then the nearest one is taken. As NVIDIA's hardware computes
/// (measured on the H200): a base above 31 (undefined in the PTX ISA) finds
/// nothing, and offset INT32_MIN gives 0 whatever mask and base are.
template <typename OpTy>
Results lowerFns(OpTy op, ValueRange args, ModifiersAttr,
                 ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  using P = LLVM::ICmpPredicate;
  Value mask = castTo(b, loc, args[0], i32);
  Value rawBase = castTo(b, loc, args[1], i32);
  Value base = LLVM::AndOp::create(b, loc, rawBase, c(31));
  Value offset = castTo(b, loc, args[2], i32);
  Value positive = LLVM::ICmpOp::create(b, loc, P::sgt, offset, c(0));
  // Set bits to skip: offset - 1 upward, -offset - 1 (= ~offset) downward.
  Value skip = LLVM::SelectOp::create(
      b, loc, positive, LLVM::SubOp::create(b, loc, offset, c(1)),
      LLVM::XOrOp::create(b, loc, offset, c(-1)));
  Value up = LLVM::AndOp::create(b, loc, mask,
                                 LLVM::ShlOp::create(b, loc, c(-1), base));
  Value down = LLVM::AndOp::create(
      b, loc, mask,
      LLVM::LShrOp::create(b, loc, c(-1),
                           LLVM::SubOp::create(b, loc, c(31), base)));
  auto clz = [&](Value v) {
    return LLVM::CountLeadingZerosOp::create(b, loc, i32, v, false);
  };
  for (int64_t i = 0; i < 32; ++i) {
    Value more = LLVM::ICmpOp::create(b, loc, P::sgt, skip, c(i));
    up = LLVM::SelectOp::create(
        b, loc, more,
        LLVM::AndOp::create(b, loc, up, LLVM::SubOp::create(b, loc, up, c(1))),
        up);
    Value top = LLVM::SelectOp::create(
        b, loc, LLVM::ICmpOp::create(b, loc, P::eq, down, c(0)), c(0),
        LLVM::LShrOp::create(b, loc, c(INT32_MIN),
                             LLVM::AndOp::create(b, loc, clz(down), c(31))));
    down = LLVM::SelectOp::create(
        b, loc, more,
        LLVM::AndOp::create(b, loc, down,
                            LLVM::XOrOp::create(b, loc, top, c(-1))),
        down);
  }
  auto none = [&](Value v) {
    return LLVM::ICmpOp::create(b, loc, P::eq, v, c(0));
  };
  Value upPos = LLVM::SelectOp::create(
      b, loc, none(up), c(-1),
      LLVM::CountTrailingZerosOp::create(b, loc, i32, up, false));
  Value downPos = LLVM::SelectOp::create(
      b, loc, none(down), c(-1), LLVM::SubOp::create(b, loc, c(31), clz(down)));
  Value baseSet = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, mask, base), c(1));
  Value atBase = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::ne, baseSet, c(0)), base, c(-1));
  Value r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, offset, c(0)), atBase,
      LLVM::SelectOp::create(b, loc, positive, upPos, downPos));
  r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::ugt, rawBase, c(31)), c(-1), r);
  r = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, offset, c(INT32_MIN)), c(0),
      r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u4,s4,u8,s8}.s32.b32
/// d, a, b, c: a and b saturated to the narrow type, b in the low `size`
/// bits, a above it, and (three operands) c's low bits above both.
template <typename OpTy>
Results lowerCvtPack(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  TypeKind to = *mods.getType(0);
  unsigned size = getTypeBitWidth(to);
  bool s = isSignedIntType(to);
  int64_t lo = s ? -(int64_t(1) << (size - 1)) : 0;
  int64_t hi = s ? (int64_t(1) << (size - 1)) - 1 : (int64_t(1) << size) - 1;
  auto sat = [&](Value v) -> Value {
    v = LLVM::SMaxOp::create(b, loc, castTo(b, loc, v, i32), c(lo));
    v = LLVM::SMinOp::create(b, loc, v, c(hi));
    return LLVM::AndOp::create(b, loc, v, c((int64_t(1) << size) - 1));
  };
  Value d = LLVM::OrOp::create(
      b, loc, LLVM::ShlOp::create(b, loc, sat(args[0]), c(size)), sat(args[1]));
  if (args.size() == 3)
    d = LLVM::OrOp::create(
        b, loc, d,
        LLVM::ShlOp::create(b, loc, castTo(b, loc, args[2], i32), c(2 * size)));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// testp.{finite,infinite,number,notanumber,normal,subnormal} on f32/f64.
template <typename OpTy>
Results lowerTestp(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type t = semanticType(op.getContext(), *mods.getType());
  Value x = castTo(b, loc, args[0], t);
  Value mag = LLVM::FAbsOp::create(b, loc, x);
  auto cmp = [&](LLVM::FCmpPredicate p, Value v, double c) -> Value {
    return LLVM::FCmpOp::create(b, loc, p, v, constFloat(b, loc, t, c));
  };
  double minNormal = t.isF64() ? 0x1p-1022 : 0x1p-126;
  using P = LLVM::FCmpPredicate;
  Value r;
  switch (*mods.getMode()) {
  case Mode::finite:
    r = cmp(P::olt, mag, INFINITY);
    break;
  case Mode::infinite:
    r = cmp(P::oeq, mag, INFINITY);
    break;
  case Mode::number:
    r = LLVM::FCmpOp::create(b, loc, P::ord, x, x);
    break;
  case Mode::notanumber:
    r = LLVM::FCmpOp::create(b, loc, P::uno, x, x);
    break;
  case Mode::normal:
    // The PTX ISA counts +0 and -0 as normal (and NVIDIA's hardware does).
    r = LLVM::AndOp::create(b, loc,
                            LLVM::OrOp::create(b, loc,
                                               cmp(P::oge, mag, minNormal),
                                               cmp(P::oeq, mag, 0.0)),
                            cmp(P::olt, mag, INFINITY));
    break;
  default: // subnormal
    r = LLVM::AndOp::create(b, loc, cmp(P::olt, mag, minNormal),
                            cmp(P::one, mag, 0.0));
    break;
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// slct.dtype.{s32,f32} d, a, b, c: a if c >= 0, else b (.ftz flushes an
/// f32 c; a NaN c selects b).
template <typename OpTy>
Results lowerSlct(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type dt = semanticType(op.getContext(), *mods.getType(0)),
       ct = semanticType(op.getContext(), *mods.getType(1));
  Value c = castTo(b, loc, args[2], ct);
  Value take;
  if (ct.isF32()) {
    if (hasFlag(mods, Flag::ftz))
      c = flushDenormal(b, loc, c);
    take = LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::oge, c,
                                constFloat(b, loc, ct, 0.0));
  } else {
    take = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge, c,
                                constInt(b, loc, ct, 0));
  }
  Value r = LLVM::SelectOp::create(b, loc, take, castTo(b, loc, args[0], dt),
                                   castTo(b, loc, args[1], dt));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// tanh.approx.f32 (and halves through f32): NVIDIA's instruction on the
/// verification target; otherwise x - x^3/3 + 2x^5/15 below 0.1 in
/// magnitude and (t - 1)/(t + 1) with t = e^(2|x|) above, with the sign of x,
/// 1 beyond 10: relative error near 2^-20 (the PTX ISA's bound is
/// 2^-10.987).
template <typename OpTy>
Results lowerTanh(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type t = instType(op, mods), f32 = b.getF32Type();
  Type wide = isa<VectorType>(t)
                  ? Type(VectorType::get(cast<VectorType>(t).getShape(), f32))
                  : f32;
  Value x = castTo(b, loc, args[0], t);
  if (!getElementTypeOrSelf(t).isF32())
    x = LLVM::FPExtOp::create(b, loc, wide, x);
  Value r;
  if (t.isF32())
    r = l.target.createApproxMath(b, loc, "tanh", ValueRange{x});
  if (!r) {
    auto c = [&](double v) -> Value {
      if (auto vt = dyn_cast<VectorType>(wide))
        return LLVM::ConstantOp::create(
            b, loc, wide, DenseElementsAttr::get(vt, b.getF32FloatAttr(v)));
      return constFloat(b, loc, f32, v);
    };
    Value mag = LLVM::FAbsOp::create(b, loc, x);
    Value e = LLVM::Exp2Op::create(
        b, loc, LLVM::FMulOp::create(b, loc, mag, c(2.0 * 1.4426950408889634)));
    Value big =
        LLVM::FDivOp::create(b, loc, LLVM::FSubOp::create(b, loc, e, c(1.0)),
                             LLVM::FAddOp::create(b, loc, e, c(1.0)));
    Value x2 = LLVM::FMulOp::create(b, loc, mag, mag);
    // x (1 - x^2/3 + 2x^4/15): the series' error is 17x^7/315.
    Value poly = LLVM::FAddOp::create(
        b, loc, c(-1.0 / 3.0), LLVM::FMulOp::create(b, loc, x2, c(2.0 / 15.0)));
    Value small = LLVM::FMulOp::create(
        b, loc, mag,
        LLVM::FAddOp::create(b, loc, c(1.0),
                             LLVM::FMulOp::create(b, loc, x2, poly)));
    Value v = LLVM::SelectOp::create(
        b, loc,
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::olt, mag, c(0.1)),
        small, big);
    v = LLVM::SelectOp::create(
        b, loc,
        LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::ogt, mag, c(10.0)),
        c(1.0), v);
    r = LLVM::CopySignOp::create(b, loc, v, x); // NaN stays NaN
  }
  if (!getElementTypeOrSelf(t).isF32())
    r = LLVM::FPTruncOp::create(b, loc, t, r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// prefetch/prefetchu: hints, nothing to do.
template <typename OpTy>
Results lowerHint(OpTy, ValueRange, ModifiersAttr, ConversionPatternRewriter &,
                  const Lowering &) {
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerCopysign(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &) {
  // copysign d, a, b: b's magnitude with a's sign.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value r = LLVM::CopySignOp::create(b, loc, castTo(b, loc, args[1], t),
                                     castTo(b, loc, args[0], t));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerShf(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // shf.l: the high word of {b, a} << n; shf.r: the low word of {b, a} >> n.
  // .wrap takes n mod 32, .clamp min(n, 32) (32 gives a or b whole).
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value lo = castTo(b, loc, args[0], i32), hi = castTo(b, loc, args[1], i32);
  Value n = castTo(b, loc, args[2], i32);
  bool left = mods.getMode() == Mode::l;
  bool clamp = hasFlag(mods, Flag::clamp);
  Value r = left ? Value(LLVM::FshlOp::create(b, loc, hi, lo, n))
                 : Value(LLVM::FshrOp::create(b, loc, hi, lo, n));
  if (clamp) {
    Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                     constInt(b, loc, i32, 32));
    r = LLVM::SelectOp::create(b, loc, big, left ? lo : hi, r);
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// `v << n` and `v >> n` (logical) that give 0 when n >= the width, where
/// LLVM's shifts are poison.
Value shlOrZero(OpBuilder &b, Location loc, Value v, Value n) {
  Type t = v.getType();
  unsigned w = bitWidth(t);
  Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                   constInt(b, loc, t, w));
  Value safe = LLVM::AndOp::create(b, loc, n, constInt(b, loc, t, w - 1));
  return LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0),
                                LLVM::ShlOp::create(b, loc, v, safe));
}
Value lshrOrZero(OpBuilder &b, Location loc, Value v, Value n) {
  Type t = v.getType();
  unsigned w = bitWidth(t);
  Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, n,
                                   constInt(b, loc, t, w));
  Value safe = LLVM::AndOp::create(b, loc, n, constInt(b, loc, t, w - 1));
  return LLVM::SelectOp::create(b, loc, big, constInt(b, loc, t, 0),
                                LLVM::LShrOp::create(b, loc, v, safe));
}
/// The low `count` bits set (all of them when count >= the width).
Value lowMask(OpBuilder &b, Location loc, Type t, Value count) {
  Value ones = constInt(b, loc, t, -1);
  return LLVM::XOrOp::create(b, loc, shlOrZero(b, loc, ones, count), ones);
}

template <typename OpTy>
Results lowerBfind(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  // The position of the most significant bit that differs from the sign
  // (signed) or is 1 (unsigned); .shiftamt gives width - 1 - position, the
  // left shift that brings it to the top. No such bit: 0xffffffff.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Type i32 = b.getI32Type();
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  if (isSignedIntType(*mods.getType())) {
    Value neg = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, a,
                                     constInt(b, loc, t, 0));
    a = LLVM::SelectOp::create(
        b, loc, neg, LLVM::XOrOp::create(b, loc, a, constInt(b, loc, t, -1)),
        a);
  }
  Value clz = castTo(
      b, loc, LLVM::CountLeadingZerosOp::create(b, loc, t, a, false), i32);
  bool shiftAmt = hasFlag(mods, Flag::shiftamt);
  Value r = shiftAmt ? clz
                     : Value(LLVM::SubOp::create(
                           b, loc, constInt(b, loc, i32, w - 1), clz));
  Value none = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, a,
                                    constInt(b, loc, t, 0));
  r = LLVM::SelectOp::create(b, loc, none, constInt(b, loc, i32, -1), r);
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerLop3(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // Bit i of the table is F(a, b, c) for a = i & 4, b = i & 2, c = i & 1
  // (ta = 0xF0, tb = 0xCC, tc = 0xAA): d is the OR of the selected
  // minterms, which LLVM folds to the few operations it needs.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  APInt lut;
  if (!matchPattern(op->getOperand(3), m_ConstantInt(&lut)))
    return op.emitError("unsupported: lop3 with a non-constant table");
  Value in[3], inv[3];
  Value ones = constInt(b, loc, i32, -1);
  for (int k = 0; k < 3; ++k) {
    in[k] = castTo(b, loc, args[k], i32);
    inv[k] = LLVM::XOrOp::create(b, loc, in[k], ones);
  }
  Value d = constInt(b, loc, i32, 0);
  for (unsigned i = 0; i < 8; ++i) {
    if (!lut[i])
      continue;
    Value term = LLVM::AndOp::create(b, loc, (i & 4) ? in[0] : inv[0],
                                     (i & 2) ? in[1] : inv[1]);
    term = LLVM::AndOp::create(b, loc, term, (i & 1) ? in[2] : inv[2]);
    d = LLVM::OrOp::create(b, loc, d, term);
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerSad(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // d = c + |a - b|, the difference taken in the type's signedness.
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value a = castTo(b, loc, args[0], t), bv = castTo(b, loc, args[1], t);
  Value c = castTo(b, loc, args[2], t);
  bool s = isSignedIntType(*mods.getType());
  Value less = LLVM::ICmpOp::create(
      b, loc, s ? LLVM::ICmpPredicate::slt : LLVM::ICmpPredicate::ult, a, bv);
  Value diff =
      LLVM::SelectOp::create(b, loc, less, LLVM::SubOp::create(b, loc, bv, a),
                             LLVM::SubOp::create(b, loc, a, bv));
  return one(castTo(b, loc, LLVM::AddOp::create(b, loc, c, diff),
                    op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerDotProduct(OpTy op, ValueRange args, ModifiersAttr mods,
                        ConversionPatternRewriter &b, const Lowering &) {
  // dp4a: d = c + the sum of the four byte products; dp2a: d = c + the two
  // products of a's 16-bit halves with bytes 0-1 (.lo) or 2-3 (.hi) of b.
  // Each part is extended by its operand's type (.atype.btype).
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  bool sa = isSignedIntType(*mods.getType(0));
  bool sb = isSignedIntType(*mods.getType(1));
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  Value d = castTo(b, loc, args[2], i32);
  auto part = [&](Value v, unsigned bits, unsigned k, bool s) -> Value {
    Value x = LLVM::TruncOp::create(
        b, loc, b.getIntegerType(bits),
        LLVM::LShrOp::create(b, loc, v, constInt(b, loc, i32, bits * k)));
    return s ? Value(LLVM::SExtOp::create(b, loc, i32, x))
             : Value(LLVM::ZExtOp::create(b, loc, i32, x));
  };
  bool twoWay = std::is_same_v<OpTy, Dp2aOp>;
  unsigned firstB = twoWay && mods.getMode() == Mode::hi ? 2 : 0;
  for (unsigned k = 0; k < (twoWay ? 2u : 4u); ++k)
    d = LLVM::AddOp::create(b, loc, d,
                            LLVM::MulOp::create(b, loc,
                                                part(a, twoWay ? 16 : 8, k, sa),
                                                part(bv, 8, firstB + k, sb)));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

/// Scalar video instructions (vadd vsub vabsdiff vmin vmax vshl vshr) on
/// whole words, and the SIMD vabsdiff2/vabsdiff4 with all lanes: the
/// operands extended to 64 bits by their types, the operation exact,
/// `.sat` clamping to the destination type (per lane for SIMD; a u32 word
/// only at 0), then the secondary .add of c (for SIMD, c plus the sum of
/// the lanes). The .min/.max secondary operations are not lowered: their
/// comparison on the H200 is not a plain signed or unsigned one (measured:
/// max(0x80000000, 0x80000001) gives 0x80000000, max(12, 0xfffffff0) gives
/// 0xfffffff0).
template <typename OpTy>
Results lowerVideo(OpTy op, ValueRange args, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  StringRef name = op->getName().stripDialect();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  bool sd = isSignedIntType(*mods.getType(0));
  bool sa = isSignedIntType(*mods.getType(1));
  bool sb = isSignedIntType(*mods.getType(2));
  bool sat = hasFlag(mods, Flag::sat);
  std::optional<ReduceOp> op2 = mods.getRedOp();
  unsigned lane = name.ends_with("4") ? 8 : name.ends_with("2") ? 16 : 32;
  StringRef vop = lane == 32 ? name : name.drop_back();
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  auto part = [&](Value v, unsigned k, bool s) -> Value {
    Value x = v;
    if (lane < 32)
      x = LLVM::TruncOp::create(
          b, loc, b.getIntegerType(lane),
          LLVM::LShrOp::create(b, loc, v, constInt(b, loc, i32, lane * k)));
    return s ? Value(LLVM::SExtOp::create(b, loc, i64, x))
             : Value(LLVM::ZExtOp::create(b, loc, i64, x));
  };
  auto clampTo = [&](Value t) -> Value {
    llvm::APInt lo =
        sd ? llvm::APInt::getSignedMinValue(lane) : llvm::APInt::getZero(lane);
    llvm::APInt hi = sd ? llvm::APInt::getSignedMaxValue(lane)
                        : llvm::APInt::getMaxValue(lane);
    t = LLVM::SMaxOp::create(b, loc, t,
                             constInt(b, loc, i64, lo.getSExtValue()));
    // An unsigned word result is only clamped at 0; above it wraps
    // (measured: vadd.u32.u32.u32.sat of 2 and 0xffffffff gives 1).
    if (!sd && lane == 32)
      return t;
    return LLVM::SMinOp::create(
        b, loc, t,
        constInt(b, loc, i64,
                 sd ? hi.getSExtValue() : int64_t(hi.getZExtValue())));
  };
  SmallVector<Value> lanes;
  for (unsigned k = 0; k < 32 / lane; ++k) {
    bool shift = vop == "vshl" || vop == "vshr";
    Value ta = part(a, k, sa), tb = part(bv, k, shift ? false : sb);
    Value t;
    if (shift) {
      tb = hasFlag(mods, Flag::wrap)
               ? Value(
                     LLVM::AndOp::create(b, loc, tb, constInt(b, loc, i64, 31)))
               : Value(LLVM::UMinOp::create(b, loc, tb,
                                            constInt(b, loc, i64, 32)));
      t = vop == "vshl" ? Value(LLVM::ShlOp::create(b, loc, ta, tb))
                        : Value(LLVM::AShrOp::create(b, loc, ta, tb));
    } else if (vop == "vadd") {
      t = LLVM::AddOp::create(b, loc, ta, tb);
    } else if (vop == "vsub") {
      t = LLVM::SubOp::create(b, loc, ta, tb);
    } else if (vop == "vabsdiff") {
      Value d = LLVM::SubOp::create(b, loc, ta, tb);
      Value n = LLVM::SubOp::create(b, loc, constInt(b, loc, i64, 0), d);
      t = LLVM::SMaxOp::create(b, loc, d, n);
    } else if (vop == "vmin") {
      t = LLVM::SMinOp::create(b, loc, ta, tb);
    } else {
      t = LLVM::SMaxOp::create(b, loc, ta, tb);
    }
    lanes.push_back(sat ? clampTo(t) : t);
  }
  Value c = args.size() > 2 ? castTo(b, loc, args[2], i32) : Value();
  Value r;
  if (lane == 32) {
    r = lanes[0];
    if (op2)
      r = LLVM::AddOp::create(b, loc, r, LLVM::SExtOp::create(b, loc, i64, c));
    r = LLVM::TruncOp::create(b, loc, i32, r);
  } else if (op2) {
    // SIMD .add: c plus the sum of the lanes.
    r = c;
    for (Value v : lanes)
      r = LLVM::AddOp::create(b, loc, r, LLVM::TruncOp::create(b, loc, i32, v));
  } else {
    // Every lane written (the default mask): the lanes side by side.
    r = constInt(b, loc, i32, 0);
    for (auto [k, v] : llvm::enumerate(lanes)) {
      Value x =
          LLVM::AndOp::create(b, loc, LLVM::TruncOp::create(b, loc, i32, v),
                              constInt(b, loc, i32, (1ll << lane) - 1));
      r = LLVM::OrOp::create(
          b, loc, r,
          LLVM::ShlOp::create(b, loc, x, constInt(b, loc, i32, lane * k)));
    }
  }
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBfe(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: pos = b & 0xff, len = c & 0xff; bit i of d is a[pos + i] for
  // i < len and pos + i <= msb, else the sign bit a[min(pos + len - 1, msb)]
  // (signed types, len != 0) or 0.
  Location loc = op.getLoc();
  TypeKind kind = *mods.getType();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t);
  Value pos = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[1], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value len = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[2], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value wv = constInt(b, loc, t, w);
  Value posC = LLVM::UMinOp::create(b, loc, pos, wv);
  Value avail = LLVM::SubOp::create(b, loc, wv, posC);
  Value count = LLVM::UMinOp::create(b, loc, len, avail);
  Value mask = lowMask(b, loc, t, count);
  Value field = LLVM::AndOp::create(b, loc, lshrOrZero(b, loc, a, pos), mask);
  if (!isSignedIntType(kind))
    return one(castTo(b, loc, field, op->getResult(0).getType()));
  Value one1 = constInt(b, loc, t, 1);
  Value top =
      LLVM::SubOp::create(b, loc, LLVM::AddOp::create(b, loc, pos, len), one1);
  Value topC = LLVM::UMinOp::create(b, loc, top, constInt(b, loc, t, w - 1));
  Value sbitV =
      LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, a, topC), one1);
  Value lenZero = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, len,
                                       constInt(b, loc, t, 0));
  Value sbit =
      LLVM::SelectOp::create(b, loc, lenZero, constInt(b, loc, t, 0), sbitV);
  Value fill =
      LLVM::SubOp::create(b, loc, constInt(b, loc, t, 0), sbit); // 0 or ~0
  Value notMask = LLVM::XOrOp::create(b, loc, mask, constInt(b, loc, t, -1));
  Value d = LLVM::OrOp::create(b, loc, field,
                               LLVM::AndOp::create(b, loc, fill, notMask));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBfi(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: pos = c & 0xff, len = d & 0xff; f = b with bits pos + i
  // (i < len, pos + i <= msb) taken from a[i].
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  unsigned w = bitWidth(t);
  Value a = castTo(b, loc, args[0], t), base = castTo(b, loc, args[1], t);
  Value pos = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[2], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value len = castTo(
      b, loc,
      LLVM::AndOp::create(b, loc, castTo(b, loc, args[3], b.getI32Type()),
                          constInt(b, loc, b.getI32Type(), 0xff)),
      t);
  Value wv = constInt(b, loc, t, w);
  Value count = LLVM::UMinOp::create(
      b, loc, len,
      LLVM::SubOp::create(b, loc, wv, LLVM::UMinOp::create(b, loc, pos, wv)));
  Value mask = shlOrZero(b, loc, lowMask(b, loc, t, count), pos);
  Value notMask = LLVM::XOrOp::create(b, loc, mask, constInt(b, loc, t, -1));
  Value ins = LLVM::AndOp::create(b, loc, shlOrZero(b, loc, a, pos), mask);
  Value f = LLVM::OrOp::create(b, loc,
                               LLVM::AndOp::create(b, loc, base, notMask), ins);
  return one(castTo(b, loc, f, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerBmsk(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: a mask of b bits starting at bit a; .clamp treats a >= 32 or
  // b >= 32 as overflowing, .wrap takes both mod 32.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type();
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  bool clamp = hasFlag(mods, Flag::clamp);
  Value c31 = constInt(b, loc, i32, 31), c32 = constInt(b, loc, i32, 32);
  Value ones = constInt(b, loc, i32, -1), zero = constInt(b, loc, i32, 0);
  Value a1 = LLVM::AndOp::create(b, loc, a, c31);
  Value b1 = LLVM::AndOp::create(b, loc, bv, c31);
  Value mask0 = LLVM::ShlOp::create(b, loc, ones, a1);
  Value sum = LLVM::AddOp::create(b, loc, a1, b1);
  Value overflow =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, sum, c32);
  if (clamp) {
    Value posOver =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, a, c32);
    Value widthOver =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, bv, c32);
    mask0 = LLVM::SelectOp::create(b, loc, posOver, zero, mask0);
    overflow = LLVM::OrOp::create(
        b, loc, overflow, LLVM::OrOp::create(b, loc, posOver, widthOver));
  }
  Value mask1 =
      LLVM::ShlOp::create(b, loc, ones, LLVM::AndOp::create(b, loc, sum, c31));
  Value b1Zero =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, b1, zero);
  mask1 = LLVM::SelectOp::create(b, loc, b1Zero, ones, mask1);
  mask1 = LLVM::SelectOp::create(b, loc, overflow, zero, mask1);
  Value d = LLVM::AndOp::create(b, loc, mask0,
                                LLVM::XOrOp::create(b, loc, mask1, ones));
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerPrmt(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  // PTX ISA: the bytes {b, a} numbered 7..0; each result byte takes the
  // byte its selector names. Default mode: a 4-bit selector per byte from
  // c, whose bit 3 replicates the byte's sign; other modes: c[1:0] picks a
  // fixed pattern.
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value a = castTo(b, loc, args[0], i32), bv = castTo(b, loc, args[1], i32);
  Value c = castTo(b, loc, args[2], i32);
  Value src = LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i64, a),
      LLVM::ShlOp::create(b, loc, LLVM::ZExtOp::create(b, loc, i64, bv),
                          constInt(b, loc, i64, 32)));
  // Selector nibbles (byte 3 .. byte 0) of each mode for c[1:0] = 0..3.
  static const uint16_t kPatterns[][4] = {
      /*f4e*/ {0x3210, 0x4321, 0x5432, 0x6543},
      /*b4e*/ {0x5670, 0x6701, 0x7012, 0x0123},
      /*rc8*/ {0x0000, 0x1111, 0x2222, 0x3333},
      /*ecl*/ {0x3210, 0x3211, 0x3222, 0x3333},
      /*ecr*/ {0x0000, 0x1110, 0x2210, 0x3210},
      /*rc16*/ {0x1010, 0x3232, 0x1010, 0x3232}};
  std::optional<Mode> mode = mods.getMode();
  Value sel = c;
  bool replicate = !mode;
  if (mode) {
    int row;
    switch (*mode) {
    case Mode::f4e:
      row = 0;
      break;
    case Mode::b4e:
      row = 1;
      break;
    case Mode::rc8:
      row = 2;
      break;
    case Mode::ecl:
      row = 3;
      break;
    case Mode::ecr:
      row = 4;
      break;
    default:
      row = 5;
      break; // rc16
    }
    Value idx = LLVM::AndOp::create(b, loc, c, constInt(b, loc, i32, 3));
    sel = constInt(b, loc, i32, kPatterns[row][0]);
    for (int k = 1; k < 4; ++k) {
      Value is = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, idx,
                                      constInt(b, loc, i32, k));
      sel = LLVM::SelectOp::create(
          b, loc, is, constInt(b, loc, i32, kPatterns[row][k]), sel);
    }
  }
  Value d = constInt(b, loc, i32, 0);
  for (int i = 0; i < 4; ++i) {
    Value nib = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, sel, constInt(b, loc, i32, 4 * i)),
        constInt(b, loc, i32, 0xf));
    Value idx = LLVM::AndOp::create(b, loc, nib, constInt(b, loc, i32, 7));
    Value shift = LLVM::ZExtOp::create(
        b, loc, i64,
        LLVM::ShlOp::create(b, loc, idx, constInt(b, loc, i32, 3)));
    Value byte = LLVM::AndOp::create(
        b, loc,
        LLVM::TruncOp::create(b, loc, i32,
                              LLVM::LShrOp::create(b, loc, src, shift)),
        constInt(b, loc, i32, 0xff));
    if (replicate) {
      Value rep = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, nib, constInt(b, loc, i32, 8)),
          constInt(b, loc, i32, 0));
      Value neg = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, byte, constInt(b, loc, i32, 0x80)),
          constInt(b, loc, i32, 0));
      Value fill = LLVM::SelectOp::create(
          b, loc, neg, constInt(b, loc, i32, 0xff), constInt(b, loc, i32, 0));
      byte = LLVM::SelectOp::create(b, loc, rep, fill, byte);
    }
    d = LLVM::OrOp::create(
        b, loc, d,
        LLVM::ShlOp::create(b, loc, byte, constInt(b, loc, i32, 8 * i)));
  }
  return one(castTo(b, loc, d, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerCpAsync(OpTy op, ValueRange args, ModifiersAttr mods,
                     ConversionPatternRewriter &b, const Lowering &l) {
  // cp.async as a synchronous copy: the thread's own later reads see it at
  // once, and other threads need a barrier after wait_group anyway. With a
  // source size below the copy size the rest is zero-filled.
  Location loc = op.getLoc();
  Attribute sizeAttr;
  matchPattern(op->getOperand(2), m_Constant(&sizeAttr));
  int64_t size = cast<IntegerAttr>(sizeAttr).getInt();
  Value dst = l.pointer(b, loc, args[0], StateSpace::shared);
  Value src = l.pointer(b, loc, args[1], StateSpace::global);
  bool hint = hasFlag(mods, Flag::L2_cache_hint);
  bool hasSrcSize = args.size() - (hint ? 1 : 0) >= 4;
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  if (!hasSrcSize) {
    LLVM::MemcpyOp::create(b, loc, dst, src, constInt(b, loc, i32, size),
                           false);
    return SmallVector<Value>{};
  }
  Value srcSize = castTo(b, loc, args[3], i32);
  for (int64_t i = 0; i < size; ++i) {
    Value inRange = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt,
                                         constInt(b, loc, i32, i), srcSize);
    Value sp =
        LLVM::GEPOp::create(b, loc, src.getType(), i8, src,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value dp =
        LLVM::GEPOp::create(b, loc, dst.getType(), i8, dst,
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    // Only bytes inside the source are read.
    Value safe = LLVM::SelectOp::create(b, loc, inRange, sp, src);
    Value v = LLVM::LoadOp::create(b, loc, i8, safe, 1);
    Value byte =
        LLVM::SelectOp::create(b, loc, inRange, v, constInt(b, loc, i8, 0));
    LLVM::StoreOp::create(b, loc, byte, dp, 1);
  }
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerNothing(OpTy, ValueRange, ModifiersAttr,
                     ConversionPatternRewriter &, const Lowering &) {
  return SmallVector<Value>{};
}

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
Results lowerGriddepcontrol(OpTy op, ValueRange, ModifiersAttr mods,
                            ConversionPatternRewriter &b, const Lowering &l) {
  l.target.createGridDependencyControl(b, op.getLoc(),
                                       *griddepMode(mods) == "wait");
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerNanosleep(OpTy op, ValueRange, ModifiersAttr,
                       ConversionPatternRewriter &b, const Lowering &l) {
  l.target.createSleep(b, op.getLoc());
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerSelp(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  Type t = instType(op, mods);
  Value r = LLVM::SelectOp::create(
      b, loc, castTo(b, loc, args[2], b.getI1Type()),
      castTo(b, loc, args[0], t), castTo(b, loc, args[1], t));
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

template <typename OpTy>
Results lowerMov(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  // Pack `{a, b}` into one register, unpack one into `{a, b}`, or move.
  if (args.size() == 1 && op->getNumResults() == 1)
    return one(castTo(b, loc, args[0], op->getResult(0).getType()));
  if (op->getNumResults() == 1) {
    Type rt = op->getResult(0).getType();
    unsigned total = bitWidth(rt), part = total / args.size();
    Type it = b.getIntegerType(total);
    Value acc = constInt(b, loc, it, 0);
    for (auto [i, a] : llvm::enumerate(args)) {
      Value bits =
          castTo(b, loc, castTo(b, loc, a, b.getIntegerType(part)), it);
      Value sh =
          LLVM::ShlOp::create(b, loc, bits, constInt(b, loc, it, i * part));
      acc = LLVM::OrOp::create(b, loc, acc, sh);
    }
    return one(castTo(b, loc, acc, rt));
  }
  Value src = args[0];
  unsigned total = bitWidth(src.getType());
  unsigned part = total / op->getNumResults();
  Type it = b.getIntegerType(total);
  Value bits = castTo(b, loc, src, it);
  SmallVector<Value> results;
  for (unsigned i = 0; i < op->getNumResults(); ++i) {
    Value sh =
        LLVM::LShrOp::create(b, loc, bits, constInt(b, loc, it, i * part));
    Value p = LLVM::TruncOp::create(b, loc, b.getIntegerType(part), sh);
    results.push_back(castTo(b, loc, p, op->getResult(i).getType()));
  }
  return results;
}

/// cvt.sat between integers: `x` (signed if `fromSigned`) clamped to the
/// range of a `toWidth`-bit integer (signed if `toSigned`), in x's type.
Value clampToIntType(OpBuilder &b, Location loc, Value x, bool fromSigned,
                     unsigned toWidth, bool toSigned) {
  Type t = x.getType();
  unsigned w = bitWidth(t);
  llvm::APInt hi = toSigned ? llvm::APInt::getSignedMaxValue(toWidth)
                            : llvm::APInt::getMaxValue(toWidth);
  // Bounds outside x's range clamp nothing.
  if (hi.getActiveBits() < w) {
    Value h = LLVM::ConstantOp::create(b, loc, t,
                                       b.getIntegerAttr(t, hi.zextOrTrunc(w)));
    x = fromSigned ? Value(LLVM::SMinOp::create(b, loc, x, h))
                   : Value(LLVM::UMinOp::create(b, loc, x, h));
  }
  if (fromSigned) {
    llvm::APInt lo = toSigned ? llvm::APInt::getSignedMinValue(toWidth)
                              : llvm::APInt::getZero(toWidth);
    if (lo.getSignificantBits() <= w)
      x = LLVM::SMaxOp::create(
          b, loc, x,
          LLVM::ConstantOp::create(b, loc, t,
                                   b.getIntegerAttr(t, lo.sextOrTrunc(w))));
  }
  return x;
}

/// FP8 formats (OCP): e4m3 (bias 7, no infinities, S.1111.111 is NaN, max
/// 448) and e5m2 (bias 15, IEEE-like, max 57344).
struct Fp8Format {
  unsigned mantBits, bias;
  unsigned maxExpField; ///< the largest exponent field of finite values
  uint32_t maxCode;     ///< the largest finite magnitude's code
  uint32_t nanCode;
};
constexpr Fp8Format e4m3Format{3, 7, 15, 0x7e, 0x7f};
constexpr Fp8Format e5m2Format{2, 15, 30, 0x7b, 0x7f};

/// One f32 to an FP8 code (i32 holding the byte), rounding to nearest even
/// and saturating to the largest finite value (.satfinite, infinities too);
/// NaN gives the format's positive NaN (0x7f), as NVIDIA does.
Value f32ToFp8(OpBuilder &b, Location loc, Value x, const Fp8Format &f) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  Value bits = castTo(b, loc, x, i32);
  Value sign = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, bits, c(24)), c(0x80));
  Value mag = LLVM::AndOp::create(b, loc, bits, c(0x7fffffff));
  // Normal codes: the f32 bits rebased to the FP8 exponent, rounded to
  // nearest even at the FP8 mantissa (a carry moves into the exponent).
  unsigned shift = 23 - f.mantBits;
  Value rebased =
      LLVM::SubOp::create(b, loc, mag, c(int64_t(127 - f.bias) << 23));
  Value half = c(int64_t(1) << (shift - 1));
  Value odd = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, rebased, c(shift)), c(1));
  Value rounded = LLVM::AddOp::create(
      b, loc, rebased,
      LLVM::SubOp::create(b, loc, LLVM::AddOp::create(b, loc, half, odd),
                          c(1)));
  Value normal = LLVM::LShrOp::create(b, loc, rounded, c(shift));
  // Subnormal codes (below the smallest normal): the magnitude in units of
  // the smallest subnormal, rounded to nearest even (exact in f32).
  double unit = std::ldexp(1.0, int(f.bias) - 1 + int(f.mantBits));
  Value scaled = LLVM::FMulOp::create(b, loc, castTo(b, loc, mag, f32),
                                      constFloat(b, loc, f32, unit));
  Value sub = LLVM::FPToUIOp::create(b, loc, i32,
                                     LLVM::RoundEvenOp::create(b, loc, scaled));
  Value minNormal = c(int64_t(128 - f.bias) << 23); // 2^(1-bias) as f32 bits
  Value isSub =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, mag, minNormal);
  Value code = LLVM::SelectOp::create(b, loc, isSub, sub, normal);
  // Too large (rounding past the largest finite, or beyond the format's
  // exponents, or infinite): the largest finite value.
  Value maxF32 = c(0x7f800000);
  Value huge = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::uge, mag,
      c(int64_t(f.maxExpField - f.bias + 1 + 127) << 23)); // past every code
  Value big =
      LLVM::OrOp::create(b, loc, huge,
                         LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt,
                                              code, c(f.maxCode)));
  code = LLVM::SelectOp::create(b, loc, big, c(f.maxCode), code);
  Value isNaN =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, mag, maxF32);
  return LLVM::SelectOp::create(b, loc, isNaN, c(f.nanCode),
                                LLVM::OrOp::create(b, loc, code, sign));
}

/// One FP8 code (i32 holding the byte) to f16 bits (i32), exactly; any NaN
/// gives f16's canonical NaN 0x7fff (sign and payload dropped, as NVIDIA
/// does).
Value fp8ToF16(OpBuilder &b, Location loc, Value code, const Fp8Format &f) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  Value sign = LLVM::ShlOp::create(
      b, loc, LLVM::AndOp::create(b, loc, code, c(0x80)), c(8));
  Value mag = LLVM::AndOp::create(b, loc, code, c(0x7f));
  if (f.mantBits == 2) {
    // e5m2 is the upper byte of an f16 (infinities included); a NaN gives
    // the canonical one.
    Value isNaN =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt, mag, c(0x7c));
    return LLVM::SelectOp::create(
        b, loc, isNaN, c(0x7fff),
        LLVM::OrOp::create(b, loc, sign,
                           LLVM::ShlOp::create(b, loc, mag, c(8))));
  }
  // e4m3: the value (mag as exponent|mantissa) times 2^(1-bias-mantBits)
  // for subnormals, or rebased bits for normals, through f32 (exact).
  Value expField = LLVM::LShrOp::create(b, loc, mag, c(f.mantBits));
  Value normalBits = LLVM::ShlOp::create(
      b, loc,
      LLVM::AddOp::create(b, loc, mag, c(int64_t(127 - f.bias) << f.mantBits)),
      c(23 - f.mantBits));
  double unit = std::ldexp(1.0, 1 - int(f.bias) - int(f.mantBits));
  Value subValue =
      LLVM::FMulOp::create(b, loc, LLVM::UIToFPOp::create(b, loc, f32, mag),
                           constFloat(b, loc, f32, unit));
  Value isSub =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, expField, c(0));
  Value value = LLVM::SelectOp::create(b, loc, isSub, subValue,
                                       castTo(b, loc, normalBits, f32));
  Value h =
      castTo(b, loc, LLVM::FPTruncOp::create(b, loc, b.getF16Type(), value),
             b.getIntegerType(16));
  Value bits = LLVM::ZExtOp::create(b, loc, i32, h);
  Value isNaN =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, mag, c(f.nanCode));
  bits = LLVM::SelectOp::create(b, loc, isNaN, c(0x7fff), bits);
  return LLVM::SelectOp::create(b, loc, isNaN, bits,
                                LLVM::OrOp::create(b, loc, bits, sign));
}

/// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper
/// byte, b to the lower), the same from one f16x2 (its upper half to the
/// upper byte; an f16 is exact in f32, so converting through f32 rounds
/// once), and cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (each byte to the
/// f16 half in the same place). `.relu`: negative values and -0 give +0,
/// NaN stays the canonical NaN.
Value lowerFp8Pair(OpBuilder &b, Location loc, TypeKind dk, TypeKind sk,
                   ValueRange args, bool relu) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  if (dk == TypeKind::e4m3x2 || dk == TypeKind::e5m2x2) {
    const Fp8Format &f = dk == TypeKind::e4m3x2 ? e4m3Format : e5m2Format;
    Value a, bv;
    if (sk == TypeKind::f16x2) {
      Value pair = castTo(b, loc, args[0], i32);
      auto half = [&](Value bits) {
        return LLVM::FPExtOp::create(
            b, loc, f32,
            LLVM::BitcastOp::create(
                b, loc, b.getF16Type(),
                LLVM::TruncOp::create(b, loc, b.getIntegerType(16), bits)));
      };
      a = half(LLVM::LShrOp::create(b, loc, pair, c(16)));
      bv = half(pair);
    } else {
      a = castTo(b, loc, args[0], f32);
      bv = castTo(b, loc, args[1], f32);
    }
    if (relu) {
      a = floatRelu(b, loc, a);
      bv = floatRelu(b, loc, bv);
    }
    Value hi = f32ToFp8(b, loc, a, f);
    Value lo = f32ToFp8(b, loc, bv, f);
    Value pair =
        LLVM::OrOp::create(b, loc, LLVM::ShlOp::create(b, loc, hi, c(8)), lo);
    return LLVM::TruncOp::create(b, loc, b.getIntegerType(16), pair);
  }
  const Fp8Format &f = sk == TypeKind::e4m3x2 ? e4m3Format : e5m2Format;
  Value pair = LLVM::ZExtOp::create(
      b, loc, i32, castTo(b, loc, args[0], b.getIntegerType(16)));
  auto code = [&](Value byte) -> Value {
    if (!relu)
      return byte;
    // A negative code (sign bit, not NaN) is +0. The largest magnitude
    // that is a number: e5m2's infinity, e4m3's largest finite value.
    int64_t lastNumber = f.mantBits == 2 ? f.maxCode + 1 : f.maxCode;
    Value negative = LLVM::AndOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, byte, c(0x80)),
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule,
                             LLVM::AndOp::create(b, loc, byte, c(0x7f)),
                             c(lastNumber)));
    return LLVM::SelectOp::create(b, loc, negative, c(0), byte);
  };
  Value lo =
      fp8ToF16(b, loc, code(LLVM::AndOp::create(b, loc, pair, c(0xff))), f);
  Value hi =
      fp8ToF16(b, loc, code(LLVM::LShrOp::create(b, loc, pair, c(8))), f);
  return LLVM::OrOp::create(b, loc, LLVM::ShlOp::create(b, loc, hi, c(16)), lo);
}

template <typename OpTy>
Results lowerCvt(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &) {
  Location loc = op.getLoc();
  TypeKind dk = *mods.getType(0), sk = *mods.getType(1);
  Type dt = semanticType(op.getContext(), dk),
       st = semanticType(op.getContext(), sk);
  bool ftz = hasFlag(mods, Flag::ftz);
  if (sk == TypeKind::e4m3x2 || sk == TypeKind::e5m2x2 ||
      dk == TypeKind::e4m3x2 || dk == TypeKind::e5m2x2)
    return one(castTo(
        b, loc, lowerFp8Pair(b, loc, dk, sk, args, hasFlag(mods, Flag::relu)),
        op->getResult(0).getType()));
  if (auto vt = dyn_cast<VectorType>(dt)) {
    // cvt.rn.f16x2.f32 d, a, b: a to the upper half, b to the lower.
    Type et = vt.getElementType();
    Value hi = LLVM::FPTruncOp::create(b, loc, et, castTo(b, loc, args[0], st));
    Value lo = LLVM::FPTruncOp::create(b, loc, et, castTo(b, loc, args[1], st));
    if (hasFlag(mods, Flag::relu)) {
      hi = floatRelu(b, loc, hi);
      lo = floatRelu(b, loc, lo);
    }
    Type i16 = b.getIntegerType(16), i32 = b.getI32Type();
    Value h = LLVM::ZExtOp::create(b, loc, i32, castTo(b, loc, hi, i16));
    Value l = LLVM::ZExtOp::create(b, loc, i32, castTo(b, loc, lo, i16));
    Value packed = LLVM::OrOp::create(
        b, loc, LLVM::ShlOp::create(b, loc, h, constInt(b, loc, i32, 16)), l);
    return one(castTo(b, loc, packed, op->getResult(0).getType()));
  }
  if (dk == TypeKind::tf32) {
    // cvt.rna.tf32.f32: round the magnitude to 10 mantissa bits, ties away
    // from zero, as an f32 bit pattern; NaN and infinity are truncated
    // (NVIDIA turns 0x7fffffff into 0x7fffe000: measured).
    // cvt.rn.tf32.f32 (sm_90) rounds ties to even instead: 0xfff plus the
    // kept part's lowest bit; every NaN gives the canonical 0x7fffe000
    // (measured on the H200 over all 2^32 inputs).
    Type i32 = b.getI32Type();
    Value x = castTo(b, loc, args[0], i32);
    Value increment = constInt(b, loc, i32, 0x1000);
    if (mods.getRounding() == RoundingMode::rn)
      increment = LLVM::AddOp::create(
          b, loc, constInt(b, loc, i32, 0xfff),
          LLVM::AndOp::create(
              b, loc,
              LLVM::LShrOp::create(b, loc, x, constInt(b, loc, i32, 13)),
              constInt(b, loc, i32, 1)));
    Value rounded = LLVM::AndOp::create(
        b, loc, LLVM::AddOp::create(b, loc, x, increment),
        constInt(b, loc, i32, static_cast<int32_t>(0xffffe000u)));
    Value expAll = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::eq,
        LLVM::AndOp::create(b, loc, x, constInt(b, loc, i32, 0x7f800000)),
        constInt(b, loc, i32, 0x7f800000));
    Value truncated = LLVM::AndOp::create(
        b, loc, x, constInt(b, loc, i32, static_cast<int32_t>(0xffffe000u)));
    Value r = LLVM::SelectOp::create(b, loc, expAll, truncated, rounded);
    if (mods.getRounding() == RoundingMode::rn)
      r = LLVM::SelectOp::create(
          b, loc,
          LLVM::ICmpOp::create(
              b, loc, LLVM::ICmpPredicate::ugt,
              LLVM::AndOp::create(b, loc, x, constInt(b, loc, i32, INT32_MAX)),
              constInt(b, loc, i32, 0x7f800000)),
          constInt(b, loc, i32, 0x7fffe000), r);
    return one(castTo(b, loc, r, op->getResult(0).getType()));
  }
  Value x = castTo(b, loc, args[0], st, isSignedIntType(sk));
  // cvt's .ftz flushes f32 sources and results only: an f16 subnormal
  // converts to its f32 value (measured over all f16 inputs on the H200).
  if (st.isF32() && ftz)
    x = flushDenormal(b, loc, x);
  Value r;
  std::optional<RoundingMode> rnd = mods.getRounding();
  if (isFloatType(sk) && isFloatType(dk)) {
    if (bitWidth(dt) > bitWidth(st))
      r = LLVM::FPExtOp::create(b, loc, dt, x);
    else if (bitWidth(dt) < bitWidth(st))
      r = directedMode(rnd)
              ? directedConvert(b, loc, x, false, dt, *directedMode(rnd))
              : Value(LLVM::FPTruncOp::create(b, loc, dt, x)); // nearest even
    else if (rnd == RoundingMode::rni)
      r = LLVM::RoundEvenOp::create(b, loc, x);
    else if (rnd == RoundingMode::rzi)
      r = LLVM::FTruncOp::create(b, loc, x);
    else if (rnd == RoundingMode::rmi)
      r = LLVM::FFloorOp::create(b, loc, x);
    else if (rnd == RoundingMode::rpi)
      r = LLVM::FCeilOp::create(b, loc, x);
    else
      r = x;
    if (ftz && dt.isF32())
      r = flushDenormal(b, loc, r);
  } else if (isFloatType(sk)) {
    // Float to integer rounds as asked and saturates; NaN gives 0.
    Value rounded = x;
    if (rnd == RoundingMode::rni)
      rounded = LLVM::RoundEvenOp::create(b, loc, x);
    else if (rnd == RoundingMode::rmi)
      rounded = LLVM::FFloorOp::create(b, loc, x);
    else if (rnd == RoundingMode::rpi)
      rounded = LLVM::FCeilOp::create(b, loc, x);
    bool s = isSignedIntType(dk);
    StringRef intr = s ? "llvm.fptosi.sat" : "llvm.fptoui.sat";
    r = LLVM::CallIntrinsicOp::create(b, loc, dt, b.getStringAttr(intr),
                                      ValueRange{rounded})
            .getResult(0);
  } else if (isFloatType(dk)) {
    // Integer to float: round to nearest even (the default .rn) or as asked.
    if (std::optional<Directed> d = directedMode(rnd))
      r = directedConvert(b, loc, x, isSignedIntType(sk), dt, *d);
    else
      r = isSignedIntType(sk) ? Value(LLVM::SIToFPOp::create(b, loc, dt, x))
                              : Value(LLVM::UIToFPOp::create(b, loc, dt, x));
  } else {
    unsigned dw = bitWidth(dt), sw = bitWidth(st);
    if (hasFlag(mods, Flag::sat))
      x = clampToIntType(b, loc, x, isSignedIntType(sk), dw,
                         isSignedIntType(dk));
    r = dw == sw              ? x
        : dw < sw             ? Value(LLVM::TruncOp::create(b, loc, dt, x))
        : isSignedIntType(sk) ? Value(LLVM::SExtOp::create(b, loc, dt, x))
                              : Value(LLVM::ZExtOp::create(b, loc, dt, x));
  }
  if (isFloatType(dk) && hasFlag(mods, Flag::sat))
    r = saturate(b, loc, r);
  if (isFloatType(dk) && hasFlag(mods, Flag::relu))
    r = floatRelu(b, loc, r);
  return one(
      castTo(b, loc, r, op->getResult(0).getType(), isSignedIntType(dk)));
}

template <typename OpTy>
Results lowerCvta(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  StateSpace space = *mods.getSpace();
  bool toSpace = hasFlag(mods, Flag::to);
  MLIRContext *ctx = op.getContext();
  Value p =
      l.pointer(b, loc, args[0],
                toSpace ? std::nullopt : std::optional<StateSpace>(space));
  Type to = LLVM::LLVMPointerType::get(
      ctx, toSpace ? l.target.getAddressSpace(space) : 0);
  Value q = castTo(b, loc, p, to);
  return one(castTo(b, loc, q, op->getResult(0).getType()));
}

LLVM::AtomicOrdering ordering(std::optional<MemSemantics> sem,
                              LLVM::AtomicOrdering dflt) {
  if (!sem)
    return dflt;
  switch (*sem) {
  case MemSemantics::relaxed:
    return LLVM::AtomicOrdering::monotonic;
  case MemSemantics::acquire:
    return LLVM::AtomicOrdering::acquire;
  case MemSemantics::release:
    return LLVM::AtomicOrdering::release;
  case MemSemantics::acq_rel:
    return LLVM::AtomicOrdering::acq_rel;
  case MemSemantics::sc:
    return LLVM::AtomicOrdering::seq_cst;
  case MemSemantics::weak:
    return LLVM::AtomicOrdering::not_atomic;
  }
  return dflt;
}

/// A vector load (`stored` null) or store of `bits` bits with memory-model
/// ordering `ord`, as one access: an atomic integer access up to 64 bits; a
/// volatile 128-bit access between fences above (LLVM has no 128-bit atomic
/// loads on these targets; both emit one 16-byte instruction, aligned as PTX
/// requires vectors to be). Returns the loaded integer.
Value vectorAccess(OpBuilder &b, Location loc, const Lowering &l, Value ptr,
                   unsigned bits, LLVM::AtomicOrdering ord,
                   std::optional<MemScope> scope, Value stored) {
  StringRef syncScope = l.target.getSyncScope(scope.value_or(MemScope::gpu));
  Type wt = b.getIntegerType(bits);
  unsigned align = bits / 8;
  if (bits <= 64) {
    if (stored) {
      auto st = LLVM::StoreOp::create(b, loc, stored, ptr, align);
      st.setOrdering(ord);
      st.setSyncscope(syncScope);
      return Value();
    }
    auto ld = LLVM::LoadOp::create(b, loc, wt, ptr, align);
    ld.setOrdering(ord);
    ld.setSyncscope(syncScope);
    return ld;
  }
  using AO = LLVM::AtomicOrdering;
  bool releases =
      ord == AO::release || ord == AO::acq_rel || ord == AO::seq_cst;
  bool acquires =
      ord == AO::acquire || ord == AO::acq_rel || ord == AO::seq_cst;
  if (stored ? releases : ord == AO::seq_cst)
    LLVM::FenceOp::create(b, loc, stored ? AO::release : AO::seq_cst,
                          syncScope);
  // As <4 x i32>: a volatile i128 would be split into two 64-bit accesses.
  Type vt = VectorType::get({static_cast<int64_t>(bits / 32)}, b.getI32Type());
  Value result;
  if (stored)
    LLVM::StoreOp::create(b, loc, LLVM::BitcastOp::create(b, loc, vt, stored),
                          ptr, align, /*isVolatile=*/true);
  else
    result = LLVM::BitcastOp::create(
        b, loc, wt,
        LLVM::LoadOp::create(b, loc, vt, ptr, align, /*isVolatile=*/true));
  if (stored ? ord == AO::seq_cst : acquires)
    LLVM::FenceOp::create(b, loc, stored ? AO::seq_cst : AO::acquire,
                          syncScope);
  return result;
}

template <typename OpTy>
Results lowerLd(OpTy op, ValueRange args, ModifiersAttr mods,
                ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  if (space == StateSpace::param)
    space.reset(); // reached through flat pointers
  Value ptr = l.pointer(b, loc, args[0], space);
  TypeKind kind = *mods.getType();
  Type t = semanticType(op.getContext(), kind);
  unsigned n = std::max(1u, mods.getVec());
  bool isVolatile = hasFlag(mods, Flag::volatile_);
  SmallVector<Value> results;
  unsigned bytes = std::max(1u, bitWidth(t) / 8);
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::not_atomic);
  if (n > 1 && ord != LLVM::AtomicOrdering::not_atomic) {
    // A vector with memory-model semantics is one access: CUB's look-back
    // reads a tile's status and value with one ld.relaxed.gpu.v2.u32 and
    // relies on both coming from the same store (split, the scan tore).
    unsigned w = bitWidth(t);
    Value whole = vectorAccess(b, loc, l, ptr, n * w, ord, mods.getScope(),
                               /*stored=*/Value());
    Type it = b.getIntegerType(w);
    for (unsigned i = 0; i < n; ++i) {
      Value e = LLVM::LShrOp::create(
          b, loc, whole,
          constInt(b, loc, whole.getType(), static_cast<int64_t>(i * w)));
      e = castTo(b, loc, LLVM::TruncOp::create(b, loc, it, e), t);
      results.push_back(
          castTo(b, loc, e, op->getResult(i).getType(), isSignedIntType(kind)));
    }
    return results;
  }
  for (unsigned i = 0; i < n; ++i) {
    Value p = ptr;
    if (i)
      p = LLVM::GEPOp::create(b, loc, ptr.getType(), t, ptr,
                              ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    auto ld = LLVM::LoadOp::create(b, loc, t, p, bytes * (i == 0 ? n : 1),
                                   isVolatile);
    if (ord != LLVM::AtomicOrdering::not_atomic) {
      ld.setOrdering(ord);
      ld.setSyncscope(
          l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu)));
    }
    results.push_back(
        castTo(b, loc, ld, op->getResult(i).getType(), isSignedIntType(kind)));
  }
  return results;
}

template <typename OpTy>
Results lowerSt(OpTy op, ValueRange args, ModifiersAttr mods,
                ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  if (space == StateSpace::param)
    space.reset();
  Value ptr = l.pointer(b, loc, args[0], space);
  Type t = semanticType(op.getContext(), *mods.getType());
  bool isVolatile = hasFlag(mods, Flag::volatile_);
  unsigned bytes = std::max(1u, bitWidth(t) / 8);
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::not_atomic);
  unsigned n = args.size() - 1;
  if (n > 1 && ord != LLVM::AtomicOrdering::not_atomic) {
    // One access for the whole vector (see lowerLd).
    unsigned w = bitWidth(t);
    Type wt = b.getIntegerType(n * w), it = b.getIntegerType(w);
    Value whole = constInt(b, loc, wt, 0);
    for (unsigned i = 0; i < n; ++i) {
      Value e = castTo(b, loc, castTo(b, loc, args[i + 1], t), it);
      e = LLVM::ZExtOp::create(b, loc, wt, e);
      e = LLVM::ShlOp::create(
          b, loc, e, constInt(b, loc, wt, static_cast<int64_t>(i * w)));
      whole = LLVM::OrOp::create(b, loc, whole, e);
    }
    vectorAccess(b, loc, l, ptr, n * w, ord, mods.getScope(), whole);
    return SmallVector<Value>{};
  }
  for (unsigned i = 1; i < args.size(); ++i) {
    Value p = ptr;
    if (i > 1)
      p = LLVM::GEPOp::create(
          b, loc, ptr.getType(), t, ptr,
          ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i - 1)});
    auto st = LLVM::StoreOp::create(b, loc, castTo(b, loc, args[i], t), p,
                                    i == 1 ? bytes * (args.size() - 1) : bytes,
                                    isVolatile);
    if (ord != LLVM::AtomicOrdering::not_atomic) {
      st.setOrdering(ord);
      st.setSyncscope(
          l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu)));
    }
  }
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerAtom(OpTy op, ValueRange args, ModifiersAttr mods,
                  ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  std::optional<StateSpace> space = mods.getSpace();
  Value ptr = l.pointer(b, loc, args[0], space);
  TypeKind kind = *mods.getType();
  Type t = semanticType(op.getContext(), kind);
  // PTX atomics without .sem are .relaxed; the default scope is .gpu.
  LLVM::AtomicOrdering ord =
      ordering(mods.getSem(), LLVM::AtomicOrdering::monotonic);
  StringRef scope =
      l.target.getSyncScope(mods.getScope().value_or(MemScope::gpu));
  ReduceOp redOp = *mods.getRedOp();
  if (unsigned n = mods.getVec(); n > 1) {
    // atom/red.global.add.v2/.v4/.v8: each element is an atomic add of its
    // own (the PTX ISA makes each element atomic, not the vector).
    using B = LLVM::AtomicBinOp;
    B bin = isFloatType(kind) ? B::fadd : B::add;
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
      Value p = ptr;
      if (i)
        p = LLVM::GEPOp::create(
            b, loc, ptr.getType(), t, ptr,
            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
      Value r = LLVM::AtomicRMWOp::create(
          b, loc, bin, p, castTo(b, loc, args[1 + i], t), ord, scope);
      if (op->getNumResults())
        results.push_back(castTo(b, loc, r, op->getResult(i).getType()));
    }
    return results;
  }
  Value val = castTo(b, loc, args[1], t);
  Value r;
  if (redOp == ReduceOp::cas) {
    Value nv = castTo(b, loc, args[2], t);
    LLVM::AtomicOrdering failOrd = ord == LLVM::AtomicOrdering::acq_rel ||
                                           ord == LLVM::AtomicOrdering::release
                                       ? (ord == LLVM::AtomicOrdering::acq_rel
                                              ? LLVM::AtomicOrdering::acquire
                                              : LLVM::AtomicOrdering::monotonic)
                                       : ord;
    auto cx = LLVM::AtomicCmpXchgOp::create(b, loc, ptr, val, nv, ord, failOrd,
                                            scope);
    r = LLVM::ExtractValueOp::create(b, loc, cx, 0);
  } else {
    using B = LLVM::AtomicBinOp;
    bool isF = isFloatType(kind), s = isSignedIntType(kind);
    B bin;
    switch (redOp) {
    case ReduceOp::add:
      bin = isF ? B::fadd : B::add;
      break;
    case ReduceOp::exch:
      bin = B::xchg;
      break;
    case ReduceOp::and_:
      bin = B::_and;
      break;
    case ReduceOp::or_:
      bin = B::_or;
      break;
    case ReduceOp::xor_:
      bin = B::_xor;
      break;
    case ReduceOp::min:
      bin = isF ? B::fmin : s ? B::min : B::umin;
      break;
    case ReduceOp::max:
      bin = isF ? B::fmax : s ? B::max : B::umax;
      break;
    // PTX inc: old >= b ? 0 : old + 1; dec: old == 0 || old > b ? b : old - 1.
    case ReduceOp::inc:
      bin = B::uinc_wrap;
      break;
    case ReduceOp::dec:
      bin = B::udec_wrap;
      break;
    default:
      return op.emitError("unsupported: atomic .") << stringifyReduceOp(redOp);
    }
    r = LLVM::AtomicRMWOp::create(b, loc, bin, ptr, val, ord, scope);
  }
  if (op->getNumResults() == 0)
    return SmallVector<Value>{};
  return one(castTo(b, loc, r, op->getResult(0).getType()));
}

/// Named barriers with a thread count (`bar.sync a, b`, `bar.arrive a, b`):
/// the sixteen barriers of a CTA are words in shared memory, the arrivals in
/// the low 16 bits and the phase in the high 16. A warp arrives as a whole
/// and counts for 32 threads, as the hardware counts it: its first active
/// lane moves the word with one compare-and-swap, adding 32, or, when that
/// completes the count, clearing the arrivals and advancing the phase; a
/// waiting warp's lane then spins until the phase moves on. Arrivals and
/// phase change in one atomic step, so a warp arriving for the next phase
/// before the current one is released is counted there. The words are
/// zeroed at the entry of each kernel of the module (zeroNamedBarriers).
constexpr StringLiteral namedBarrierWords = "__zluda_named_barriers";
constexpr StringLiteral namedBarrierFunction = "__zluda_named_barrier";
/// The words: [0, 16) the barriers; [16, 48) two `bar.red` accumulators a
/// barrier, chosen by the parity of its phase (accumulator(id, phase));
/// [48] a word the CAS loop zeroes when it does not complete the barrier.
constexpr int64_t namedBarrierWordCount = 49;

/// The LDS address of word `index` of the named barriers' words.
Value namedBarrierWord(OpBuilder &b, Location loc, LLVM::GEPArg index) {
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  return LLVM::GEPOp::create(
      b, loc, ptr3,
      LLVM::LLVMArrayType::get(b.getI32Type(), namedBarrierWordCount),
      LLVM::AddressOfOp::create(b, loc, ptr3, namedBarrierWords),
      ArrayRef<LLVM::GEPArg>{0, index});
}

/// The LDS word of `bar.red` with a thread count on barrier `id` in phase
/// `phase` (both i32; only the phase's parity counts).
Value namedBarrierAccumulator(OpBuilder &b, Location loc, Value id,
                              Value phase) {
  Type i32 = b.getI32Type();
  Value index = LLVM::AddOp::create(
      b, loc, constInt(b, loc, i32, 16),
      LLVM::AddOp::create(
          b, loc, LLVM::ShlOp::create(b, loc, id, constInt(b, loc, i32, 1)),
          LLVM::AndOp::create(b, loc, phase, constInt(b, loc, i32, 1))));
  return namedBarrierWord(b, loc, index);
}

/// void __zluda_named_barrier(i32 id, i32 count, i1 wait), defined once per
/// module, with its words. The warp that completes a phase P also zeroes
/// the barrier's accumulator of phase P + 1 (`bar.red` with a count adds
/// into P's before arriving and reads it after: every participant has read
/// P - 1's, the same word, once all have arrived at P).
void defineNamedBarrier(OpBuilder &b, ModuleOp module, Location loc,
                        const TargetInfo &target) {
  if (SymbolTable::lookupSymbolIn(module, namedBarrierFunction))
    return;
  OpBuilder::InsertionGuard guard(b);
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  Type words = LLVM::LLVMArrayType::get(i32, namedBarrierWordCount);
  b.setInsertionPointToStart(module.getBody());
  auto g = LLVM::GlobalOp::create(b, loc, words, false, LLVM::Linkage::Internal,
                                  namedBarrierWords, Attribute(), 4, 3);
  b.createBlock(&g.getInitializerRegion());
  LLVM::ReturnOp::create(b, loc, LLVM::PoisonOp::create(b, loc, words));

  b.setInsertionPointToEnd(module.getBody());
  auto fnType =
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {i32, i32, i1});
  auto fn = LLVM::LLVMFuncOp::create(b, loc, namedBarrierFunction, fnType,
                                     LLVM::Linkage::Internal);
  Region &body = fn.getBody();
  Block *entry =
      b.createBlock(&body, body.end(), {i32, i32, i1}, {loc, loc, loc});
  Block *cas = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *arrived = b.createBlock(&body, body.end(), {i1, i32}, {loc, loc});
  Block *spin = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *pause = b.createBlock(&body, body.end(), {i32}, {loc});
  Block *join = b.createBlock(&body, body.end());
  auto c = [&](int64_t v) { return constInt(b, loc, i32, v); };
  StringRef cta = target.getSyncScope(MemScope::cta);
  Value id = entry->getArgument(0), count = entry->getArgument(1),
        wait = entry->getArgument(2);

  // Every lane orders its accesses before the barrier; the warp converges;
  // its first active lane arrives for it.
  b.setInsertionPointToStart(entry);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, cta);
  Value active = target.createActiveMask(b, loc);
  target.createWarpBarrier(b, loc, active);
  Value lane = target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
  Value leader = LLVM::CountTrailingZerosOp::create(b, loc, i32, active, false);
  Value word = namedBarrierWord(b, loc, id);
  Value first =
      LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false, false,
                           LLVM::AtomicOrdering::monotonic, cta);
  Value isLeader =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, lane, leader);
  LLVM::CondBrOp::create(b, loc, isLeader, cas, ValueRange{first}, join,
                         ValueRange{});

  // One step: add 32 arrivals, or complete (arrivals 0, next phase).
  b.setInsertionPointToStart(cas);
  Value old = cas->getArgument(0);
  Value arrivals = LLVM::AddOp::create(
      b, loc, LLVM::AndOp::create(b, loc, old, c(0xffff)), c(32));
  Value completes =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, arrivals, count);
  Value phase = LLVM::AndOp::create(b, loc, old, c(int64_t(0xffff0000)));
  Value next = LLVM::SelectOp::create(
      b, loc, completes, LLVM::AddOp::create(b, loc, phase, c(0x10000)),
      LLVM::AddOp::create(b, loc, old, c(32)));
  Value spare =
      namedBarrierWord(b, loc, static_cast<int32_t>(namedBarrierWordCount - 1));
  Value nextAccumulator = namedBarrierAccumulator(
      b, loc, id, LLVM::LShrOp::create(b, loc, next, c(16)));
  LLVM::StoreOp::create(
      b, loc, c(0),
      LLVM::SelectOp::create(b, loc, completes, nextAccumulator, spare), 4,
      false, false, false, LLVM::AtomicOrdering::monotonic, cta);
  auto swap = LLVM::AtomicCmpXchgOp::create(
      b, loc, word, old, next, LLVM::AtomicOrdering::acq_rel,
      LLVM::AtomicOrdering::monotonic, cta);
  Value seen = LLVM::ExtractValueOp::create(b, loc, swap, 0);
  Value done = LLVM::ExtractValueOp::create(b, loc, swap, 1);
  LLVM::CondBrOp::create(b, loc, done, arrived, ValueRange{completes, phase},
                         cas, ValueRange{seen});

  // A waiting warp that did not complete the barrier waits for the phase.
  b.setInsertionPointToStart(arrived);
  Value mustWait =
      LLVM::AndOp::create(b, loc, wait,
                          LLVM::XOrOp::create(b, loc, arrived->getArgument(0),
                                              constInt(b, loc, i1, 1)));
  LLVM::CondBrOp::create(b, loc, mustWait, spin,
                         ValueRange{arrived->getArgument(1)}, join,
                         ValueRange{});
  b.setInsertionPointToStart(spin);
  Value now = LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false,
                                   false, LLVM::AtomicOrdering::acquire, cta);
  Value moved = LLVM::ICmpOp::create(
      b, loc, LLVM::ICmpPredicate::ne,
      LLVM::AndOp::create(b, loc, now, c(int64_t(0xffff0000))),
      spin->getArgument(0));
  LLVM::CondBrOp::create(b, loc, moved, join, ValueRange{}, pause,
                         ValueRange{spin->getArgument(0)});
  b.setInsertionPointToStart(pause);
  target.createSleep(b, loc);
  LLVM::BrOp::create(b, loc, ValueRange{pause->getArgument(0)}, spin);

  // The warp converges again and every lane sees what the others wrote.
  b.setInsertionPointToStart(join);
  target.createWarpBarrier(b, loc, active);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, cta);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// Zeroes the named barriers' words at the entry of each kernel (shared
/// memory starts undefined): every thread zeroes one word, chosen by its
/// linear thread index (a counted barrier needs 32 threads or more), then
/// the whole CTA synchronizes.
void zeroNamedBarriers(ModuleOp module, ArrayRef<StringRef> kernels,
                       const TargetInfo &target) {
  if (!SymbolTable::lookupSymbolIn(module, namedBarrierWords))
    return;
  OpBuilder b(module.getContext());
  Type i32 = b.getI32Type();
  for (StringRef name : kernels) {
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
    if (!fn || fn.getBody().empty())
      continue;
    b.setInsertionPointToStart(&fn.getBody().front());
    Location loc = fn.getLoc();
    Value index = LLVM::AndOp::create(b, loc, target.linearThreadIndex(b, loc),
                                      constInt(b, loc, i32, 15));
    // The barrier word `index` and its two accumulators' words.
    for (int64_t base : {0, 16, 32}) {
      Value word = namedBarrierWord(
          b, loc,
          LLVM::AddOp::create(b, loc, index, constInt(b, loc, i32, base))
              .getResult());
      LLVM::StoreOp::create(b, loc, constInt(b, loc, i32, 0), word, 4);
    }
    target.createBarrier(b, loc);
  }
}

/// The module's `bar.red` scratch in LDS: [0] the count, [1] a dummy that
/// the threads other than the first store to, so no branch is needed.
Value barrierReductionSlots(OpBuilder &b, Operation *op) {
  constexpr StringLiteral name = "__zluda_bar_red";
  MLIRContext *ctx = b.getContext();
  auto module = op->getParentOfType<ModuleOp>();
  Type type = LLVM::LLVMArrayType::get(b.getI32Type(), 2);
  Location loc = op->getLoc();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto g = LLVM::GlobalOp::create(
        b, loc, type, false, LLVM::Linkage::Internal, name, Attribute(), 4, 3);
    b.createBlock(&g.getInitializerRegion());
    LLVM::ReturnOp::create(b, loc,
                           LLVM::PoisonOp::create(b, loc, type).getResult());
  }
  return LLVM::AddressOfOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                                   name);
}

/// The result of `bar.red` from `total`, the number of threads whose
/// predicate (for .and: whose negation) held.
Value barrierReductionResult(OpBuilder &b, Location loc, ReduceOp red,
                             Value total, Type resultType) {
  if (red == ReduceOp::popc)
    return castTo(b, loc, total, resultType);
  // .or: some thread's predicate held; .and: no thread's negation held.
  return LLVM::ICmpOp::create(b, loc,
                              red == ReduceOp::and_ ? LLVM::ICmpPredicate::eq
                                                    : LLVM::ICmpPredicate::ne,
                              total, constInt(b, loc, b.getI32Type(), 0));
}

template <typename OpTy>
Results lowerBarRed(OpTy op, ValueRange args, ModifiersAttr mods,
                    ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Type i32 = b.getI32Type(), i1 = b.getI1Type();
  ReduceOp red = *mods.getRedOp();
  Value pred = castTo(b, loc, args.back(), i1);
  if (red == ReduceOp::and_)
    pred = LLVM::XOrOp::create(b, loc, pred, constInt(b, loc, i1, 1));
  Value inc = LLVM::ZExtOp::create(b, loc, i32, pred);
  if (args.size() == 3) {
    // With a thread count: on the named barrier `a`. Each thread adds into
    // the barrier's accumulator of the current phase (read before arriving:
    // it cannot move before every participant has arrived), then arrives and
    // waits, then reads the total; the warp that completes the phase zeroes
    // the next phase's accumulator (defineNamedBarrier).
    auto module = op->template getParentOfType<ModuleOp>();
    defineNamedBarrier(b, module, loc, l.target);
    StringRef cta = l.target.getSyncScope(MemScope::cta);
    Value id = LLVM::AndOp::create(b, loc, castTo(b, loc, args[0], i32),
                                   constInt(b, loc, i32, 15));
    Value word = namedBarrierWord(b, loc, id);
    Value phase = LLVM::LShrOp::create(
        b, loc,
        LLVM::LoadOp::create(b, loc, i32, word, 4, false, false, false, false,
                             LLVM::AtomicOrdering::monotonic, cta),
        constInt(b, loc, i32, 16));
    Value slot = namedBarrierAccumulator(b, loc, id, phase);
    LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, slot, inc,
                              LLVM::AtomicOrdering::monotonic, cta);
    LLVM::CallOp::create(
        b, loc, TypeRange{}, namedBarrierFunction,
        ValueRange{id, castTo(b, loc, args[1], i32), constInt(b, loc, i1, 1)});
    Value total =
        LLVM::LoadOp::create(b, loc, i32, slot, 4, false, false, false, false,
                             LLVM::AtomicOrdering::monotonic, cta);
    return one(
        barrierReductionResult(b, loc, red, total, op->getResult(0).getType()));
  }
  // Barrier; the first thread zeroes the count; barrier; every thread adds
  // its predicate (.and: its negation) with an LDS atomic; barrier; all
  // read the count. The next bar.red zeroes only after its first barrier,
  // which every thread reaches after its read.
  Value tid = constInt(b, loc, i32, 0);
  for (char dim : {'x', 'y', 'z'})
    tid = LLVM::OrOp::create(
        b, loc, tid, l.target.getSpecialRegister(b, loc, SReg::tid, dim, i32));
  Value first = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, tid,
                                     constInt(b, loc, i32, 0));
  Value slots = barrierReductionSlots(b, op);
  auto ptr3 = LLVM::LLVMPointerType::get(b.getContext(), 3);
  Type arrayType = LLVM::LLVMArrayType::get(i32, 2);
  Value index = LLVM::SelectOp::create(b, loc, first, constInt(b, loc, i32, 0),
                                       constInt(b, loc, i32, 1));
  Value resetSlot = LLVM::GEPOp::create(b, loc, ptr3, arrayType, slots,
                                        ArrayRef<LLVM::GEPArg>{0, index});
  Value count = LLVM::GEPOp::create(b, loc, ptr3, arrayType, slots,
                                    ArrayRef<LLVM::GEPArg>{0, 0});
  l.target.createBarrier(b, loc);
  LLVM::StoreOp::create(b, loc, constInt(b, loc, i32, 0), resetSlot, 4);
  l.target.createBarrier(b, loc);
  LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, count, inc,
                            LLVM::AtomicOrdering::monotonic,
                            l.target.getSyncScope(MemScope::cta));
  l.target.createBarrier(b, loc);
  Value total = LLVM::LoadOp::create(b, loc, i32, count, 4);
  return one(
      barrierReductionResult(b, loc, red, total, op->getResult(0).getType()));
}

/// `bar.sync a` / `barrier.sync a` (the whole CTA), or with a thread count
/// `b`, or `bar.arrive a, b` (`Arrive`), as a named barrier.
template <typename OpTy, bool Arrive = false>
Results lowerBarrier(OpTy op, ValueRange args, ModifiersAttr,
                     ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  if (args.size() == 1) {
    l.target.createBarrier(b, loc);
    return SmallVector<Value>{};
  }
  defineNamedBarrier(b, op->template getParentOfType<ModuleOp>(), loc,
                     l.target);
  Type i32 = b.getI32Type();
  Value id = LLVM::AndOp::create(b, loc, castTo(b, loc, args[0], i32),
                                 constInt(b, loc, i32, 15));
  LLVM::CallOp::create(
      b, loc, TypeRange{}, namedBarrierFunction,
      ValueRange{id, castTo(b, loc, args[1], i32),
                 constInt(b, loc, b.getI1Type(), Arrive ? 0 : 1)});
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerFence(OpTy op, ValueRange, ModifiersAttr mods,
                   ConversionPatternRewriter &b, const Lowering &l) {
  MemScope scope = mods.getScope().value_or(MemScope::gpu);
  if (auto extras = mods.getExtras())
    for (Attribute e : extras)
      if (cast<StringAttr>(e).getValue() == "gl")
        scope = MemScope::gpu;
  LLVM::AtomicOrdering ord = mods.getSem() == MemSemantics::acq_rel
                                 ? LLVM::AtomicOrdering::acq_rel
                                 : LLVM::AtomicOrdering::seq_cst;
  LLVM::FenceOp::create(b, op.getLoc(), ord, l.target.getSyncScope(scope));
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

/// The function behind `isspacep.const` (defineConstAddressTest).
constexpr StringLiteral constAddressTest = "__zluda_is_const_address";

/// `isspacep`: global, shared and local by the target's apertures
/// (TargetInfo::createIsSpace); `.const` by the module's own `.const`
/// variables, whose ranges a function tests once the module is lowered (a
/// generic address of constant data is a global one on both targets'
/// flat address maps, so no aperture tells it apart); `.param` by the
/// target (the kernel's parameter block).
template <typename OpTy>
Results lowerIsspacep(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  Value ptr = l.pointer(b, loc, args[0], std::nullopt);
  if (*mods.getSpace() != StateSpace::const_)
    return one(l.target.createIsSpace(b, loc, *mods.getSpace(), ptr));
  return one(callAddressTest(b, loc, constAddressTest, ptr));
}

/// Gives `__zluda_is_const_address(p)` its body, once the module's globals
/// are lowered: whether p lies in one of the `.const` variables (the only
/// globals in the target's constant address space).
void defineConstAddressTest(ModuleOp module, const TargetInfo &target) {
  auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(constAddressTest);
  if (!fn || !fn.getBody().empty())
    return;
  MLIRContext *ctx = module.getContext();
  OpBuilder b(ctx);
  Location loc = fn.getLoc();
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  auto flat = LLVM::LLVMPointerType::get(ctx, 0);
  unsigned constSpace = target.getAddressSpace(StateSpace::const_);
  Block *entry = b.createBlock(&fn.getBody(), {}, {flat}, {loc});
  Value p = LLVM::PtrToIntOp::create(b, loc, i64, entry->getArgument(0));
  Value inside = LLVM::ConstantOp::create(b, loc, i1, 0);
  DataLayout layout(module);
  for (auto g : module.getOps<LLVM::GlobalOp>()) {
    if (g.getAddrSpace() != constSpace)
      continue;
    uint64_t size = layout.getTypeSize(g.getGlobalType()).getFixedValue();
    if (!size)
      continue;
    Value base = LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, constSpace), g.getSymName());
    base = LLVM::PtrToIntOp::create(
        b, loc, i64, LLVM::AddrSpaceCastOp::create(b, loc, flat, base));
    Value within = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::ult, LLVM::SubOp::create(b, loc, p, base),
        constInt(b, loc, i64, static_cast<int64_t>(size)));
    inside = LLVM::OrOp::create(b, loc, inside, within);
  }
  LLVM::ReturnOp::create(b, loc, inside);
}

/// alloca.{u32,u64} d, size{, align}: `size` bytes of the thread's stack,
/// LLVM's dynamic alloca in the local address space, aligned to `align` (a
/// constant, at least the default 8); d is the .local address, which
/// cvta.local makes generic.
template <typename OpTy>
Results lowerAlloca(OpTy op, ValueRange args, ModifiersAttr,
                    ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  uint64_t align = 8;
  APInt requested;
  if (args.size() > 1 && matchPattern(args[1], m_ConstantInt(&requested)))
    align = std::max<uint64_t>(align, requested.getZExtValue());
  Value size = castTo(b, loc, args[0], b.getI64Type());
  Value p = createStackSlot(b, loc, l.target, b.getI8Type(), size,
                            static_cast<unsigned>(align));
  Type resultType = op->getResult(0).getType();
  return one(LLVM::PtrToIntOp::create(b, loc, resultType, p));
}

/// stacksave.{u32,u64} d / stackrestore.{u32,u64} a: the thread's stack
/// pointer (a .local address) before dynamic allocations, and back; in the
/// target's alloca address space, as createStackSlot's allocations.
template <typename OpTy>
Results lowerStackSave(OpTy op, ValueRange, ModifiersAttr,
                       ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned as = l.target.getAllocaAddressSpace();
  Value sp =
      LLVM::StackSaveOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, as));
  if (as != 5)
    sp = LLVM::AddrSpaceCastOp::create(b, loc,
                                       LLVM::LLVMPointerType::get(ctx, 5), sp);
  return one(LLVM::PtrToIntOp::create(b, loc, op->getResult(0).getType(), sp));
}

template <typename OpTy>
Results lowerStackRestore(OpTy op, ValueRange args, ModifiersAttr,
                          ConversionPatternRewriter &b, const Lowering &l) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  unsigned as = l.target.getAllocaAddressSpace();
  Value sp = LLVM::IntToPtrOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 5), args[0]);
  if (as != 5)
    sp = LLVM::AddrSpaceCastOp::create(b, loc,
                                       LLVM::LLVMPointerType::get(ctx, as), sp);
  LLVM::StackRestoreOp::create(b, loc, sp);
  return SmallVector<Value>{};
}

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
void addInst(RewritePatternSet &patterns, const TypeConverter &tc,
             const Lowering &l,
             Results (*fn)(OpTy, ValueRange, ModifiersAttr,
                           ConversionPatternRewriter &, const Lowering &)) {
  patterns.add<InstLowering<OpTy>>(tc, patterns.getContext(), l, fn);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertPTXToLLVMPass
    : zluda::ptx::impl::ConvertPTXToLLVMBase<ConvertPTXToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    std::unique_ptr<TargetInfo> target =
        createTargetInfo(targetName, chip, error);
    if (!target) {
      module.emitError(error);
      return signalPassFailure();
    }
    if (failed(checkSupported(module, targetName)))
      return signalPassFailure();
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    populatePTXToLLVMTypeConversion(converter, *target);
    RewritePatternSet patterns(ctx);
    populatePTXToLLVMPatterns(converter, patterns, *target);
    ConversionTarget legal(*ctx);
    legal.addLegalDialect<LLVM::LLVMDialect, ROCDL::ROCDLDialect,
                          NVVM::NVVMDialect>();
    legal.addIllegalDialect<PTXDialect>();
    legal.addLegalOp<ModuleOp>();
    SmallVector<StringRef> kernels;
    module.walk([&](EntryOp e) { kernels.push_back(e.getSymName()); });
    if (failed(applyPartialConversion(module, legal, std::move(patterns))))
      return signalPassFailure();
    zeroNamedBarriers(module, kernels, *target);
    defineConstAddressTest(module, *target);
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
                                           const TargetInfo &target) {
  MLIRContext *ctx = patterns.getContext();
  static thread_local std::unique_ptr<Lowering> keep;
  keep = std::make_unique<Lowering>(
      Lowering{target, converter, llvm::DenseMap<Operation *, Value>(),
               llvm::DenseMap<Operation *, SmallVector<ReturnPart>>(),
               llvm::StringMap<std::pair<SmallVector<ParamAttr>, size_t>>()});
  const Lowering &l = *keep;
  patterns.add<ExitLowering, SRegLowering, GlobalLowering, LocalVarLowering>(
      converter, ctx, target);
  // NVIDIA's own instructions for the families AMDGPU leaves out; on AMDGPU
  // they stay unsupported (checkSupported), so the pattern is not tried.
  if (target.getTriple().starts_with("nvptx"))
    patterns.add<NativeInstLowering>(converter, ctx);
  patterns.add<FunctionLowering<EntryOp>, FunctionLowering<FuncOp>,
               CallLowering, RetLowering>(converter, ctx, l);
  patterns.add<BraLowering, CondBraLowering, BrxIdxLowering, ConstantLowering,
               UndefLowering, AddrLowering, AddressOfLowering>(converter, ctx);
  addInst<AddOp>(patterns, converter, l, lowerArithOp<AddOp>);
  addInst<SubOp>(patterns, converter, l, lowerArithOp<SubOp>);
  addInst<AddcOp>(patterns, converter, l, lowerCarryOp<AddcOp>);
  addInst<SubcOp>(patterns, converter, l, lowerCarryOp<SubcOp>);
  addInst<MadcOp>(patterns, converter, l, lowerCarryOp<MadcOp>);
  addInst<MulOp>(patterns, converter, l, lowerArithOp<MulOp>);
  addInst<MadOp>(patterns, converter, l, lowerArithOp<MadOp>);
  addInst<FmaOp>(patterns, converter, l, lowerArithOp<FmaOp>);
  addInst<DivOp>(patterns, converter, l, lowerArithOp<DivOp>);
  addInst<RemOp>(patterns, converter, l, lowerArithOp<RemOp>);
  addInst<NegOp>(patterns, converter, l, lowerArithOp<NegOp>);
  addInst<AbsOp>(patterns, converter, l, lowerArithOp<AbsOp>);
  addInst<MinOp>(patterns, converter, l, lowerArithOp<MinOp>);
  addInst<MaxOp>(patterns, converter, l, lowerArithOp<MaxOp>);
  addInst<AndOp>(patterns, converter, l, lowerArithOp<AndOp>);
  addInst<OrOp>(patterns, converter, l, lowerArithOp<OrOp>);
  addInst<XorOp>(patterns, converter, l, lowerArithOp<XorOp>);
  addInst<NotOp>(patterns, converter, l, lowerArithOp<NotOp>);
  addInst<CnotOp>(patterns, converter, l, lowerArithOp<CnotOp>);
  addInst<PopcOp>(patterns, converter, l, lowerArithOp<PopcOp>);
  addInst<ClzOp>(patterns, converter, l, lowerArithOp<ClzOp>);
  addInst<BrevOp>(patterns, converter, l, lowerArithOp<BrevOp>);
  addInst<RcpOp>(patterns, converter, l, lowerArithOp<RcpOp>);
  addInst<SqrtOp>(patterns, converter, l, lowerArithOp<SqrtOp>);
  addInst<RsqrtOp>(patterns, converter, l, lowerArithOp<RsqrtOp>);
  addInst<SinOp>(patterns, converter, l, lowerArithOp<SinOp>);
  addInst<CosOp>(patterns, converter, l, lowerArithOp<CosOp>);
  addInst<Ex2Op>(patterns, converter, l, lowerArithOp<Ex2Op>);
  addInst<Lg2Op>(patterns, converter, l, lowerArithOp<Lg2Op>);
  addInst<ShlOp>(patterns, converter, l, lowerShift<ShlOp>);
  addInst<ShrOp>(patterns, converter, l, lowerShift<ShrOp>);
  addInst<SetpOp>(patterns, converter, l, lowerSetp<SetpOp>);
  addInst<SelpOp>(patterns, converter, l, lowerSelp<SelpOp>);
  addInst<SlctOp>(patterns, converter, l, lowerSlct<SlctOp>);
  addInst<Mul24Op>(patterns, converter, l, lowerMul24<Mul24Op>);
  addInst<Mad24Op>(patterns, converter, l, lowerMul24<Mad24Op>);
  addInst<TestpOp>(patterns, converter, l, lowerTestp<TestpOp>);
  addInst<FnsOp>(patterns, converter, l, lowerFns<FnsOp>);
  addInst<CvtPackOp>(patterns, converter, l, lowerCvtPack<CvtPackOp>);
  addInst<TanhOp>(patterns, converter, l, lowerTanh<TanhOp>);
  addInst<LduOp>(patterns, converter, l, lowerLd<LduOp>);
  addInst<PrefetchOp>(patterns, converter, l, lowerHint<PrefetchOp>);
  addInst<PrefetchuOp>(patterns, converter, l, lowerHint<PrefetchuOp>);
  addInst<MovOp>(patterns, converter, l, lowerMov<MovOp>);
  addInst<CvtOp>(patterns, converter, l, lowerCvt<CvtOp>);
  addInst<CvtaOp>(patterns, converter, l, lowerCvta<CvtaOp>);
  addInst<LdOp>(patterns, converter, l, lowerLd<LdOp>);
  addInst<StOp>(patterns, converter, l, lowerSt<StOp>);
  addInst<AtomOp>(patterns, converter, l, lowerAtom<AtomOp>);
  addInst<RedOp>(patterns, converter, l, lowerAtom<RedOp>);
  addInst<BarSyncOp>(patterns, converter, l, lowerBarrier<BarSyncOp>);
  addInst<BarrierSyncOp>(patterns, converter, l, lowerBarrier<BarrierSyncOp>);
  addInst<BarArriveOp>(patterns, converter, l,
                       lowerBarrier<BarArriveOp, /*Arrive=*/true>);
  addInst<BarrierArriveOp>(patterns, converter, l,
                           lowerBarrier<BarrierArriveOp, /*Arrive=*/true>);
  addInst<MembarOp>(patterns, converter, l, lowerFence<MembarOp>);
  addInst<FenceOp>(patterns, converter, l, lowerFence<FenceOp>);
  addInst<ShflOp>(patterns, converter, l, lowerShfl<ShflOp>);
  addInst<VoteOp>(patterns, converter, l, lowerVote<VoteOp>);
  addInst<ReduxOp>(patterns, converter, l, lowerRedux<ReduxOp>);
  addInst<MatchOp>(patterns, converter, l, lowerMatch<MatchOp>);
  addInst<TrapOp>(patterns, converter, l, lowerTrap<TrapOp>);
  addInst<BrkptOp>(patterns, converter, l, lowerBrkpt<BrkptOp>);
  addInst<PmeventOp>(patterns, converter, l, lowerPmevent<PmeventOp>);
  addInst<AllocaOp>(patterns, converter, l, lowerAlloca<AllocaOp>);
  addInst<StacksaveOp>(patterns, converter, l, lowerStackSave<StacksaveOp>);
  addInst<StackrestoreOp>(patterns, converter, l,
                          lowerStackRestore<StackrestoreOp>);
  addInst<IsspacepOp>(patterns, converter, l, lowerIsspacep<IsspacepOp>);
  addInst<ActivemaskOp>(patterns, converter, l, lowerActivemask<ActivemaskOp>);
  addInst<SetOp>(patterns, converter, l, lowerSet<SetOp>);
  addInst<CopysignOp>(patterns, converter, l, lowerCopysign<CopysignOp>);
  addInst<ShfOp>(patterns, converter, l, lowerShf<ShfOp>);
  addInst<CpAsyncOp>(patterns, converter, l, lowerCpAsync<CpAsyncOp>);
  addInst<CpAsyncCommitGroupOp>(patterns, converter, l,
                                lowerNothing<CpAsyncCommitGroupOp>);
  addInst<CpAsyncWaitGroupOp>(patterns, converter, l,
                              lowerNothing<CpAsyncWaitGroupOp>);
  addInst<CpAsyncWaitAllOp>(patterns, converter, l,
                            lowerNothing<CpAsyncWaitAllOp>);
  addInst<NanosleepOp>(patterns, converter, l, lowerNanosleep<NanosleepOp>);
  addInst<GriddepcontrolOp>(patterns, converter, l,
                            lowerGriddepcontrol<GriddepcontrolOp>);
  addInst<BarWarpSyncOp>(patterns, converter, l,
                         lowerWarpBarrier<BarWarpSyncOp>);
  addInst<BfeOp>(patterns, converter, l, lowerBfe<BfeOp>);
  addInst<BarRedOp>(patterns, converter, l, lowerBarRed<BarRedOp>);
  addInst<BarrierRedOp>(patterns, converter, l, lowerBarRed<BarrierRedOp>);
  addInst<BfindOp>(patterns, converter, l, lowerBfind<BfindOp>);
  addInst<Lop3Op>(patterns, converter, l, lowerLop3<Lop3Op>);
  addInst<SadOp>(patterns, converter, l, lowerSad<SadOp>);
  addInst<VaddOp>(patterns, converter, l, lowerVideo<VaddOp>);
  addInst<VsubOp>(patterns, converter, l, lowerVideo<VsubOp>);
  addInst<VabsdiffOp>(patterns, converter, l, lowerVideo<VabsdiffOp>);
  addInst<VminOp>(patterns, converter, l, lowerVideo<VminOp>);
  addInst<VmaxOp>(patterns, converter, l, lowerVideo<VmaxOp>);
  addInst<VshlOp>(patterns, converter, l, lowerVideo<VshlOp>);
  addInst<VshrOp>(patterns, converter, l, lowerVideo<VshrOp>);
  addInst<Vabsdiff2Op>(patterns, converter, l, lowerVideo<Vabsdiff2Op>);
  addInst<Vabsdiff4Op>(patterns, converter, l, lowerVideo<Vabsdiff4Op>);
  addInst<Dp4aOp>(patterns, converter, l, lowerDotProduct<Dp4aOp>);
  addInst<Dp2aOp>(patterns, converter, l, lowerDotProduct<Dp2aOp>);
  addInst<BfiOp>(patterns, converter, l, lowerBfi<BfiOp>);
  addInst<BmskOp>(patterns, converter, l, lowerBmsk<BmskOp>);
  addInst<PrmtOp>(patterns, converter, l, lowerPrmt<PrmtOp>);
}

/// Reports every unsupported op; returns the functions holding one (null
/// for an op outside functions).
static llvm::SetVector<Operation *> reportUnsupported(ModuleOp module,
                                                      StringRef target) {
  llvm::SetVector<Operation *> holders;
  module.walk([&](Operation *op) {
    std::string reason = unsupportedReason(op, target);
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

LogicalResult zluda::ptx::checkSupported(ModuleOp module, StringRef target) {
  return success(reportUnsupported(module, target).empty());
}

FailureOr<SmallVector<std::string>>
zluda::ptx::removeUnsupportedKernels(ModuleOp module, StringRef target) {
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
          Operation *target =
              SymbolTable::lookupSymbolIn(module, a.getSymbol().getAttr());
          if (target && bad.contains(target))
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
        Operation *target = SymbolTable::lookupSymbolIn(
            module, use.getSymbolRef().getRootReference());
        if (target && bad.contains(target)) {
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

bool zluda::ptx::isRuntimeFunction(llvm::StringRef name) {
  return findRuntimeFunction(name) != nullptr;
}
