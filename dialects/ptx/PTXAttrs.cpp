//===- PTXAttrs.cpp - Attributes of the ptx dialect -----------------------===//

#include "dialects/ptx/PTXDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace zluda::ptx;

#include "dialects/ptx/PTXEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ptx/PTXAttrs.cpp.inc"

void PTXDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/ptx/PTXAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Modifiers
//===----------------------------------------------------------------------===//

ModifiersAttr ModifierBuilder::get(MLIRContext *ctx) const {
  ArrayAttr extrasAttr =
      extras.empty() ? ArrayAttr() : ArrayAttr::get(ctx, extras);
  return ModifiersAttr::get(ctx, types, spaces, rounding, cmp, boolOp, cache,
                            sem, scope, redOp, mode, geometry, vec,
                            static_cast<Flag>(flags), shape, count, extrasAttr);
}

namespace {
/// Parses `.mMnNkK` / `.mMnN` shapes.
bool parseShape(StringRef tok, SmallVectorImpl<int64_t> &shape) {
  if (!tok.consume_front("m"))
    return false;
  SmallVector<int64_t, 3> dims;
  for (char letter : {'\0', 'n', 'k'}) {
    if (letter && !tok.consume_front(StringRef(&letter, 1)))
      break;
    size_t n = tok.find_first_not_of("0123456789");
    StringRef digits = tok.substr(0, n);
    int64_t v;
    if (digits.empty() || digits.getAsInteger(10, v))
      return false;
    dims.push_back(v);
    tok = tok.drop_front(digits.size());
  }
  if (!tok.empty() || dims.size() < 2)
    return false;
  shape.assign(dims.begin(), dims.end());
  return true;
}

/// The one-word tags of the standalone `#ptx.mods<...>` form.
struct ClassTag {
  uint32_t cls;
  const char *tag;
};
constexpr ClassTag kClassTags[] = {
    {mc::SEM, "sem"},     {mc::SCOPE, "scope"}, {mc::SP, "space"},
    {mc::CACHE, "cache"}, {mc::MODE, "mode"},   {mc::CMP, "cmp"},
    {mc::BOOL, "bool"},   {mc::RED, "red"},     {mc::RND, "rnd"},
    {mc::GEOM, "geom"},   {mc::SHAPE, "shape"}, {mc::COUNT, "count"},
    {mc::VEC, "vec"},     {mc::FL, "flag"},     {mc::EXTRA, "x"},
    {mc::T, "type"},
};
} // namespace

std::optional<std::string> ModifierBuilder::addAs(MLIRContext *ctx,
                                                  uint32_t cls, StringRef tok) {
  auto dup = [&](StringRef what) -> std::optional<std::string> {
    return ("duplicate " + what + " modifier '." + tok + "'").str();
  };
  auto setOnce = [&](auto &slot, auto value,
                     StringRef what) -> std::optional<std::string> {
    if (!value)
      return ("'." + tok + "' is not a " + what).str();
    if (slot)
      return dup(what);
    slot = *value;
    return std::nullopt;
  };
  switch (cls) {
  case mc::T:
    if (auto t = symbolizeTypeKind(tok)) {
      types.push_back(*t);
      return std::nullopt;
    }
    return ("'." + tok + "' is not a type").str();
  case mc::SP:
    if (auto s = symbolizeStateSpace(tok)) {
      spaces.push_back(*s);
      return std::nullopt;
    }
    return ("'." + tok + "' is not a state space").str();
  case mc::RND:
    return setOnce(rounding, symbolizeRoundingMode(tok), "rounding");
  case mc::CMP:
    return setOnce(cmp, symbolizeCmpOp(tok), "comparison");
  case mc::BOOL:
    return setOnce(boolOp, symbolizeBoolOp(tok), "boolean operation");
  case mc::CACHE:
    return setOnce(cache, symbolizeCacheOp(tok), "cache operator");
  case mc::SEM:
    return setOnce(sem, symbolizeMemSemantics(tok), "memory semantics");
  case mc::SCOPE:
    return setOnce(scope, symbolizeMemScope(tok), "scope");
  case mc::RED:
    return setOnce(redOp, symbolizeReduceOp(tok), "reduction operation");
  case mc::MODE:
    return setOnce(mode, symbolizeMode(tok), "mode");
  case mc::GEOM:
    return setOnce(geometry, symbolizeGeometry(tok), "geometry");
  case mc::VEC: {
    unsigned n;
    StringRef digits = tok;
    if (!digits.consume_front("v") || digits.getAsInteger(10, n) ||
        !(n == 2 || n == 4 || n == 8))
      return ("'." + tok + "' is not a vector width").str();
    if (vec)
      return dup("vector");
    vec = n;
    return std::nullopt;
  }
  case mc::SHAPE:
    if (!shape.empty())
      return dup("shape");
    if (!parseShape(tok, shape))
      return ("'." + tok + "' is not a matrix shape").str();
    return std::nullopt;
  case mc::COUNT: {
    unsigned n;
    StringRef digits = tok;
    if (!digits.consume_front("x") || digits.getAsInteger(10, n) || n == 0)
      return ("'." + tok + "' is not a count").str();
    if (count)
      return dup("count");
    count = n;
    return std::nullopt;
  }
  case mc::FL: {
    auto f = symbolizeFlag(tok);
    if (!f || llvm::popcount(static_cast<uint64_t>(*f)) != 1)
      return ("'." + tok + "' is not a flag").str();
    uint64_t bit = static_cast<uint64_t>(*f);
    // ptxas takes some flags twice (shfl.sync.sync, add.sat.sat,
    // rsqrt.approx.f32.approx, min.NaN.NaN, cvt.relu.relu, add.cc.cc,
    // bfind.shiftamt.shiftamt; the differential fuzzer, seed 37) and
    // refuses any other twice ("Duplicate .ftz modifier").
    constexpr uint64_t twiceTaken =
        static_cast<uint64_t>(Flag::sync) | static_cast<uint64_t>(Flag::sat) |
        static_cast<uint64_t>(Flag::approx) | static_cast<uint64_t>(Flag::NaN) |
        static_cast<uint64_t>(Flag::relu) | static_cast<uint64_t>(Flag::cc) |
        static_cast<uint64_t>(Flag::satfinite) |
        static_cast<uint64_t>(Flag::shiftamt) |
        static_cast<uint64_t>(Flag::uni);
    if ((flags & bit) && !(bit & twiceTaken))
      return dup("flag");
    flags |= bit;
    return std::nullopt;
  }
  case mc::EXTRA:
    extras.push_back(StringAttr::get(ctx, tok));
    return std::nullopt;
  }
  return ("unknown modifier class for '." + tok + "'").str();
}

std::optional<std::string> ModifierBuilder::add(MLIRContext *ctx, StringRef tok,
                                                const InstSpec &spec) {
  auto accepts = [&](uint32_t cls) { return spec.accepts(cls); };
  if (accepts(mc::T) && symbolizeTypeKind(tok))
    return addAs(ctx, mc::T, tok);
  if (accepts(mc::SP) && symbolizeStateSpace(tok))
    return addAs(ctx, mc::SP, tok);
  if (accepts(mc::RND) && symbolizeRoundingMode(tok))
    return addAs(ctx, mc::RND, tok);
  if (accepts(mc::CMP) && symbolizeCmpOp(tok))
    return addAs(ctx, mc::CMP, tok);
  if (accepts(mc::BOOL) && symbolizeBoolOp(tok))
    return addAs(ctx, mc::BOOL, tok);
  if (accepts(mc::CACHE) && symbolizeCacheOp(tok))
    return addAs(ctx, mc::CACHE, tok);
  if (accepts(mc::SEM) && symbolizeMemSemantics(tok))
    return addAs(ctx, mc::SEM, tok);
  if (accepts(mc::SCOPE) && symbolizeMemScope(tok))
    return addAs(ctx, mc::SCOPE, tok);
  if (accepts(mc::RED) && symbolizeReduceOp(tok))
    return addAs(ctx, mc::RED, tok);
  if (accepts(mc::MODE) && symbolizeMode(tok))
    return addAs(ctx, mc::MODE, tok);
  if (accepts(mc::GEOM) && symbolizeGeometry(tok))
    return addAs(ctx, mc::GEOM, tok);
  if (accepts(mc::VEC) && tok.size() >= 2 && tok[0] == 'v' &&
      llvm::all_of(tok.drop_front(), llvm::isDigit))
    return addAs(ctx, mc::VEC, tok);
  SmallVector<int64_t, 3> shapeProbe;
  if (accepts(mc::SHAPE) && parseShape(tok, shapeProbe))
    return addAs(ctx, mc::SHAPE, tok);
  if (accepts(mc::COUNT) && tok.size() >= 2 && tok[0] == 'x' &&
      llvm::all_of(tok.drop_front(), llvm::isDigit))
    return addAs(ctx, mc::COUNT, tok);
  if (auto f = symbolizeFlag(tok)) {
    if (accepts(mc::FL) && (static_cast<uint64_t>(*f) & spec.flags))
      return addAs(ctx, mc::FL, tok);
  }
  if (accepts(mc::EXTRA))
    return addAs(ctx, mc::EXTRA, tok);
  return ("unknown modifier '." + tok + "'").str();
}

void zluda::ptx::forEachModifier(
    ModifiersAttr mods,
    llvm::function_ref<void(uint32_t cls, StringRef tok)> fn) {
  std::string buf;
  if (auto v = mods.getSem())
    fn(mc::SEM, stringifyMemSemantics(*v));
  if (auto v = mods.getScope())
    fn(mc::SCOPE, stringifyMemScope(*v));
  for (StateSpace s : mods.getSpaces())
    fn(mc::SP, stringifyStateSpace(s));
  if (auto v = mods.getCache())
    fn(mc::CACHE, stringifyCacheOp(*v));
  if (auto v = mods.getMode())
    fn(mc::MODE, stringifyMode(*v));
  if (auto v = mods.getCmp())
    fn(mc::CMP, stringifyCmpOp(*v));
  if (auto v = mods.getBoolOp())
    fn(mc::BOOL, stringifyBoolOp(*v));
  if (auto v = mods.getRedOp())
    fn(mc::RED, stringifyReduceOp(*v));
  if (auto v = mods.getRounding())
    fn(mc::RND, stringifyRoundingMode(*v));
  if (auto v = mods.getGeometry())
    fn(mc::GEOM, stringifyGeometry(*v));
  if (!mods.getShape().empty()) {
    ArrayRef<int64_t> s = mods.getShape();
    buf = "m" + std::to_string(s[0]) + "n" + std::to_string(s[1]);
    if (s.size() > 2)
      buf += "k" + std::to_string(s[2]);
    fn(mc::SHAPE, buf);
  }
  if (mods.getCount()) {
    buf = "x" + std::to_string(mods.getCount());
    fn(mc::COUNT, buf);
  }
  if (mods.getVec()) {
    buf = "v" + std::to_string(mods.getVec());
    fn(mc::VEC, buf);
  }
  uint64_t flags = static_cast<uint64_t>(mods.getFlags());
  for (unsigned bit = 0; bit < 64; ++bit)
    if (flags & (uint64_t(1) << bit))
      fn(mc::FL, stringifyFlag(static_cast<Flag>(uint64_t(1) << bit)));
  if (ArrayAttr extras = mods.getExtras())
    for (Attribute e : extras)
      fn(mc::EXTRA, cast<StringAttr>(e).getValue());
  for (TypeKind t : mods.getTypes())
    fn(mc::T, stringifyTypeKind(t));
}

void zluda::ptx::printModifiers(llvm::raw_ostream &os, ModifiersAttr mods) {
  bool first = true;
  forEachModifier(mods, [&](uint32_t, StringRef tok) {
    if (!first)
      os << '.';
    first = false;
    os << tok;
  });
}

// Standalone form, used where no opcode is known (generic op syntax):
// `#ptx.mods<"rnd:rn flag:ftz type:f32">`, each modifier tagged with its class.
void ModifiersAttr::print(AsmPrinter &printer) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  forEachModifier(*this, [&](uint32_t cls, StringRef tok) {
    for (const ClassTag &t : kClassTags)
      if (t.cls == cls) {
        os << (first ? "" : " ") << t.tag << ':' << tok;
        first = false;
      }
  });
  printer << "<\"" << text << "\">";
}

Attribute ModifiersAttr::parse(AsmParser &parser, Type) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseString(&text) || parser.parseGreater())
    return {};
  ModifierBuilder b;
  SmallVector<StringRef> items;
  StringRef(text).split(items, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    auto [tag, tok] = item.split(':');
    const ClassTag *found = nullptr;
    for (const ClassTag &t : kClassTags)
      if (tag == t.tag)
        found = &t;
    if (!found) {
      parser.emitError(loc) << "unknown modifier class '" << tag << "'";
      return {};
    }
    if (auto err = b.addAs(parser.getContext(), found->cls, tok)) {
      parser.emitError(loc) << *err;
      return {};
    }
  }
  return b.get(parser.getContext());
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

void zluda::ptx::printSpecialReg(llvm::raw_ostream &os, SpecialRegAttr reg) {
  if (reg.getReg() == SReg::pm_64)
    os << "pm" << reg.getIndex() << "_64";
  else if (reg.getIndex() >= 0)
    os << stringifySReg(reg.getReg()) << reg.getIndex();
  else
    os << stringifySReg(reg.getReg());
  if (reg.getDim())
    os << '.' << reg.getDim();
}

void SpecialRegAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printSpecialReg(printer.getStream(), *this);
  printer << ">";
}

Attribute SpecialRegAttr::parse(AsmParser &parser, Type) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  // `tid.x` is one bare identifier for MLIR's lexer; `envreg3` too.
  StringRef word;
  if (parser.parseOptionalKeyword(&word)) {
    if (parser.parseString(&text))
      return {};
    word = text;
  }
  auto reg = parseSpecialRegName(parser.getContext(), word);
  if (!reg) {
    parser.emitError(loc) << "unknown special register '" << word << "'";
    return {};
  }
  if (parser.parseGreater())
    return {};
  return reg;
}

SpecialRegAttr zluda::ptx::parseSpecialRegName(MLIRContext *ctx,
                                               StringRef name) {
  char dim = 0;
  auto [base, suffix] = name.split('.');
  if (!suffix.empty()) {
    if (suffix.size() != 1 || !StringRef("xyz").contains(suffix[0]))
      return {};
    dim = suffix[0];
  }
  int64_t index = -1;
  // %envreg<n>, %pm<n>, %pm<n>_64 carry an index.
  for (StringRef prefix : {"envreg", "pm"}) {
    if (!base.starts_with(prefix) || base == prefix)
      continue;
    StringRef rest = base.drop_front(prefix.size());
    bool is64 = rest.consume_back("_64");
    if (!rest.empty() && llvm::all_of(rest, llvm::isDigit) &&
        !rest.getAsInteger(10, index)) {
      base = is64 ? StringRef("pm_64") : prefix;
      break;
    }
    index = -1;
  }
  auto kind = symbolizeSReg(base);
  if (!kind)
    return {};
  bool hasIndex =
      *kind == SReg::envreg || *kind == SReg::pm || *kind == SReg::pm_64;
  if (hasIndex != (index >= 0))
    return {};
  bool isVector = *kind == SReg::tid || *kind == SReg::ntid ||
                  *kind == SReg::ctaid || *kind == SReg::nctaid ||
                  *kind == SReg::clusterid || *kind == SReg::nclusterid ||
                  *kind == SReg::cluster_ctaid || *kind == SReg::cluster_nctaid;
  if (dim && !isVector)
    return {};
  return SpecialRegAttr::get(ctx, *kind, dim, index);
}
