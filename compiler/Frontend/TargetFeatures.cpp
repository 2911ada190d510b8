//===- TargetFeatures.cpp - What each instruction needs of .target --------===//
//
// Each entry was measured against ptxas (CUDA 13): accepted at the target
// given, refused ("requires .target sm_XY or higher", "not supported on
// .target") at the one below it. The feature names are ptxas's where it
// has one.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/TargetFeatures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

using namespace zluda::ptx;
using namespace zluda::frontend;
using llvm::SmallVector;
using llvm::StringRef;

std::optional<SmTarget> SmTarget::parse(StringRef name) {
  StringRef rest;
  if (name.starts_with("sm_"))
    rest = name.drop_front(3);
  else if (name.starts_with("compute_"))
    rest = name.drop_front(8);
  else
    return std::nullopt;
  SmTarget t;
  if (rest.consume_back("a"))
    t.archSpecific = true;
  else if (rest.consume_back("f"))
    t.family = true;
  if (rest.empty() || rest.getAsInteger(10, t.sm))
    return std::nullopt;
  return t;
}

std::string SmTarget::str() const {
  return ("sm_" + llvm::Twine(sm) +
          (archSpecific ? "a"
           : family     ? "f"
                        : ""))
      .str();
}

std::optional<unsigned> SmTarget::minPtxVersion() const {
  // Measured with ptxas (CUDA 13): the lowest `.version` it takes with each
  // `.target`; the `a` and `f` processors from sm_90 on, `f` from sm_100.
  struct Entry {
    unsigned sm, plain, arch, fam;
  };
  static constexpr Entry table[] = {
      {10, 10, 0, 0},    {11, 10, 0, 0},    {12, 12, 0, 0},
      {13, 12, 0, 0},    {20, 20, 0, 0},    {21, 20, 0, 0},
      {30, 30, 0, 0},    {32, 40, 0, 0},    {35, 31, 0, 0},
      {37, 41, 0, 0},    {50, 40, 0, 0},    {52, 41, 0, 0},
      {53, 42, 0, 0},    {60, 50, 0, 0},    {61, 50, 0, 0},
      {62, 50, 0, 0},    {70, 60, 0, 0},    {72, 61, 0, 0},
      {75, 63, 0, 0},    {80, 70, 0, 0},    {86, 71, 0, 0},
      {87, 74, 0, 0},    {88, 73, 0, 0},    {89, 78, 0, 0},
      {90, 78, 80, 0},   {100, 86, 86, 88}, {101, 86, 86, 88},
      {103, 88, 88, 88}, {110, 90, 90, 90}, {120, 87, 87, 88},
      {121, 88, 88, 88},
  };
  for (const Entry &e : table)
    if (e.sm == sm) {
      unsigned v = archSpecific ? e.arch : family ? e.fam : e.plain;
      if (v)
        return v;
    }
  return std::nullopt;
}

std::string TargetNeed::required() const {
  return ("sm_" + llvm::Twine(sm) + (archSpecific ? "a" : " or higher")).str();
}

namespace {

bool isHalf(TypeKind t) { return t == TypeKind::f16 || t == TypeKind::f16x2; }
bool isBf16(TypeKind t) { return t == TypeKind::bf16 || t == TypeKind::bf16x2; }
bool isInteger(TypeKind t) {
  return isSignedIntType(t) ||
         (!isFloatType(t) && !isHalf(t) && !isBf16(t) && t != TypeKind::pred);
}

/// Collects what one instruction needs.
class Needs {
public:
  Needs(StringRef mnemonic, ModifiersAttr mods)
      : m(mnemonic), mods(mods), types(mods.getTypes()) {}

  void add(const llvm::Twine &feature, unsigned sm, bool arch = false) {
    out.push_back({feature.str(), sm, arch});
  }
  bool is(std::initializer_list<StringRef> names) const {
    return llvm::is_contained(names, m);
  }
  bool hasType(llvm::function_ref<bool(TypeKind)> pred) const {
    return llvm::any_of(types, pred);
  }
  bool hasType(TypeKind t) const { return llvm::is_contained(types, t); }
  /// `name.type`, as ptxas names a typed feature (`min.f16`).
  std::string typed(TypeKind t) const {
    return (m + "." + stringifyTypeKind(t)).str();
  }

  StringRef m;
  ModifiersAttr mods;
  llvm::ArrayRef<TypeKind> types;
  SmallVector<TargetNeed, 2> out;
};

/// Scopes, orderings, state spaces and cache hints, whatever the
/// instruction.
void memoryNeeds(Needs &n) {
  ModifiersAttr mods = n.mods;
  if (mods.getScope() == MemScope::cluster)
    n.add(".cluster scope", 90);
  if (llvm::is_contained(mods.getSpaces(), StateSpace::shared_cluster))
    n.add("::cluster", 90);
  bool access = n.is({"ld", "st", "atom", "red"});
  if (access && mods.getSem() && *mods.getSem() != MemSemantics::weak)
    n.add("." + stringifyMemSemantics(*mods.getSem()), 70);
  if (n.is({"atom", "red"}) && mods.getScope())
    n.add("scopes on atomic operations", 60);
  if (n.is({"ld", "st"}))
    if (std::optional<Flag> f = firstFlag(mods, fl::L1Eviction))
      n.add("." + stringifyFlag(*f), 70);
  if (n.is({"ld", "ldu"}) &&
      (mods.has(Flag::L2_64B) || mods.has(Flag::L2_128B)))
    n.add("cache prefetching", 75);
  if (mods.has(Flag::L2_256B))
    n.add(".L2::256B", 80);
  if (mods.has(Flag::L2_cache_hint))
    n.add(".L2::cache_hint", 80);
  if (n.is({"prefetch"}) && firstFlag(mods, fl::L2Eviction))
    n.add("cache eviction priority on prefetch", 80);
  if (n.is({"ld", "st"}) && mods.getVec() && !n.types.empty() &&
      mods.getVec() * getTypeBitWidth(n.types.front()) == 256)
    n.add("256 bit wide load/store", 100);
  if (n.is({"isspacep", "cvta"}) && !mods.getSpaces().empty() &&
      (mods.getSpaces().front() == StateSpace::param ||
       mods.getSpaces().front() == StateSpace::param_entry))
    n.add("cvta/isspacep with .param state space", 70);
}

void atomicNeeds(Needs &n) {
  if (!n.is({"atom", "red"}))
    return;
  if (n.mods.getVec())
    n.add(n.m + " instruction with vector types", 90);
  std::optional<ReduceOp> op = n.mods.getRedOp();
  for (TypeKind t : n.types) {
    if (op == ReduceOp::add && isBf16(t))
      n.add(n.m + ".add." + stringifyTypeKind(t), 90);
    else if (op == ReduceOp::add && t == TypeKind::f16)
      n.add(n.m + ".add.f16", 70);
    else if (op == ReduceOp::add &&
             (t == TypeKind::f16x2 || t == TypeKind::f64))
      n.add(n.m + ".add." + stringifyTypeKind(t), 60);
    else if (op == ReduceOp::cas && t == TypeKind::b16)
      n.add(n.m + ".cas.b16", 70);
    else if (t == TypeKind::b128)
      n.add(n.m + "." + (op ? stringifyReduceOp(*op) : StringRef("")) + ".b128",
            90);
  }
}

void arithmeticNeeds(Needs &n, unsigned numOperands) {
  ModifiersAttr mods = n.mods;
  bool minMax = n.is({"min", "max"});
  if (minMax) {
    if (mods.has(Flag::relu) && n.hasType(isInteger))
      n.add(n.m + ".relu", 90);
    for (TypeKind t : {TypeKind::u16x2, TypeKind::s16x2})
      if (n.hasType(t))
        n.add(n.typed(t), 90);
    if (n.hasType(isHalf))
      n.add(n.m + ".f16 or " + n.m + ".f16x2", 80);
    if (mods.has(Flag::NaN))
      n.add(".NaN", 80);
    if (mods.has(Flag::xorsign) || mods.has(Flag::abs))
      n.add(".abs", 86);
    if (numOperands == 4 && n.hasType(TypeKind::f32))
      n.add(n.m + ".f32 with 3 input operands", 100);
  }
  // Half precision: arithmetic from sm_53; bf16 from sm_80, its add, sub,
  // mul and comparisons from sm_90.
  if (n.is({"add", "sub", "mul", "fma", "neg", "abs", "setp", "set"}) &&
      n.hasType(isHalf))
    n.add("f16 arithmetic and compare instructions", 53);
  if (n.hasType(isBf16)) {
    if (n.is({"add", "sub", "mul", "setp", "set", "ex2", "tanh"}))
      n.add(n.typed(*llvm::find_if(n.types, isBf16)), 90);
    else if (n.is({"fma", "min", "max", "abs", "neg"}))
      n.add(".bf16", 80);
  }
  if (n.is({"fma"}) && mods.has(Flag::relu))
    n.add(".relu", 80);
  if (n.is({"fma"}) && mods.has(Flag::oob))
    n.add(".oob", 90);
  if (n.is({"tanh"}))
    n.add("tanh", 75);
  if (n.is({"ex2"}) && n.hasType(isHalf))
    n.add("ex2.f16/f16x2", 75);
}

void conversionNeeds(Needs &n) {
  if (!n.is({"cvt"}) || n.types.size() != 2)
    return;
  ModifiersAttr mods = n.mods;
  TypeKind to = n.types[0], from = n.types[1];
  std::optional<RoundingMode> rounding = mods.getRounding();
  auto pair = [&] {
    return ("cvt with ." + stringifyTypeKind(to) + "." +
            stringifyTypeKind(from))
        .str();
  };
  if (to == TypeKind::tf32 &&
      (rounding == RoundingMode::rn || rounding == RoundingMode::rz)) {
    n.add(pair() + "." + stringifyRoundingMode(*rounding), 90);
    // (ptxas: "Modifier '.satfinite' on 'cvt.tf32.f32.rz' requires .target
    // sm_100 or higher"; seed 48.)
    if (mods.has(Flag::satfinite))
      n.add(".satfinite on " + pair() + "." + stringifyRoundingMode(*rounding),
            100);
  } else if (to == TypeKind::tf32 || from == TypeKind::tf32)
    n.add(".tf32", 80);
  for (TypeKind t : n.types)
    if (t == TypeKind::e4m3x2 || t == TypeKind::e5m2x2)
      n.add("cvt with .e4m3x2/.e5m2x2", 89);
  if (to == TypeKind::f16x2 && from == TypeKind::f32)
    n.add("cvt.f16x2.f32", 80);
  if (to == TypeKind::bf16x2 || from == TypeKind::bf16x2)
    n.add(".bf16x2", 80);
  // bf16 to or from f32 from sm_80; to or from anything else from sm_90.
  if (to == TypeKind::bf16 || from == TypeKind::bf16) {
    TypeKind other = to == TypeKind::bf16 ? from : to;
    n.add(other == TypeKind::f32 ? std::string(".bf16") : pair(),
          other == TypeKind::f32 ? 80 : 90);
  }
  if (mods.has(Flag::relu))
    n.add(".relu", 80);
  if (mods.has(Flag::satfinite))
    n.add(".satfinite", 70);
  if (rounding == RoundingMode::rs)
    n.add(".rs", 100, /*arch=*/true);
}

/// Whole instructions (families) and their forms.
void instructionFamilyNeeds(Needs &n) {
  ModifiersAttr mods = n.mods;
  StringRef m = n.m;
  if (n.is({"dp4a", "dp2a"}))
    n.add(m, 61);
  if (n.is({"alloca", "stacksave", "stackrestore"}))
    n.add(m, 52);
  if (n.is({"nanosleep", "match", "szext", "bmsk", "fence"}))
    n.add(m, 70);
  // (ptxas: "Instruction 'tensormap.replace' not supported on .target
  // 'sm_90'"; seed 45.)
  if (n.is({"tensormap.replace"}))
    n.add(m, 90, /*arch=*/true);
  if (n.is({"membar"}) && mods.has(Flag::proxy))
    n.add(".alias", 60);
  if (n.is({"fence"}) && mods.has(Flag::async))
    n.add(".async", 90);
  if (n.is({"fence"}))
    if (mlir::ArrayAttr extras = mods.getExtras())
      for (mlir::Attribute e : extras) {
        StringRef word = llvm::cast<mlir::StringAttr>(e).getValue();
        if (word.starts_with("tensormap") || word == "mbarrier_init")
          n.add("fence." + word, 90);
      }
  if (n.is({"ldmatrix"})) {
    n.add(m, 75);
    if (mods.getShape() == llvm::ArrayRef<int64_t>{16, 16})
      n.add("ldmatrix.m16n16", 100, /*arch=*/true);
  }
  if (n.is({"redux"})) {
    n.add(m, 80);
    if (n.hasType(TypeKind::f32))
      n.add("redux.f32", 100, /*arch=*/true);
  }
  if (m.starts_with("mbarrier.")) {
    bool tx = n.is({"mbarrier.try_wait", "mbarrier.expect_tx",
                    "mbarrier.complete_tx"}) ||
              mods.has(Flag::expect_tx);
    n.add(m, tx ? 90 : 80);
  }
  if (n.is({"cp.async", "cp.async.commit_group", "cp.async.wait_group",
            "cp.async.wait_all", "cp.async.mbarrier.arrive", "applypriority",
            "discard", "createpolicy"}))
    n.add(m, 80);
  if (m.starts_with("cp.async.bulk") || m.starts_with("cp.reduce.async.bulk") ||
      m.starts_with("multimem.") || m.starts_with("barrier.cluster.") ||
      n.is({"elect", "griddepcontrol", "mapa", "getctarank", "st.async",
            "red.async", "stmatrix"}))
    n.add(m, 90);
  if (n.is({"setmaxnreg"}) || m.starts_with("wgmma."))
    n.add(m, 90, /*arch=*/true);
}

} // namespace

SmallVector<TargetNeed, 2>
zluda::frontend::instructionNeeds(StringRef mnemonic, ModifiersAttr mods,
                                  unsigned numOperands) {
  Needs n(mnemonic, mods);
  memoryNeeds(n);
  atomicNeeds(n);
  arithmeticNeeds(n, numOperands);
  conversionNeeds(n);
  instructionFamilyNeeds(n);
  if (n.hasType(TypeKind::b128) && !n.is({"atom", "red"}))
    n.add("Type .b128", 70);
  return std::move(n.out);
}

std::optional<TargetNeed> zluda::frontend::specialRegisterNeed(SReg reg) {
  switch (reg) {
  case SReg::clusterid:
  case SReg::nclusterid:
  case SReg::cluster_ctaid:
  case SReg::cluster_nctaid:
  case SReg::cluster_ctarank:
  case SReg::cluster_nctarank:
  case SReg::is_explicit_cluster:
  case SReg::aggr_smem_size:
    return TargetNeed{"%" + stringifySReg(reg).str(), 90};
  case SReg::reserved_smem_offset_begin:
  case SReg::reserved_smem_offset_end:
  case SReg::reserved_smem_offset_cap:
  case SReg::reserved_smem_offset_0:
  case SReg::reserved_smem_offset_1:
    return TargetNeed{"%" + stringifySReg(reg).str(), 80};
  default:
    return std::nullopt;
  }
}

std::optional<Flag> zluda::frontend::firstFlag(ModifiersAttr mods,
                                               uint64_t mask) {
  uint64_t set = static_cast<uint64_t>(mods.getFlags()) & mask;
  if (!set)
    return std::nullopt;
  return static_cast<Flag>(set & -set);
}

std::optional<TargetNeed> zluda::frontend::typeNeed(TypeKind type) {
  if (type == TypeKind::b128)
    return TargetNeed{"Type .b128", 70};
  return std::nullopt;
}
