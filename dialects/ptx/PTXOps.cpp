//===- PTXOps.cpp - Operations of the ptx dialect -------------------------===//

#include "dialects/ptx/PTXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace zluda::ptx;

//===----------------------------------------------------------------------===//
// Instruction ops: shared syntax and verifier
//===----------------------------------------------------------------------===//

// Syntax: `ptx.<opcode> "<modifiers>" operands attr-dict : functional-type`.
// The modifiers are a string because PTX spellings such as `shared::cta`,
// `2d` and `L2::64B` are not MLIR keywords.
ParseResult zluda::ptx::parseInstOp(OpAsmParser &parser, OperationState &result,
                                    const InstSpec &spec) {
  std::string text;
  SMLoc modsLoc = parser.getCurrentLocation();
  if (parser.parseString(&text))
    return failure();
  ModifierBuilder mods;
  SmallVector<StringRef> toks;
  StringRef(text).split(toks, '.', -1, /*KeepEmpty=*/false);
  for (StringRef tok : toks)
    if (auto err = mods.add(parser.getContext(), tok, spec))
      return parser.emitError(modsLoc) << *err;
  result.addAttribute("mods", mods.get(parser.getContext()));

  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  FunctionType fnType;
  SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(fnType) ||
      parser.resolveOperands(operands, fnType.getInputs(), operandsLoc,
                             result.operands))
    return failure();
  result.addTypes(fnType.getResults());
  return success();
}

void zluda::ptx::printInstOp(Operation *op, ModifiersAttr mods,
                             OpAsmPrinter &printer) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printModifiers(os, mods);
  printer << ' ';
  printer.printString(text);
  if (op->getNumOperands()) {
    printer << ' ';
    printer.printOperands(op->getOperands());
  }
  printer.printOptionalAttrDict(op->getAttrs(), {"mods"});
  printer << " : ";
  printer.printFunctionalType(op);
}

static unsigned getValueBitWidth(Type type) {
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  if (auto vec = dyn_cast<VectorType>(type))
    return vec.getNumElements() * getValueBitWidth(vec.getElementType());
  return 0;
}

/// The modifier classes that hold a value in `mods`.
static uint32_t presentClasses(ModifiersAttr mods) {
  uint32_t c = 0;
  auto mark = [&](bool present, uint32_t cls) {
    if (present)
      c |= cls;
  };
  mark(!mods.getTypes().empty(), mc::T);
  mark(!mods.getSpaces().empty(), mc::SP);
  mark(mods.getRounding().has_value(), mc::RND);
  mark(mods.getCmp().has_value(), mc::CMP);
  mark(mods.getBoolOp().has_value(), mc::BOOL);
  mark(mods.getCache().has_value(), mc::CACHE);
  mark(mods.getSem().has_value(), mc::SEM);
  mark(mods.getScope().has_value(), mc::SCOPE);
  mark(mods.getRedOp().has_value(), mc::RED);
  mark(mods.getMode().has_value(), mc::MODE);
  mark(mods.getGeometry().has_value(), mc::GEOM);
  mark(mods.getVec() != 0, mc::VEC);
  mark(mods.getFlags() != Flag::none, mc::FL);
  mark(!mods.getShape().empty(), mc::SHAPE);
  mark(mods.getCount() != 0, mc::COUNT);
  mark(mods.getExtras() && !mods.getExtras().empty(), mc::EXTRA);
  return c;
}

/// How many source operands (PTX's, a vector or an address with its offset
/// counting as one) an instruction of fixed arity takes, as ptxas checks
/// them: {min, max}, or nullopt for those not checked here.
static std::optional<std::pair<unsigned, unsigned>>
sourceArity(Operation *op, ModifiersAttr mods) {
  using Range = std::pair<unsigned, unsigned>;
  bool boolOp = mods.getBoolOp().has_value();
  if (isa<AbsOp, NegOp, PopcOp, ClzOp, BfindOp, BrevOp, NotOp, CnotOp, RcpOp,
          SqrtOp, RsqrtOp, SinOp, CosOp, Lg2Op, Ex2Op, TanhOp, TestpOp, CvtaOp,
          IsspacepOp, MovOp>(op))
    return Range{1, 1};
  if (isa<AddOp, SubOp, MulOp, AddcOp, SubcOp, Mul24Op, DivOp, RemOp, AndOp,
          OrOp, XorOp, ShlOp, ShrOp, CopysignOp, BmskOp, SzextOp, MapaOp>(op))
    return Range{2, 2};
  // Three-input min/max are PTX 8.8's.
  if (isa<MinOp, MaxOp>(op))
    return Range{2, 3};
  if (isa<MadOp, FmaOp, MadcOp, Mad24Op, SadOp, ShfOp, BfeOp, PrmtOp, Dp4aOp,
          Dp2aOp, SelpOp, SlctOp, FnsOp>(op))
    return Range{3, 3};
  // cvt.pack: two sources into 16-bit halves, or two and the value they
  // are merged into for 8, 4 or 2 bits (seed 54 with --words).
  if (isa<CvtPackOp>(op))
    return mods.getTypes().size() == 3 ? Range{3, 3} : Range{2, 2};
  if (isa<BfiOp>(op))
    return Range{4, 4};
  // lop3's predicate form (`lop3.or.b32 d|p, a, b, c, lut, q`) adds q.
  if (isa<Lop3Op>(op))
    return boolOp ? Range{5, 5} : Range{4, 4};
  // cvt converts one value, or two into a packed pair (`cvt.rn.f16x2.f32 d,
  // a, b`; `.rs` adds random bits).
  if (isa<CvtOp>(op) && mods.getTypes().size() == 2) {
    bool pair = stringifyTypeKind(mods.getTypes()[0]).ends_with("x2") &&
                !stringifyTypeKind(mods.getTypes()[1]).ends_with("x2");
    // (The third source only with .rs; seed 44.)
    return pair ? Range{2, mods.getRounding() == RoundingMode::rs ? 3u : 2u}
                : Range{1, 1};
  }
  // shfl.sync: a, b, c and the member mask; the old shfl has no mask.
  if (isa<ShflOp>(op))
    return mods.has(Flag::sync) ? Range{4, 4} : Range{3, 3};
  // redux.sync and match.sync: the value and the member mask; vote.sync:
  // the predicate and the mask, the old vote the predicate alone.
  if (isa<ReduxOp, MatchOp>(op))
    return Range{2, 2};
  if (isa<VoteOp>(op))
    return mods.has(Flag::sync) ? Range{2, 2} : Range{1, 1};
  // setp/set with a boolean operation combine a third, predicate, operand.
  if (isa<SetpOp, SetOp>(op))
    return boolOp ? Range{3, 3} : Range{2, 2};
  // The scalar video instructions: two sources, a third with a secondary
  // operation (`vadd...add d, a, b, c`) or to merge into (`d.b0`); vmad
  // and the SIMD ones three.
  if (isa<VaddOp, VsubOp, VabsdiffOp, VminOp, VmaxOp, VshlOp, VshrOp, VsetOp>(
          op))
    return mods.getRedOp() ? Range{3, 3} : Range{2, 3};
  if (isa<VmadOp, Vadd2Op, Vsub2Op, Vavrg2Op, Vabsdiff2Op, Vmin2Op, Vmax2Op,
          Vset2Op, Vadd4Op, Vsub4Op, Vavrg4Op, Vabsdiff4Op, Vmin4Op, Vmax4Op,
          Vset4Op>(op))
    return Range{3, 3};
  // The barriers take none but the tensor-map proxy's acquire fence (its
  // address and 128); txq.level a level besides the texture; suq, pmevent
  // one (the differential fuzzer's --words mutations, seed 38).
  auto extra = [&](StringRef w) {
    return mods.getExtras() && llvm::any_of(mods.getExtras(), [&](Attribute e) {
             return cast<StringAttr>(e).getValue() == w;
           });
  };
  if (isa<MembarOp, GriddepcontrolOp>(op))
    return Range{0, 0};
  if (isa<FenceOp>(op))
    return extra("tensormap::generic") && mods.getSem() == MemSemantics::acquire
               ? Range{2, 2}
               : Range{0, 0};
  if (isa<TxqOp>(op))
    return extra("level") ? Range{2, 2} : Range{1, 1};
  // (prefetchu: seed 53 with --words; istypep: seed 55; mapa's two and
  // cp.async.mbarrier.arrive's one: seed 57.)
  if (isa<SuqOp, PmeventOp, SetmaxnregOp, MultimemLdReduceOp, PrefetchuOp,
          MovmatrixOp, WgmmaWaitGroupOp, IstypepOp, CpAsyncMbarrierArriveOp,
          GetctarankOp>(op))
    return Range{1, 1};
  // multimem.red and multimem.st: [address] and a value (seed 49).
  if (isa<MultimemRedOp, MultimemStOp>(op))
    return Range{2, 2};
  // alloca: the size and an optional alignment; mma.sp: A, B, C, the
  // metadata and the selector (seeds 58-59).
  if (isa<AllocaOp>(op))
    return Range{1, 2};
  if (isa<MmaSpOp>(op))
    return Range{5, 5};
  // bar.sync: the barrier and an optional thread count (seed 46).
  if (isa<BarSyncOp, BarrierSyncOp>(op))
    return Range{1, 2};
  // bar.arrive, barrier.arrive: the barrier and the thread count (seed 49).
  if (isa<BarArriveOp, BarrierArriveOp>(op))
    return Range{2, 2};
  return std::nullopt;
}

/// Whether `op` has the mode `m`: the modes are one enumeration for every
/// family (mul's .hi and vote's .any alike), and ptxas refuses another
/// family's ("Illegal modifier": `mul.any.f32` was read as a mode).
static bool hasMode(Operation *op, Mode m) {
  auto in = [&](std::initializer_list<Mode> modes) {
    return llvm::is_contained(modes, m);
  };
  if (isa<MulOp, MadOp>(op))
    return in({Mode::hi, Mode::lo, Mode::wide});
  if (isa<MadcOp, Mul24Op, Mad24Op, Dp2aOp>(op))
    return in({Mode::hi, Mode::lo});
  if (isa<ShfOp>(op))
    return in({Mode::l, Mode::r});
  if (isa<ShflOp>(op))
    return in({Mode::up, Mode::down, Mode::bfly, Mode::idx});
  if (isa<VoteOp>(op))
    return in({Mode::all, Mode::any, Mode::uni, Mode::ballot});
  if (isa<MatchOp>(op))
    return in({Mode::all, Mode::any});
  if (isa<PrmtOp>(op))
    return in(
        {Mode::f4e, Mode::b4e, Mode::rc8, Mode::ecl, Mode::ecr, Mode::rc16});
  if (isa<TestpOp>(op))
    return in({Mode::finite, Mode::infinite, Mode::number, Mode::notanumber,
               Mode::normal, Mode::subnormal});
  if (isa<Tld4Op>(op))
    return in({Mode::r, Mode::g, Mode::b, Mode::a});
  return true;
}

bool zluda::ptx::isHalfType(TypeKind k) {
  return k == TypeKind::f16 || k == TypeKind::bf16 || k == TypeKind::f16x2 ||
         k == TypeKind::bf16x2;
}

StateSpace zluda::ptx::spaceFamily(StateSpace s) {
  switch (s) {
  case StateSpace::shared_cta:
  case StateSpace::shared_cluster:
    return StateSpace::shared;
  case StateSpace::param_entry:
  case StateSpace::param_func:
    return StateSpace::param;
  default:
    return s;
  }
}

/// A variable's address in its own state space (a generic access may name
/// any but .param and .const variables): operand `operand` against the
/// instruction's space number `space`, for ld/ldu/st, atom/red, prefetch
/// and the instructions listed in verifyInstOp (ptxas: "State space
/// mismatch between instruction and address"; atom and prefetch: the
/// differential fuzzer, seed 47).
static LogicalResult verifyVariableSpace(Operation *op, ModifiersAttr mods,
                                         unsigned operand = 0,
                                         unsigned space = 0) {
  if (op->getNumOperands() <= operand)
    return success();
  auto ptr = dyn_cast<PtrType>(op->getOperand(operand).getType());
  if (!ptr)
    return success();
  StateSpace var = spaceFamily(ptr.getSpace());
  std::optional<StateSpace> inst = mods.getSpace(space);
  bool fits = inst ? spaceFamily(*inst) == var
                   : var != StateSpace::param && var != StateSpace::const_;
  if (!fits)
    return op->emitOpError("the address of a .")
           << stringifyStateSpace(ptr.getSpace()) << " variable needs ."
           << stringifyStateSpace(var) << " here";
  return success();
}

/// ld/ldu/st as ptxas checks them: one instruction type; a cache-policy
/// operand only with `.L2::cache_hint`; a variable's address in its own
/// state space (a generic access may name any but .param and .const
/// variables).
static LogicalResult verifyMemoryAccess(Operation *op, ModifiersAttr mods) {
  if (mods.getTypes().size() != 1)
    return op->emitOpError("takes one instruction type, not ")
           << mods.getTypes().size();
  auto groups = op->getAttrOfType<DenseI32ArrayAttr>("groups");
  unsigned n = groups ? groups.size() : op->getNumOperands();
  unsigned plain = isa<StOp>(op) ? 2 : 1;
  if (n > plain && !mods.has(Flag::L2_cache_hint))
    return op->emitOpError("takes a cache-policy operand only with "
                           ".L2::cache_hint");
  return verifyVariableSpace(op, mods);
}

LogicalResult zluda::ptx::verifyInstOp(Operation *op, ModifiersAttr mods,
                                       const InstSpec &spec) {
  uint32_t extra = presentClasses(mods) & ~spec.classes;
  if (extra) {
    std::string list;
    llvm::raw_string_ostream os(list);
    forEachModifier(mods, [&](uint32_t cls, StringRef tok) {
      if (cls & extra)
        os << " '." << tok << "'";
    });
    return op->emitOpError("does not accept modifier") << list;
  }
  if (uint64_t badFlags = static_cast<uint64_t>(mods.getFlags()) & ~spec.flags)
    return op->emitOpError("does not accept flag '.")
           << stringifyFlag(static_cast<Flag>(badFlags & -badFlags)) << "'";
  if (!spec.hasDest() && op->getNumResults() != 0)
    return op->emitOpError("writes no destination but has ")
           << op->getNumResults() << " results";
  if (auto groups = op->getAttrOfType<DenseI32ArrayAttr>("groups")) {
    int64_t total = 0;
    for (int32_t g : groups.asArrayRef()) {
      if (g <= 0)
        return op->emitOpError("operand group sizes must be positive");
      total += g;
    }
    if (total != op->getNumOperands())
      return op->emitOpError("operand groups cover ")
             << total << " operands but the op has " << op->getNumOperands();
  }

  // (discard, applypriority, wmma and the asynchronous copies: ptxas's
  // "State space mismatch between instruction and address";
  // ptxas_operand_grid.py.)
  if (isa<AtomOp, RedOp, PrefetchOp, DiscardOp, ApplyPriorityOp, WmmaLoadOp,
          WmmaStoreOp, CpAsyncOp, CpAsyncBulkOp, CpReduceAsyncBulkOp,
          CpAsyncBulkPrefetchOp, TensormapCpFenceproxyOp, TensormapReplaceOp,
          MultimemLdReduceOp, MultimemStOp, MultimemRedOp>(op) &&
      failed(verifyVariableSpace(op, mods)))
    return failure();
  if (isa<CpAsyncOp, CpAsyncBulkOp, CpReduceAsyncBulkOp,
          TensormapCpFenceproxyOp>(op) &&
      failed(verifyVariableSpace(op, mods, 1, 1)))
    return failure();
  if (isa<LdOp, LduOp, StOp>(op) && failed(verifyMemoryAccess(op, mods)))
    return failure();
  // setp/set compare: the comparison is not optional.
  if (isa<SetpOp, SetOp>(op) && !mods.getCmp())
    return op->emitOpError("needs a comparison (.eq, .lt, ...)");
  // The comparisons of each kind of type (ptxas: "Mismatch between
  // instruction type and comparison qualifier"): .b types .eq and .ne,
  // signed integers the ordered ones, unsigned .lo/.ls/.hi/.hs besides,
  // floats the unordered ones, .num and .nan besides.
  if (isa<SetpOp, SetOp>(op) && !mods.getTypes().empty()) {
    TypeKind t = mods.getTypes().back();
    CmpOp c = *mods.getCmp();
    StringRef name = stringifyTypeKind(t);
    bool isFloat = isHalfType(t) || t == TypeKind::f32 || t == TypeKind::f64;
    bool ordered = c <= CmpOp::ge;
    bool unsignedOnly = c >= CmpOp::lo && c <= CmpOp::hs;
    bool fits = isFloat                 ? !unsignedOnly
                : name.starts_with("u") ? ordered || unsignedOnly
                : name.starts_with("s") ? ordered
                : name.starts_with("b") ? c == CmpOp::eq || c == CmpOp::ne
                                        : true;
    if (!fits)
      return op->emitOpError("has no comparison .")
             << stringifyCmpOp(c) << " on ." << name;
  }
  if (std::optional<Mode> m = mods.getMode(); m && !hasMode(op, *m))
    return op->emitOpError("does not accept modifier '.")
           << stringifyMode(*m) << "'";
  // redux and match are .sync only (ptxas: ".sync modifier required";
  // the differential fuzzer, seed 18); redux reduces by an operation and
  // shfl names its mode (ptxas:
  // "Reduction operation is required", "Shuffle modifier required").
  if (isa<ReduxOp, MatchOp>(op) && !mods.has(Flag::sync))
    return op->emitOpError("needs .sync");
  if (isa<ReduxOp>(op) && !mods.getRedOp())
    return op->emitOpError(
        "needs an operation (.add, .min, .max, .and, .or, .xor)");
  if (isa<ShflOp>(op) && !mods.getMode())
    return op->emitOpError("needs a mode (.up, .down, .bfly, .idx)");
  // redux: .add of .u32/.s32, .min/.max of those or .f32, .and/.or/.xor
  // of .b32 (ptxas: "Incorrect type for operation").
  if (std::optional<ReduceOp> red = mods.getRedOp();
      red && isa<ReduxOp>(op) && mods.getTypes().size() == 1) {
    TypeKind t = mods.getTypes()[0];
    bool bitwise = *red == ReduceOp::and_ || *red == ReduceOp::or_ ||
                   *red == ReduceOp::xor_;
    bool fits = bitwise ? t == TypeKind::b32
                        : t == TypeKind::u32 || t == TypeKind::s32 ||
                              (t == TypeKind::f32 && *red != ReduceOp::add);
    if (!fits)
      return op->emitOpError(".")
             << stringifyReduceOp(*red) << " takes "
             << (bitwise                 ? ".b32"
                 : *red == ReduceOp::add ? ".u32 or .s32"
                                         : ".u32, .s32 or .f32")
             << ", not ." << stringifyTypeKind(t);
  }
  // The video shifts and shf say what a shift past 31 does (ptxas: "Clamp
  // modifier required"; shf: the differential fuzzer, seed 22).
  if (isa<VshlOp, VshrOp, ShfOp>(op) && !mods.has(Flag::clamp) &&
      !mods.has(Flag::wrap))
    return op->emitOpError("needs .clamp or .wrap");
  // cvt between integers and floats, or to a narrower float, rounds: the
  // rounding modifier is required (ptxas: "Rounding modifier required").
  if (isa<CvtOp>(op) && mods.getTypes().size() == 2 && !mods.getRounding()) {
    auto isInt = [](TypeKind k) {
      StringRef n = stringifyTypeKind(k);
      return (n.starts_with("s") || n.starts_with("u")) && !n.ends_with("x2") &&
             !n.starts_with("ue");
    };
    auto isFloat = [](TypeKind k) {
      return k == TypeKind::f16 || k == TypeKind::bf16 || k == TypeKind::f32 ||
             k == TypeKind::f64;
    };
    TypeKind d = mods.getTypes()[0], src = mods.getTypes()[1];
    bool rounds = (isInt(d) && isFloat(src)) || (isFloat(d) && isInt(src)) ||
                  (isFloat(d) && isFloat(src) &&
                   getTypeBitWidth(d) < getTypeBitWidth(src));
    if (rounds)
      return op->emitOpError("from .")
             << stringifyTypeKind(src) << " to ." << stringifyTypeKind(d)
             << " needs a rounding modifier";
  }
  // A float fma or mad rounds once, and says how (ptxas: "Rounding
  // modifier required"; mad.f32 without one was sm_1x's).
  if (std::optional<TypeKind> t = mods.getType();
      t && isa<FmaOp, MadOp>(op) && !mods.getRounding() &&
      (isHalfType(*t) || *t == TypeKind::f32 || *t == TypeKind::f64))
    return op->emitOpError(".")
           << stringifyTypeKind(*t)
           << " needs a rounding modifier (.rn, .rz, .rm, .rp)";
  if (auto arity = sourceArity(op, mods)) {
    // Each of them names its instruction type (`add` alone is not PTX);
    // isspacep's space is its only modifier.
    if (mods.getTypes().empty() &&
        !isa<IsspacepOp, MembarOp, FenceOp, GriddepcontrolOp, PmeventOp,
             BarSyncOp, BarrierSyncOp, BarArriveOp, BarrierArriveOp,
             PrefetchuOp, WgmmaWaitGroupOp>(op))
      return op->emitOpError("needs an instruction type");
    auto groups = op->getAttrOfType<DenseI32ArrayAttr>("groups");
    unsigned n = groups ? groups.size() : op->getNumOperands();
    if (n < arity->first || n > arity->second) {
      InFlightDiagnostic d = op->emitOpError("takes ");
      d << arity->first;
      if (arity->second != arity->first)
        d << " or " << arity->second;
      return d << " source operand" << (arity->second == 1 ? "" : "s")
               << ", not " << n;
    }
    // Three-input min/max (PTX ISA 8.8) are .f32 only.
    if (isa<MinOp, MaxOp>(op) && n == 3 && mods.getTypes().size() == 1 &&
        mods.getTypes()[0] != TypeKind::f32)
      return op->emitOpError("takes three sources on .f32 only, not .")
             << stringifyTypeKind(mods.getTypes()[0]);
  }

  std::optional<TypeKind> type = mods.getType();
  // Predicate registers only where the instruction type is .pred: a load
  // never writes one; lop3 is .b32 only (its predicate form is a second
  // destination).
  if (type && isa<LdOp, LduOp>(op))
    for (Type t : op->getResultTypes())
      if (t.isInteger(1))
        return op->emitOpError("cannot load .")
               << stringifyTypeKind(*type) << " into a .pred register";
  if (type && isa<Lop3Op>(op) && *type != TypeKind::b32)
    return op->emitOpError("takes .b32, not .") << stringifyTypeKind(*type);
  // atom/red: the types each operation takes (ptxas's rules).
  if (type && mods.getRedOp() && isa<AtomOp, RedOp>(op)) {
    ReduceOp red = *mods.getRedOp();
    TypeKind t = *type;
    const char *need = nullptr;
    if (red == ReduceOp::cas && t != TypeKind::b16 && t != TypeKind::b32 &&
        t != TypeKind::b64 && t != TypeKind::b128)
      need = ".b16, .b32, .b64 or .b128";
    else if (red == ReduceOp::exch && t != TypeKind::b32 &&
             t != TypeKind::b64 && t != TypeKind::b128)
      need = ".b32, .b64 or .b128";
    else if ((red == ReduceOp::and_ || red == ReduceOp::or_ ||
              red == ReduceOp::xor_) &&
             t != TypeKind::b32 && t != TypeKind::b64)
      need = ".b32 or .b64";
    else if ((red == ReduceOp::inc || red == ReduceOp::dec) &&
             t != TypeKind::u32)
      need = ".u32";
    // (The differential fuzzer, seed 26: "Operation .max requires .u32 or
    // .s32 or .u64 or .s64 or .f16 ...".)
    else if ((red == ReduceOp::min || red == ReduceOp::max) &&
             !llvm::is_contained({TypeKind::u32, TypeKind::s32, TypeKind::u64,
                                  TypeKind::s64, TypeKind::f16, TypeKind::f16x2,
                                  TypeKind::bf16, TypeKind::bf16x2},
                                 t))
      need = ".u32, .s32, .u64, .s64 or halves";
    else if (red == ReduceOp::add &&
             !llvm::is_contained({TypeKind::u32, TypeKind::s32, TypeKind::u64,
                                  TypeKind::f32, TypeKind::f64, TypeKind::f16,
                                  TypeKind::f16x2, TypeKind::bf16,
                                  TypeKind::bf16x2},
                                 t))
      need = ".u32, .s32, .u64, .f32, .f64 or halves";
    if (need)
      return op->emitOpError(".") << stringifyReduceOp(red) << " takes " << need
                                  << ", not ." << stringifyTypeKind(t);
  }
  if (type && op->getNumResults() == 1 && spec.has(p::SameWidth)) {
    unsigned expected = getTypeBitWidth(*type);
    if (mods.getMode() == Mode::wide)
      expected *= 2;
    unsigned actual = getValueBitWidth(op->getResult(0).getType());
    if (actual != expected)
      return op->emitOpError("result of ")
             << actual << " bits does not match the ."
             << stringifyTypeKind(*type) << " instruction type (" << expected
             << " bits)";
  }
  if (spec.has(p::PredResult))
    for (Type t : op->getResultTypes())
      if (!t.isInteger(1))
        return op->emitOpError("destinations must be predicates (i1)");
  return success();
}

//===----------------------------------------------------------------------===//
// Structure ops
//===----------------------------------------------------------------------===//

static LogicalResult verifyAlignment(Operation *op,
                                     std::optional<uint64_t> alignment) {
  if (alignment && !llvm::isPowerOf2_64(*alignment))
    return op->emitOpError("alignment ")
           << *alignment << " is not a power of two";
  return success();
}

LogicalResult GlobalOp::verify() {
  if (failed(verifyAlignment(*this, getAlignment())))
    return failure();
  switch (getSpace()) {
  case StateSpace::global:
  case StateSpace::const_:
  case StateSpace::shared:
  case StateSpace::local:
  case StateSpace::tex:
    break;
  default:
    return emitOpError("cannot declare a module-scope variable in .")
           << stringifyStateSpace(getSpace());
  }
  if (auto dims = getDims())
    for (int64_t d : *dims)
      if (d < 0)
        return emitOpError("array dimension must not be negative");
  return success();
}

LogicalResult LocalVarOp::verify() {
  if (failed(verifyAlignment(*this, getAlignment())))
    return failure();
  StateSpace space = getSpace();
  if (space != StateSpace::local && space != StateSpace::shared &&
      space != StateSpace::param)
    return emitOpError("cannot declare a function-scope variable in .")
           << stringifyStateSpace(space);
  if (getAddr().getType().getSpace() != space)
    return emitOpError("result must be an address in the variable's space");
  return success();
}

SmallVector<ParamAttr> zluda::ptx::getDeclaredParams(Operation *fn) {
  SmallVector<ParamAttr> decls;
  for (StringRef name : {"returns", "params"})
    if (auto list = fn->getAttrOfType<ArrayAttr>(name))
      for (Attribute a : list)
        decls.push_back(cast<ParamAttr>(a));
  return decls;
}

template <typename FnOp> static LogicalResult verifyFunctionLike(FnOp op) {
  for (auto dims : {op.getMaxntid(), op.getReqntid()})
    if (dims && (dims->empty() || dims->size() > 3))
      return op.emitOpError("thread-count directives take 1 to 3 values");
  if (op.getBody().empty())
    return success();
  SmallVector<ParamAttr> decls = getDeclaredParams(op);
  Block &entry = op.getBody().front();
  if (entry.getNumArguments() != decls.size())
    return op.emitOpError("entry block has ")
           << entry.getNumArguments() << " arguments for " << decls.size()
           << " declared parameters";
  for (auto [decl, arg] : llvm::zip(decls, entry.getArguments())) {
    bool isParamSpace = decl.getSpace() == StateSpace::param;
    auto ptr = dyn_cast<PtrType>(arg.getType());
    if (isParamSpace != (ptr && ptr.getSpace() == StateSpace::param))
      return op.emitOpError("parameter '")
             << decl.getName() << "' has block argument type " << arg.getType();
  }
  return success();
}

LogicalResult EntryOp::verify() {
  if (getReturns() && !getReturns()->empty())
    return emitOpError("kernels cannot return parameters");
  return verifyFunctionLike(*this);
}
LogicalResult FuncOp::verify() {
  if (failed(verifyFunctionLike(*this)))
    return failure();
  SmallVector<Type> regReturns;
  if (auto rets = getReturns())
    for (Attribute a : *rets)
      if (cast<ParamAttr>(a).getSpace() == StateSpace::reg)
        regReturns.push_back(
            getRegisterType(getContext(), cast<ParamAttr>(a).getType()));
  WalkResult r = getBody().walk([&](RetOp ret) {
    if (TypeRange(ret.getValues()) != TypeRange(regReturns)) {
      ret.emitOpError("must return the ")
          << regReturns.size() << " .reg return parameters of the function";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

LogicalResult SRegOp::verify() {
  SReg kind = getReg().getReg();
  unsigned expected = 32;
  switch (kind) {
  case SReg::clock64:
  case SReg::globaltimer:
  case SReg::gridid:
  case SReg::pm_64:
  case SReg::current_graph_exec:
    expected = 64;
    break;
  case SReg::is_explicit_cluster:
    expected = 1;
    break;
  default:
    break;
  }
  if (!getType().isInteger(expected))
    return emitOpError("%") << stringifySReg(kind) << " reads as i" << expected;
  return success();
}

LogicalResult CallOp::verify() {
  if (static_cast<bool>(getCallee()) == static_cast<bool>(getTarget()))
    return emitOpError(
        "needs exactly one of a callee symbol or a target address");
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Branches
//===----------------------------------------------------------------------===//

SuccessorOperands BraOp::getSuccessorOperands(unsigned index) {
  assert(index == 0 && "invalid successor index");
  return SuccessorOperands(getDestOperandsMutable());
}

Block *BraOp::getSuccessorForOperands(ArrayRef<Attribute>) { return getDest(); }

SuccessorOperands CondBraOp::getSuccessorOperands(unsigned index) {
  assert(index < 2 && "invalid successor index");
  return SuccessorOperands(index == 0 ? getTrueDestOperandsMutable()
                                      : getFalseDestOperandsMutable());
}

Block *CondBraOp::getSuccessorForOperands(ArrayRef<Attribute> operands) {
  if (auto cond = dyn_cast_or_null<IntegerAttr>(operands.front()))
    return cond.getValue().isOne() ? getTrueDest() : getFalseDest();
  return nullptr;
}

#define GET_OP_CLASSES
#include "dialects/ptx/PTXOps.cpp.inc"
