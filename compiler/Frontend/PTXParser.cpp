//===- PTXParser.cpp - PTX text to the ptx dialect ------------------------===//
//
// Structure: `Parser` reads module-level directives and declarations;
// `FunctionBuilder` (one per kernel or function body) reads statements and
// builds SSA on the fly. Registers are variables in the sense of Braun et al.:
// each block records its last definition of each variable; reading a variable
// in a block that does not define it looks through the predecessors, adding
// block arguments (phis) where control flow merges. Blocks that begin at a
// label get further predecessors until the end of the body (a later backward
// branch), so they are sealed only then; trivial phis are removed on the way.
// Terminators are created last, once every phi and its incoming values are
// known.
//
//===----------------------------------------------------------------------===//

#include "compiler/Frontend/PTXParser.h"
#include "compiler/Frontend/ModifierWords.h"
#include "compiler/Frontend/PTXLexer.h"
#include "compiler/Frontend/TargetFeatures.h"

#include "dialects/ptx/PTXDialect.h"
#include "dialects/ptx/PTXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/StringSaver.h"

#include <cstdint>
#include <functional>
#include <memory>

#include <sys/mman.h>
#include <unistd.h>

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::frontend;

namespace {

//===----------------------------------------------------------------------===//
// Syntactic operands
//===----------------------------------------------------------------------===//

struct ParsedOperand {
  enum Kind {
    Name,    ///< register, parameter, variable, function or label
    NotName, ///< `!%p`
    Int,     ///< integer literal (two's complement in 64 bits)
    Float,   ///< float literal; `bits` and `floatWidth` for 0f/0d forms
    SReg,    ///< `%tid.x`
    Addr,    ///< `[base+offset]`; `elems` holds the base (or a list for tex)
    Vec,     ///< `{a, b}`
    Pair,    ///< `%p|%q`
    Sink,    ///< `_`
  };
  Kind kind;
  Token tok;
  StringRef name;
  uint64_t intValue = 0;
  double floatValue = 0;
  uint64_t bits = 0;
  unsigned floatWidth = 0; ///< 32 for 0f, 64 for 0d, 0 for decimal
  int64_t offset = 0;
  /// A Name written with an offset, `%r1+4` or `sym+-8` (ptxas accepts it
  /// wherever a source operand may be): its value plus `offset`.
  bool hasOffset = false;
  SpecialRegAttr sreg;
  StringRef selector; ///< video operand selector (`b0`, `h1`, `b3210`)
  std::vector<ParsedOperand> elems;

  bool isLiteral() const { return kind == Int || kind == Float; }
};

/// A `.param`/`.reg` declaration of a kernel, function or prototype.
struct ParamDecl {
  ParamAttr attr;
  Token tok;
};

/// Parses integer literal text (hex, binary, octal, decimal; `U` suffix);
/// nothing when it is malformed or does not fit in 64 bits.
std::optional<uint64_t> parseIntText(StringRef text) {
  if (text.ends_with("U") || text.ends_with("u"))
    text = text.drop_back();
  unsigned radix = 10;
  if (text.size() > 1 && text[0] == '0') {
    char k = text[1] | 0x20;
    if (k == 'x' || k == 'b') {
      radix = k == 'x' ? 16 : 2;
      text = text.drop_front(2);
    } else {
      radix = 8;
      text = text.drop_front();
    }
  }
  if (text.empty())
    return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit;
    if (c >= '0' && c <= '9')
      digit = c - '0';
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
      digit = (c | 0x20) - 'a' + 10;
    else
      return std::nullopt;
    if (digit >= radix || value > (UINT64_MAX - digit) / radix)
      return std::nullopt;
    value = value * radix + digit;
  }
  return value;
}

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

class FunctionBuilder;

class Parser {
public:
  Parser(llvm::SourceMgr &sm, MLIRContext *ctx)
      : text(sm.getMemoryBuffer(sm.getMainFileID())), ctx(ctx), builder(ctx),
        lexer(text->getBuffer()) {
    fileName = StringAttr::get(ctx, text->getBufferIdentifier());
    prescanFiles(text->getBuffer());
    prescanBranches(text->getBuffer());
    consume();
  }

  OwningOpRef<ModuleOp> parseModule();
  ParseOptions options;
  /// The text, and how much of it has been given back (releaseMappedText).
  const llvm::MemoryBuffer *text;
  const char *released = nullptr;
  void prescanFiles(StringRef buffer);
  void prescanBranches(StringRef buffer);

  // Token handling -----------------------------------------------------------
  const Token &peek() const { return tok; }
  Token consume() {
    Token t = tok;
    tok = lexer.next();
    return t;
  }
  bool consumeIf(Token::Kind k) {
    if (!tok.is(k))
      return false;
    consume();
    return true;
  }
  bool consumeIfDot(StringRef word) {
    if (!tok.isDot(word))
      return false;
    consume();
    return true;
  }

  Location loc(const Token &t) {
    return FileLineColLoc::get(fileName, t.line, t.col);
  }
  /// Location of an op: the PTX position, fused with the CUDA source
  /// position of the last `.loc` when there is one.
  Location opLoc(const Token &t) {
    Location ptxLoc = loc(t);
    if (!debugLoc)
      return ptxLoc;
    return FusedLoc::get(ctx, {ptxLoc, *debugLoc});
  }

  static std::string describe(const Token &t) {
    if (t.is(Token::Eof))
      return "end of file";
    if (t.is(Token::Error) && t.text == "/*")
      return "'/*' (a comment without its '*/')";
    return ("'" + t.text + "'").str();
  }
  InFlightDiagnostic error(const Token &t, const Twine &msg) {
    InFlightDiagnostic diag = emitError(loc(t), msg);
    if (!currentFunction.empty())
      diag.attachNote() << "in '" << currentFunction << "'";
    return diag;
  }
  LogicalResult expect(Token::Kind k, StringRef what) {
    if (consumeIf(k))
      return success();
    return error(tok, "expected " + what + " but found " + describe(tok));
  }
  LogicalResult expectIdent(Token &out, StringRef what) {
    if (!tok.is(Token::Ident))
      return error(tok, "expected " + what + " but found " + describe(tok));
    out = consume();
    return success();
  }
  LogicalResult parseInt(int64_t &out, StringRef what);
  LogicalResult parseUnsignedList(SmallVectorImpl<int32_t> &out,
                                  StringRef what);

  // Declarations -------------------------------------------------------------
  LogicalResult parseDirective(Operation *moduleOp);
  LogicalResult parseFileDirective();
  LogicalResult parseLocDirective();
  LogicalResult skipSection();
  LogicalResult parseFunction(std::optional<Linkage> linkage, bool isEntry);
  LogicalResult parseParamList(SmallVectorImpl<ParamDecl> &out, bool isEntry);
  LogicalResult parseParam(ParamDecl &out, bool isEntry);
  /// `[N][M]...` after a name; 0 for `[]`.
  LogicalResult parseArrayDims(SmallVectorImpl<int64_t> &dims);
  /// Parses `[linkage] .space [.align N] [.vN] .type name[dims] [= init]`
  /// after the linkage; creates GlobalOps, or LocalVarOps in `fn`.
  LogicalResult parseVariableDecl(std::optional<Linkage> linkage,
                                  FunctionBuilder *fn);
  /// The elements of a `{...}` list after its `{`.
  LogicalResult parseInitList(TypeKind type, Attribute &out);
  /// How deep parseInitList is in nested initializer lists.
  unsigned initDepth = 0;
  /// `outermost`: flat number lists there become dense attributes.
  LogicalResult parseInitializer(TypeKind type, Attribute &out,
                                 bool outermost = true);
  LogicalResult parseInitElement(TypeKind type, Attribute &out);
  /// The bits (register width) of a numeric initializer element `t`.
  FailureOr<llvm::APInt> numericInitBits(TypeKind type, bool neg,
                                         const Token &t);
  FailureOr<Attribute> parseSymbolInit(uint64_t mask);

  MLIRContext *ctx;
  /// Names made while parsing (a vector register's components).
  llvm::BumpPtrAllocator names;
  llvm::StringSaver saved{names};
  OpBuilder builder;
  Lexer lexer;
  Token tok;
  StringAttr fileName;
  /// `.address_size`: the width of absolute addresses.
  int64_t addressSize = 64;
  /// `.version` as major * 10 + minor (PTX ISA minors are one digit).
  unsigned ptxVersion = 0;
  /// The type a variable, parameter or register in `space` is declared
  /// with. The sub-byte integers, .bf16/.bf16x2, .tf32, the narrow floats and
  /// the packed pairs but .f16x2 are instruction types only (ptxas: "Parsing
  /// error near '.bf16'", "Type .e4m3 may only be used as an instruction
  /// type"); a predicate lives in a register ("Predicate variable ... must be
  /// in register state space"), a .f16x2 in no .param ("cannot be allocated
  /// in .param state space"); .b128 values are PTX ISA 8.3's (ptxas:
  /// "Feature 'Type .b128' requires PTX ISA .version 8.3 or later"). Found
  /// by the ptxas differential fuzzer, seed 13, and checked type by type.
  LogicalResult checkDeclaredType(const Token &at, TypeKind type,
                                  StateSpace space) {
    using T = TypeKind;
    bool stored = llvm::is_contained(
        {T::b8,     T::b16,        T::b32,    T::b64, T::b128, T::u8,
         T::u16,    T::u32,        T::u64,    T::s8,  T::s16,  T::s32,
         T::s64,    T::f16,        T::f16x2,  T::f32, T::f64,  T::pred,
         T::texref, T::samplerref, T::surfref},
        type);
    if (!stored) {
      unsigned width = getTypeBitWidth(type);
      return error(at, "type ." + stringifyTypeKind(type) +
                           " is an instruction type only" +
                           (width >= 8 ? "; declare " + Twine(width) +
                                             "-bit "
                                             "values .b" +
                                             Twine(width)
                                       : Twine()));
    }
    if (type == TypeKind::pred && space != StateSpace::reg)
      return error(at, "a .pred is declared in .reg, not ." +
                           stringifyStateSpace(space));
    if (type == TypeKind::f16x2 && space == StateSpace::param)
      return error(at, "a .f16x2 cannot be a .param; declare it .b32");
    if (type == TypeKind::b128 && ptxVersion < 83)
      return error(at, "type .b128 needs .version 8.3 or later");
    if (std::optional<TargetNeed> need = typeNeed(type))
      return checkTarget(at, *need);
    return success();
  }
  /// The processor `.target` names (none: nothing is checked against it).
  std::optional<SmTarget> smTarget;
  /// ptxas refuses what the module's processor does not have.
  LogicalResult checkTarget(const Token &at, const TargetNeed &need) {
    if (!smTarget || need.metBy(*smTarget))
      return success();
    return error(at, "'" + need.feature + "' requires .target " +
                         need.required() + "; this module's .target is " +
                         smTarget->str());
  }
  ModuleOp module;
  std::string currentFunction;
  std::optional<Location> debugLoc;
  llvm::DenseMap<int64_t, StringAttr> files;
  /// Module symbols and the address space of their address.
  llvm::StringMap<StateSpace> symbols;
  /// The module's texture, sampler and surface references.
  llvm::StringSet<> handles;
  /// Function prototypes: (return params, params) by name, for calls.
  llvm::StringMap<std::pair<SmallVector<ParamDecl>, SmallVector<ParamDecl>>>
      functions;
  bool reportedSections = false;
  SmallVector<Attribute> modulePragmas;
  /// How many `bra` instructions name each label (over the whole module),
  /// and the labels that `.branchtargets` lists name. A label block whose
  /// branches have all been seen can be sealed early (see FunctionBuilder).
  llvm::StringMap<unsigned> branchRefs;
  llvm::DenseMap<const InstSpec *, OperationName> opNames;
  llvm::StringSet<> indirectTargets;
};

//===----------------------------------------------------------------------===//
// FunctionBuilder: statements and on-the-fly SSA construction
//===----------------------------------------------------------------------===//

struct TerminatorIntent {
  enum Kind { None, Bra, CondBra, BrxIdx, Ret, Exit } kind = None;
  LocationAttr loc;
  Value value;
  SmallVector<Value> values; ///< `ret`: the .reg return parameters
  Block *dest = nullptr;
  Block *falseDest = nullptr;
  SmallVector<Block *> targets;
  bool uni = false;
};

struct BlockState {
  bool sealed = false;
  /// For label blocks: whether the label was reached, how many branches name
  /// it in the module (-1: unknown, seal at the end), and how many were seen.
  bool defined = false;
  int expectedBranches = -1;
  unsigned seenBranches = 0;
  llvm::DenseMap<unsigned, Value> defs;
  SmallVector<std::pair<BlockArgument, unsigned>> incompletePhis;
  SmallVector<Block *, 2> preds;
  TerminatorIntent term;
};

struct NameEntry {
  /// Vec: a vector register (`.reg .v4 .f32 %v;`), its components the
  /// registers `%v.x`... (`.r`... too), `comps` their variables.
  enum Kind { Reg, Val, Vec } kind;
  unsigned var = 0;
  Value value;
  SmallVector<unsigned, 4> comps = {};
};

struct RegRange {
  unsigned base;
  unsigned count;
};

struct Prototype {
  SmallVector<ParamDecl> rets, params;
};

class FunctionBuilder {
public:
  FunctionBuilder(Parser &p, Operation *fnOp, Region &body)
      : p(p), fnOp(fnOp), body(body), builder(p.ctx) {}

  LogicalResult parseBody(ArrayRef<ParamDecl> rets, ArrayRef<ParamDecl> params);

  /// How deep parseOperand is in nested operands.
  unsigned operandDepth = 0;

  // Scopes and names.
  void pushScope() {
    scopes.emplace_back();
    ranges.emplace_back();
  }
  void popScope() {
    scopes.pop_back();
    ranges.pop_back();
  }
  const NameEntry *lookup(StringRef name);
  /// The PTX type the register operand `o` was declared with; none for
  /// other operands and the parser's own variables.
  std::optional<TypeKind> declaredType(const ParsedOperand &o) {
    // (`!%p` is its register's value negated: of its type.)
    if (o.kind != ParsedOperand::Name && o.kind != ParsedOperand::NotName)
      return std::nullopt;
    const NameEntry *e = lookup(o.name);
    if (!e || e->kind != NameEntry::Reg || e->var >= varKinds.size())
      return std::nullopt;
    return varKinds[e->var];
  }
  void declareValue(StringRef name, Value v) {
    scopes.back()[name] = NameEntry{NameEntry::Val, 0, v};
  }
  unsigned newVar(Type type, std::optional<TypeKind> kind = std::nullopt) {
    varTypes.push_back(type);
    varKinds.push_back(kind);
    return varTypes.size() - 1;
  }

  Parser &p;
  Operation *fnOp;
  Region &body;
  OpBuilder builder;
  /// Location of the instruction being parsed: every op it creates (its
  /// immediates, addresses, special-register reads) shares it.
  std::optional<Location> instLoc;
  Location here(const Token &t) { return instLoc ? *instLoc : p.opLoc(t); }
  /// The instruction being read as written: mnemonic and modifiers.
  StringRef instSpelling;
  /// The modifiers as written after `mnemonic`, in order (what some keep
  /// nowhere else: tex's .level, mbarrier's .expect_tx, where .cc stands).
  SmallVector<StringRef> spelledModifiers(StringRef mnemonic) const {
    SmallVector<StringRef> words;
    instSpelling.drop_front(mnemonic.size()).split(words, '.', -1, false);
    return words;
  }

private:
  // Statements.
  LogicalResult parseStatement();
  LogicalResult parseRegDecl();
  LogicalResult parseLabelStatement(const Token &name);
  LogicalResult parseInstruction(const Token &opTok, const Token *guardTok,
                                 bool guardNegated);
  /// A branch's modifiers: `.uni` or none; whether it is uniform.
  FailureOr<bool> branchUniformity(StringRef mnemonic, ArrayRef<Token> modToks);
  LogicalResult parseUnguarded(const Token &opTok, StringRef mnemonic,
                               const InstSpec *spec, ArrayRef<Token> modToks);
  LogicalResult parseOperand(ParsedOperand &out);
  LogicalResult parseAddress(ParsedOperand &out);
  LogicalResult parseCall(const Token &opTok, bool uni);
  LogicalResult parseBranch(const Token &opTok, bool uni, Value guard,
                            bool guardNegated);
  LogicalResult parsePrototype(const Token &name);
  LogicalResult parseTargetList(const Token &name, bool isBranchTargets);

  // Instruction building.
  /// A literal `o` where an instruction of type `inst` takes an operand of
  /// type `want`: refused when of the other kind (an integer for a float,
  /// a float for .s/.u; .b takes either), with `noHalves` for 16-bit floats
  /// and their pairs at all.
  LogicalResult checkLiteral(const ParsedOperand &o, StringRef mnemonic,
                             TypeKind inst, TypeKind want, bool noHalves);
  /// Types and modifiers ptxas pairs: arithmetic on .b types, atom/red
  /// without a type, div's rounding, .ftz on what has no denormals to
  /// flush, cvt's rounding by the kinds it converts between.
  LogicalResult checkModifiers(const Token &opTok, StringRef mnemonic,
                               ModifiersAttr mods);
  /// tex, suld and sust as ptxas reads them: geometry, clamp, types,
  /// vector width and operands.
  LogicalResult checkTextureSurface(const Token &opTok, StringRef mnemonic,
                                    ModifiersAttr mods,
                                    ArrayRef<ParsedOperand> operands);
  /// tex's operands, register by register (ptxas: "Arguments mismatch"):
  /// results of the result type, the texture handle, coordinates by the
  /// geometry, offsets, depth, level of detail and gradients.
  /// A texture's or surface's [handle, {coordinates}]: a 64-bit handle,
  /// as many coordinates as the geometry has; the coordinates.
  LogicalResult checkHandle(const ParsedOperand &addr, StringRef where,
                            StringRef kind);
  FailureOr<ArrayRef<ParsedOperand>>
  checkImageAddress(const ParsedOperand &addr, Geometry geom, StringRef where,
                    StringRef kind);
  /// suld's, sust's and sured's operands: the surface handle, coordinates
  /// by the geometry (32-bit integers), values of the type's width.
  LogicalResult checkSurfaceOperands(StringRef mnemonic, ModifiersAttr mods,
                                     ArrayRef<ParsedOperand> operands);
  LogicalResult checkTextureOperands(ModifiersAttr mods,
                                     ArrayRef<ParsedOperand> operands,
                                     bool level, bool grad);
  /// The register `o` names where a 32-bit integer goes, if it is not one
  /// (a predicate, another width, a float unless `floats`).
  std::optional<TypeKind> not32(const ParsedOperand &o, bool floats = false);
  /// "'mnemonic' takes a 32-bit `what`, not the .T register 'o'".
  LogicalResult refuseRegister(StringRef mnemonic, const ParsedOperand &o,
                               TypeKind reg, StringRef what);
  /// A register of `bits` bits where `o` names a register: "`what`, not
  /// the .T register 'o'" otherwise.
  LogicalResult requireBits(const ParsedOperand &o, unsigned bits,
                            const Twine &what);
  /// A predicate where `o` names a register: "'mnemonic' `verb` a
  /// predicate, not the .T register 'o'" otherwise.
  LogicalResult requirePredicate(StringRef mnemonic, const ParsedOperand &o,
                                 StringRef verb);
  /// A bulk copy's mbarrier: an address, or a register or immediate that
  /// holds one.
  LogicalResult requireMbarrierAddress(StringRef mnemonic,
                                       const ParsedOperand &o);
  /// One address, written `[a]`, at operand `addr`; values elsewhere.
  LogicalResult requireOneAddress(StringRef mnemonic,
                                  ArrayRef<ParsedOperand> operands,
                                  size_t addr);
  /// mma(.sp)'s layouts: `.row.col`.
  LogicalResult requireRowCol(const Token &opTok, StringRef mnemonic,
                              ModifiersAttr mods);
  /// mma(.sp)'s shape and D's and C's types, which A's type names.
  LogicalResult checkMmaTypes(const Token &opTok, StringRef mnemonic,
                              ArrayRef<TypeKind> types,
                              ArrayRef<int64_t> shape);
  /// wgmma.mma_async(.sp)'s result type and shape, which A's type names.
  LogicalResult checkWgmmaTypes(const Token &opTok, StringRef mnemonic,
                                ArrayRef<TypeKind> types,
                                ArrayRef<int64_t> shape);
  LogicalResult checkOperandShapes(const Token &opTok, StringRef mnemonic,
                                   ModifiersAttr mods,
                                   ArrayRef<ParsedOperand> operands, bool load,
                                   bool store);
  /// wmma.load/store/mma's fragment, layouts, shape, types, state space
  /// and fragment sizes.
  LogicalResult checkWmmaForms(const Token &opTok, StringRef mnemonic,
                               ModifiersAttr mods,
                               ArrayRef<ParsedOperand> operands);
  /// Types and flags ptxas checks instruction by instruction: brev, the
  /// video instructions, set, cvt's .rna and half destinations, mul on .b
  /// types, st.nc, atom/red's L1 eviction.
  LogicalResult checkTypeAndFlagRules(const Token &opTok, StringRef mnemonic,
                                      ModifiersAttr mods,
                                      ArrayRef<ParsedOperand> operands);
  /// Operand forms ptxas checks instruction by instruction: mov's packing
  /// and vectors, register widths (prmt, dp2a, vote), fragments, immediate
  /// ranges, the mbarrier waits' and cp.async's operands.
  LogicalResult checkOperandKinds(StringRef mnemonic, const InstSpec &spec,
                                  ModifiersAttr mods,
                                  ArrayRef<ParsedOperand> operands);
  /// Whether `o` names a variable (its address), not a register or function.
  bool namesVariable(const ParsedOperand &o);
  /// The state space of the variable `o` names, if it names one.
  std::optional<StateSpace> variableSpace(const ParsedOperand &o);
  LogicalResult checkOperandSignature(StringRef mnemonic, ModifiersAttr mods,
                                      ArrayRef<ParsedOperand> operands);
  /// A vector's registers are of one width (predicates aside).
  LogicalResult checkVectorWidths(ArrayRef<ParsedOperand> operands);
  /// mma's and mma.sp's fragments D, A, B, C: their sizes and registers.
  LogicalResult checkMmaFragments(StringRef mnemonic, ArrayRef<TypeKind> types,
                                  ArrayRef<int64_t> shape,
                                  ArrayRef<ParsedOperand> fragments);
  LogicalResult checkOperandForms(const Token &opTok, StringRef mnemonic,
                                  ModifiersAttr mods,
                                  ArrayRef<ParsedOperand> operands);
  LogicalResult emitInstruction(const Token &opTok, StringRef mnemonic,
                                const InstSpec &spec, ModifiersAttr mods,
                                MutableArrayRef<ParsedOperand> operands);
  FailureOr<Value> materialize(const ParsedOperand &op, Type immType);
  FailureOr<Value> readName(const Token &t, StringRef name);
  FailureOr<Type> destType(const ParsedOperand &op, Type fallback);
  LogicalResult writeDest(const ParsedOperand &op, Value v);
  Type immediateType(StringRef mnemonic, ModifiersAttr mods, unsigned srcIdx,
                     unsigned numSrcs, bool isFloatLiteral);
  FailureOr<Value> makeConstant(const ParsedOperand &op, Type type);
  /// The function's constant `value`, made at its entry when first used.
  Value constant(Location l, TypedAttr value);

  // SSA construction.
  Block *newBlock(bool sealed);
  Block *labelBlock(StringRef name, const Token &use);
  BlockState &state(Block *b) { return *blocks[b]; }
  void addEdge(Block *from, Block *to) { state(to).preds.push_back(from); }
  /// Adds the edge of a branch that names the label of `to`.
  void addBranchEdge(Block *from, Block *to) {
    addEdge(from, to);
    ++state(to).seenBranches;
    trySealLabel(to);
  }
  void trySealLabel(Block *b) {
    BlockState &s = state(b);
    if (s.defined && s.expectedBranches >= 0 &&
        s.seenBranches == static_cast<unsigned>(s.expectedBranches))
      sealBlock(b);
  }
  void ensureBlock();
  void writeVariable(unsigned var, Block *b, Value v) {
    state(b).defs[var] = v;
  }
  Value readVariable(unsigned var, Block *b);
  Value readVariableRecursive(unsigned var, Block *b);
  /// For a block with predecessors {a, b} where b's only predecessor is a and
  /// b does not write `var`, returns a: no phi is needed there.
  Block *diamondHead(BlockState &s, unsigned var) {
    if (s.preds.size() != 2)
      return nullptr;
    for (int i = 0; i < 2; ++i) {
      Block *head = s.preds[i], *side = s.preds[1 - i];
      BlockState &ss = state(side);
      if (ss.sealed && ss.preds.size() == 1 && ss.preds[0] == head &&
          !ss.defs.count(var))
        return head;
    }
    return nullptr;
  }
  Value addPhiOperands(unsigned var, BlockArgument phi);
  Value tryRemoveTrivialPhi(BlockArgument phi);
  void sealBlock(Block *b);
  Value resolve(Value v);
  Value undef(Type type);
  LogicalResult finish(const Token &endTok);

  SmallVector<llvm::StringMap<NameEntry>> scopes;
  SmallVector<llvm::StringMap<RegRange>> ranges;
  std::vector<Type> varTypes;
  /// The PTX type each register was declared with (none for the parser's
  /// own variables), for the operand type checks ptxas makes.
  std::vector<std::optional<TypeKind>> varKinds;
  llvm::DenseMap<Block *, std::unique_ptr<BlockState>> blocks;
  Block *cur = nullptr;
  Block *entry = nullptr;
  llvm::StringMap<Block *> labels;
  llvm::StringMap<Token> labelUses;
  llvm::StringSet<> definedLabels;
  llvm::StringMap<Prototype> prototypes;
  llvm::StringMap<SmallVector<Token>> branchTargets;
  llvm::StringMap<SmallVector<Attribute>> callTargets;
  llvm::DenseMap<Value, unsigned> phiVar;
  llvm::DenseMap<Value, SmallVector<Value>> phiOperands;
  llvm::DenseMap<Value, SmallVector<Value>> phiUsers;
  llvm::DenseMap<Value, Value> replacement;
  llvm::DenseMap<Type, Value> undefs;
  /// The function's literals, one constant each (bounded memory: a
  /// literal is a fifth of a real module's instructions).
  llvm::DenseMap<Attribute, Value> constants;
  /// The last of them (they are in the order of their first use).
  Operation *lastConstant = nullptr;
  llvm::SmallPtrSet<Block *, 8> singlePredVisiting;
  /// The `.reg` return parameters, whose values `ret` returns.
  SmallVector<unsigned> returnVars;
  SmallVector<Attribute> pragmas;
  /// Every block in creation order (detached label blocks included).
  SmallVector<Block *> allBlocks;
};

} // namespace

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

LogicalResult Parser::parseInt(int64_t &out, StringRef what) {
  bool neg = consumeIf(Token::Minus);
  if (!tok.is(Token::Integer))
    return error(tok, "expected " + what + " but found " + describe(tok));
  Token t = consume();
  auto v = parseIntText(t.text);
  if (!v)
    return error(t, "integer literal " + t.text + " does not fit in 64 bits");
  out = neg ? -static_cast<int64_t>(*v) : static_cast<int64_t>(*v);
  return success();
}

LogicalResult Parser::parseUnsignedList(SmallVectorImpl<int32_t> &out,
                                        StringRef what) {
  do {
    int64_t v;
    Token at = tok;
    if (failed(parseInt(v, what)))
      return failure();
    if (v < 0 || v > INT32_MAX)
      return error(at, what + " out of range");
    out.push_back(static_cast<int32_t>(v));
  } while (consumeIf(Token::Comma));
  return success();
}

void Parser::prescanFiles(StringRef buffer) {
  // nvcc writes the `.file` table after the functions whose `.loc`s refer to
  // it, so the table is read first. Only lines starting with `.file` count.
  size_t pos = 0;
  while ((pos = buffer.find(".file", pos)) != StringRef::npos) {
    size_t lineStart = buffer.rfind('\n', pos);
    lineStart = lineStart == StringRef::npos ? 0 : lineStart + 1;
    StringRef prefix = buffer.slice(lineStart, pos);
    pos += 5;
    if (!prefix.trim().empty())
      continue;
    Lexer lineLexer(buffer.drop_front(pos));
    Token index = lineLexer.next();
    Token name = lineLexer.next();
    if (!index.is(Token::Integer) || !name.is(Token::String))
      continue;
    if (auto v = parseIntText(index.text))
      files[*v] = StringAttr::get(ctx, name.text.drop_front().drop_back());
  }
}

void Parser::prescanBranches(StringRef buffer) {
  // A text search, not a lexing pass: counting a `bra` inside a comment or
  // a string only delays sealing; every real branch has this form.
  auto isWordChar = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '%';
  };
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  };
  auto readWord = [&](size_t &p) {
    while (p < buffer.size() && isSpace(buffer[p]))
      ++p;
    size_t begin = p;
    while (p < buffer.size() && isWordChar(buffer[p]))
      ++p;
    return buffer.slice(begin, p);
  };
  for (size_t pos = 0; (pos = buffer.find("bra", pos)) != StringRef::npos;) {
    size_t start = pos;
    pos += 3;
    if (start > 0 && !isSpace(buffer[start - 1]) &&
        !StringRef(";{}:").contains(buffer[start - 1]))
      continue;
    size_t p = pos;
    while (p < buffer.size() && buffer[p] == '.') { // .uni
      ++p;
      while (p < buffer.size() && isWordChar(buffer[p]))
        ++p;
    }
    if (p >= buffer.size() || !isSpace(buffer[p]))
      continue;
    StringRef label = readWord(p);
    if (!label.empty())
      ++branchRefs[label];
  }
  for (size_t pos = 0;
       (pos = buffer.find(".branchtargets", pos)) != StringRef::npos;) {
    pos += sizeof(".branchtargets") - 1;
    while (true) {
      StringRef label = readWord(pos);
      if (label.empty())
        break;
      indirectTargets.insert(label);
      while (pos < buffer.size() && isSpace(buffer[pos]))
        ++pos;
      if (pos >= buffer.size() || buffer[pos] != ',')
        break;
      ++pos;
    }
  }
}

/// The newest PTX ISA version read (ptxas of CUDA 13.0 reads up to 9.0).
constexpr unsigned kMaxPtxMajor = 9, kMaxPtxMinor = 0;

/// A `.target` entry ptxas knows: sm_XY or compute_XY (with an `a` or `f`
/// suffix from sm_90a on), or one of the target options.
static bool isKnownTarget(StringRef name) {
  if (name == "texmode_unified" || name == "texmode_independent" ||
      name == "map_f64_to_f32" || name == "debug")
    return true;
  std::optional<SmTarget> t = SmTarget::parse(name);
  return t && t->minPtxVersion();
}

OwningOpRef<ModuleOp> Parser::parseModule() {
  OwningOpRef<ModuleOp> owned = ModuleOp::create(loc(tok));
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());
  std::string version;
  SmallVector<Attribute> targets;
  bool sawVersion = false;
  while (!tok.is(Token::Eof)) {
    // Between directives: what was read is not needed again (a function's
    // names live in its own maps). A few megabytes at a time.
    if (tok.text.data() - (released ? released : text->getBufferStart()) >
        (4 << 20)) {
      released = tok.text.data();
      releaseMappedText(*text, released);
    }
    if (tok.isDot("version")) {
      Token at = consume();
      if (!tok.is(Token::Float) && !tok.is(Token::Integer)) {
        (void)error(tok, "expected a version number after .version but found " +
                             describe(tok));
        return nullptr;
      }
      Token v = consume();
      // ptxas reads PTX ISA 1.0 to 9.0 (CUDA 13.0), spelled major.minor.
      unsigned major = 0, minor = 0;
      auto [maj, min] = v.text.split('.');
      if (!v.is(Token::Float) || maj.getAsInteger(10, major) ||
          min.getAsInteger(10, minor) || major < 1 ||
          (major > kMaxPtxMajor ||
           (major == kMaxPtxMajor && minor > kMaxPtxMinor))) {
        (void)error(v, "unsupported .version " + v.text + " (PTX ISA 1.0 to " +
                           Twine(kMaxPtxMajor) + "." + Twine(kMaxPtxMinor) +
                           " is read)");
        return nullptr;
      }
      version = v.text.str();
      ptxVersion = major * 10 + minor;
      sawVersion = true;
      (void)at;
      continue;
    }
    if (tok.isDot("target")) {
      consume();
      do {
        Token t;
        if (failed(expectIdent(t, "a target name")))
          return nullptr;
        if (!isKnownTarget(t.text)) {
          (void)error(t, "unknown .target '" + t.text +
                             "' (sm_XY, compute_XY, texmode_unified, "
                             "texmode_independent, map_f64_to_f32, debug)");
          return nullptr;
        }
        // ptxas: "PTX .version 8.5 does not support .target sm_100a".
        std::optional<SmTarget> sm = SmTarget::parse(t.text);
        if (unsigned need = sm ? *sm->minPtxVersion() : 0;
            sawVersion && ptxVersion < need) {
          (void)error(t, "'.target " + t.text + "' needs .version " +
                             Twine(need / 10) + "." + Twine(need % 10) +
                             " or later; this module's is " + version);
          return nullptr;
        }
        if (!smTarget)
          smTarget = sm;
        targets.push_back(StringAttr::get(ctx, t.text));
      } while (consumeIf(Token::Comma));
      continue;
    }
    if (tok.isDot("address_size")) {
      consume();
      Token at = tok;
      if (failed(parseInt(addressSize, "an address size")))
        return nullptr;
      if (addressSize != 32 && addressSize != 64) {
        (void)error(at, ".address_size must be 32 or 64");
        return nullptr;
      }
      continue;
    }
    if (failed(parseDirective(module)))
      return nullptr;
  }
  if (!sawVersion) {
    (void)emitError(loc(tok), "missing .version directive");
    return nullptr;
  }
  module->setAttr("ptx.module",
                  TargetAttr::get(ctx, version, ArrayAttr::get(ctx, targets),
                                  static_cast<unsigned>(addressSize)));
  if (!modulePragmas.empty())
    module->setAttr("ptx.pragmas", ArrayAttr::get(ctx, modulePragmas));
  return owned;
}

LogicalResult Parser::parseFileDirective() {
  consume(); // .file
  int64_t index;
  if (failed(parseInt(index, "a file index")))
    return failure();
  if (!tok.is(Token::String))
    return error(tok, "expected a file name but found " + describe(tok));
  Token name = consume();
  files[index] = StringAttr::get(ctx, name.text.drop_front().drop_back());
  // Optional timestamp and size.
  while (consumeIf(Token::Comma)) {
    int64_t ignored;
    if (failed(parseInt(ignored, "a file timestamp or size")))
      return failure();
  }
  return success();
}

LogicalResult Parser::parseLocDirective() {
  Token at = consume(); // .loc
  int64_t file, line, col;
  if (failed(parseInt(file, "a file index")) ||
      failed(parseInt(line, "a line number")) ||
      failed(parseInt(col, "a column number")))
    return failure();
  auto it = files.find(file);
  if (it == files.end())
    return error(at, ".loc refers to undeclared file " + Twine(file));
  Location l = FileLineColLoc::get(it->second, line, col);
  // `, function_name label[+off], inlined_at file line col`
  while (consumeIf(Token::Comma)) {
    if (tok.is(Token::Ident) && tok.text == "function_name") {
      consume();
      Token n;
      if (failed(expectIdent(n, "a function name label")))
        return failure();
      if (consumeIf(Token::Plus)) {
        int64_t ignored;
        if (failed(parseInt(ignored, "an offset")))
          return failure();
      }
      continue;
    }
    if (tok.is(Token::Ident) && tok.text == "inlined_at") {
      consume();
      int64_t f2, l2, c2;
      if (failed(parseInt(f2, "a file index")) ||
          failed(parseInt(l2, "a line number")) ||
          failed(parseInt(c2, "a column number")))
        return failure();
      auto it2 = files.find(f2);
      if (it2 == files.end())
        return error(at, ".loc refers to undeclared file " + Twine(f2));
      l = CallSiteLoc::get(l, FileLineColLoc::get(it2->second, l2, c2));
      continue;
    }
    return error(tok, "unexpected " + describe(tok) + " in .loc");
  }
  debugLoc = l;
  return success();
}

LogicalResult Parser::skipSection() {
  Token at = consume(); // .section
  Token name = tok;
  if (!tok.is(Token::DotWord))
    return error(tok, "expected a section name but found " + describe(tok));
  consume();
  if (!name.text.starts_with(".debug_"))
    return error(name, "unsupported section " + name.text);
  if (!reportedSections) {
    emitRemark(loc(at)) << "skipping DWARF debug sections (" << name.text
                        << " and any others); line information comes from .loc";
    reportedSections = true;
  }
  if (failed(expect(Token::LBrace, "'{' after the section name")))
    return failure();
  int depth = 1;
  while (depth > 0) {
    if (tok.is(Token::Eof))
      return error(at, "unterminated section " + name.text);
    if (tok.is(Token::LBrace))
      ++depth;
    else if (tok.is(Token::RBrace))
      --depth;
    consume();
  }
  return success();
}

static std::optional<Linkage> parseLinkageWord(const Token &t) {
  if (!t.is(Token::DotWord))
    return std::nullopt;
  return symbolizeLinkage(t.text.drop_front());
}

LogicalResult Parser::parseDirective(Operation *moduleOp) {
  if (tok.isDot("file"))
    return parseFileDirective();
  if (tok.isDot("loc"))
    return parseLocDirective();
  if (tok.isDot("section"))
    return skipSection();
  if (tok.isDot("pragma")) {
    consume();
    if (!tok.is(Token::String))
      return error(tok, "expected a string after .pragma");
    modulePragmas.push_back(
        StringAttr::get(ctx, consume().text.drop_front().drop_back()));
    return expect(Token::Semi, "';'");
  }
  std::optional<Linkage> linkage = parseLinkageWord(tok);
  if (linkage)
    consume();
  if (tok.isDot("entry"))
    return parseFunction(linkage, /*isEntry=*/true);
  if (tok.isDot("func"))
    return parseFunction(linkage, /*isEntry=*/false);
  if (tok.is(Token::DotWord)) {
    StringRef w = tok.text.drop_front();
    if (w == "global" || w == "const" || w == "shared" || w == "local" ||
        w == "tex")
      return parseVariableDecl(linkage, nullptr);
  }
  if (tok.is(Token::Error) && tok.text == "/*")
    return error(tok, "a comment without its '*/'");
  return error(tok, "unsupported module-level construct " + describe(tok));
}

LogicalResult Parser::parseArrayDims(SmallVectorImpl<int64_t> &dims) {
  while (consumeIf(Token::LBracket)) {
    int64_t d = 0; // `[]`: unsized
    if (!tok.is(Token::RBracket) && failed(parseInt(d, "an array size")))
      return failure();
    dims.push_back(d);
    if (failed(expect(Token::RBracket, "']'")))
      return failure();
  }
  return success();
}

LogicalResult Parser::parseParam(ParamDecl &out, bool isEntry) {
  out.tok = tok;
  StateSpace space;
  if (consumeIfDot("param"))
    space = StateSpace::param;
  else if (consumeIfDot("reg"))
    space = StateSpace::reg;
  else
    return error(tok, "expected .param or .reg but found " + describe(tok));
  std::optional<TypeKind> type;
  unsigned vec = 0;
  uint64_t align = 0, ptrAlign = 0;
  bool ptr = false;
  StateSpaceAttr ptrSpace;
  while (tok.is(Token::DotWord)) {
    StringRef w = tok.text.drop_front();
    Token at = consume();
    if (w == "align") {
      int64_t a;
      if (failed(parseInt(a, "an alignment")))
        return failure();
      (ptr ? ptrAlign : align) = a;
    } else if (w == "ptr") {
      ptr = true;
    } else if (ptr && symbolizeStateSpace(w)) {
      ptrSpace = StateSpaceAttr::get(ctx, *symbolizeStateSpace(w));
    } else if (w == "v2" || w == "v4" || w == "v8") {
      vec = w[1] - '0';
    } else if (auto t = symbolizeTypeKind(w)) {
      if (failed(checkDeclaredType(at, *t, space)))
        return failure();
      type = *t;
    } else {
      return error(at, "unexpected " + describe(at) + " in a parameter");
    }
  }
  if (!type)
    return error(tok, "parameter has no type");
  Token name;
  if (failed(expectIdent(name, "a parameter name")))
    return failure();
  SmallVector<int64_t> dims;
  if (failed(parseArrayDims(dims)))
    return failure();
  if (isEntry && space != StateSpace::param)
    return error(out.tok, "kernel parameters must be in .param space");
  // ptxas takes `.reg .v2 .u32 x` parameters with components `x.x`; they
  // would need a vector in the calling convention: reported, not guessed.
  if (space == StateSpace::reg && vec)
    return error(name, "unsupported: vector .reg parameter '" + name.text +
                           "' (.v" + Twine(vec) + " in the .reg space)");
  out.attr = ParamAttr::get(ctx, name.text, space, *type, vec, align, dims, ptr,
                            ptrSpace, ptrAlign);
  return success();
}

LogicalResult Parser::parseParamList(SmallVectorImpl<ParamDecl> &out,
                                     bool isEntry) {
  if (failed(expect(Token::LParen, "'('")))
    return failure();
  if (consumeIf(Token::RParen))
    return success();
  do {
    ParamDecl d;
    if (failed(parseParam(d, isEntry)))
      return failure();
    out.push_back(d);
  } while (consumeIf(Token::Comma));
  return expect(Token::RParen, "')' after the parameters");
}

static ArrayAttr paramArray(MLIRContext *ctx, ArrayRef<ParamDecl> decls) {
  SmallVector<Attribute> attrs;
  for (const ParamDecl &d : decls)
    attrs.push_back(d.attr);
  return ArrayAttr::get(ctx, attrs);
}

LogicalResult Parser::parseFunction(std::optional<Linkage> linkage,
                                    bool isEntry) {
  Token kw = consume(); // .entry / .func
  SmallVector<ParamDecl> rets, params;
  if (!isEntry && tok.is(Token::LParen))
    if (failed(parseParamList(rets, false)))
      return failure();
  Token name;
  if (failed(expectIdent(name, "a function name")))
    return failure();
  currentFunction = name.text.str();
  if (tok.is(Token::LParen))
    if (failed(parseParamList(params, isEntry)))
      return failure();

  NamedAttrList attrs;
  attrs.append("sym_name", StringAttr::get(ctx, name.text));
  if (linkage)
    attrs.append("linkage", LinkageAttr::get(ctx, *linkage));
  attrs.append("params", paramArray(ctx, params));
  if (!isEntry)
    attrs.append("returns", paramArray(ctx, rets));
  SmallVector<Attribute> pragmas;
  // Performance directives.
  while (tok.is(Token::DotWord)) {
    StringRef w = tok.text.drop_front();
    Token at = consume();
    SmallVector<int32_t> vals;
    if (w == "maxntid" || w == "reqntid" || w == "reqnctapercluster" ||
        w == "explicitcluster" || w == "minnctapersm" || w == "maxnreg" ||
        w == "maxclusterrank") {
      if (w == "explicitcluster") {
        attrs.append("explicitcluster", DenseI32ArrayAttr::get(ctx, {}));
        continue;
      }
      if (failed(parseUnsignedList(vals, "a ." + w.str() + " value")))
        return failure();
      if (w == "maxntid" || w == "reqntid" || w == "reqnctapercluster") {
        if (vals.size() > 3)
          return error(at, "." + w + " takes at most 3 values");
        attrs.set(w, DenseI32ArrayAttr::get(ctx, vals));
      } else {
        if (vals.size() != 1)
          return error(at, "." + w + " takes one value");
        attrs.set(w, builder.getI32IntegerAttr(vals[0]));
      }
    } else if (w == "noreturn") {
      attrs.set("noreturn", UnitAttr::get(ctx));
    } else if (w == "pragma") {
      if (!tok.is(Token::String))
        return error(tok, "expected a string after .pragma");
      pragmas.push_back(
          StringAttr::get(ctx, consume().text.drop_front().drop_back()));
      if (failed(expect(Token::Semi, "';' after .pragma")))
        return failure();
    } else {
      return error(at, "unsupported function directive " + describe(at));
    }
  }

  Location fnLoc = loc(name);
  // A definition replaces an earlier declaration of the same function.
  if (functions.count(name.text)) {
    Operation *previous = SymbolTable::lookupSymbolIn(module, name.text);
    if (previous && !previous->getRegion(0).empty())
      return error(name, "redefinition of function '" + name.text + "'");
    if (previous && tok.is(Token::Semi)) { // declared again
      consume();
      currentFunction.clear();
      return success();
    }
    if (previous)
      previous->erase();
  }
  builder.setInsertionPointToEnd(module.getBody());
  Operation *fnOp;
  if (isEntry)
    fnOp = EntryOp::create(builder, fnLoc, TypeRange(), ValueRange(),
                           attrs.getAttrs());
  else
    fnOp = FuncOp::create(builder, fnLoc, TypeRange(), ValueRange(),
                          attrs.getAttrs());
  if (symbols.count(name.text) && !functions.count(name.text))
    return error(name, "redefinition of symbol '" + name.text + "'");
  symbols[name.text] = StateSpace::generic;
  functions[name.text] = {rets, params};

  if (consumeIf(Token::Semi)) {
    currentFunction.clear();
    return success(); // a declaration
  }
  if (!tok.is(Token::LBrace))
    return error(tok, "expected '{' or ';' after the " + kw.text +
                          " header but found " + describe(tok));
  FunctionBuilder fb(*this, fnOp, fnOp->getRegion(0));
  if (failed(fb.parseBody(rets, params)))
    return failure();
  if (!pragmas.empty()) {
    SmallVector<Attribute> all(pragmas);
    if (auto existing = fnOp->getAttrOfType<ArrayAttr>("pragmas"))
      all.append(existing.begin(), existing.end());
    fnOp->setAttr("pragmas", ArrayAttr::get(ctx, all));
  }
  currentFunction.clear();
  debugLoc.reset();
  return success();
}

//===----------------------------------------------------------------------===//
// Variables and initializers
//===----------------------------------------------------------------------===//

FailureOr<Attribute> Parser::parseSymbolInit(uint64_t mask) {
  bool generic = false;
  Token name;
  if (tok.is(Token::Ident) && tok.text == "generic") {
    consume();
    if (failed(expect(Token::LParen, "'(' after generic")) ||
        failed(expectIdent(name, "a symbol")) ||
        failed(expect(Token::RParen, "')'")))
      return failure();
    generic = true;
  } else if (failed(expectIdent(name, "a symbol"))) {
    return failure();
  }
  if (!symbols.count(name.text))
    return error(name,
                 "initializer refers to unknown symbol '" + name.text + "'");
  int64_t offset = 0;
  if (consumeIf(Token::Plus)) {
    if (failed(parseInt(offset, "an offset")))
      return failure();
  } else if (tok.is(Token::Minus)) {
    if (failed(parseInt(offset, "an offset")))
      return failure();
  }
  return Attribute(SymbolAddrAttr::get(
      ctx, FlatSymbolRefAttr::get(ctx, name.text), offset, generic, mask));
}

FailureOr<llvm::APInt> Parser::numericInitBits(TypeKind type, bool neg,
                                               const Token &t) {
  Type regType = getRegisterType(ctx, type);
  unsigned width = regType.getIntOrFloatBitWidth();
  if (t.is(Token::Integer)) {
    auto v = parseIntText(t.text);
    if (!v)
      return error(t, "integer literal " + t.text + " does not fit in 64 bits");
    uint64_t value = neg ? -*v : *v;
    if (auto ft = dyn_cast<FloatType>(regType)) {
      llvm::APFloat f(ft.getFloatSemantics());
      f.convertFromAPInt(llvm::APInt(64, value, true), true,
                         llvm::APFloat::rmNearestTiesToEven);
      return f.bitcastToAPInt();
    }
    return llvm::APInt(width, value, /*isSigned=*/false,
                       /*implicitTrunc=*/true);
  }
  llvm::APFloat f(0.0);
  if (t.text.starts_with_insensitive("0f")) {
    uint64_t bits;
    t.text.drop_front(2).getAsInteger(16, bits);
    f = llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, bits));
  } else if (t.text.starts_with_insensitive("0d")) {
    uint64_t bits;
    t.text.drop_front(2).getAsInteger(16, bits);
    f = llvm::APFloat(llvm::APFloat::IEEEdouble(), llvm::APInt(64, bits));
  } else {
    f = llvm::APFloat(llvm::APFloat::IEEEdouble(), t.text);
  }
  if (neg)
    f.changeSign();
  if (auto ft = dyn_cast<FloatType>(regType)) {
    bool lost;
    f.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return f.bitcastToAPInt();
  }
  llvm::APInt bits = f.bitcastToAPInt();
  if (bits.getBitWidth() != width)
    return error(t, "float initializer " + t.text + " for a ." +
                        stringifyTypeKind(type) + " variable");
  return bits;
}

LogicalResult Parser::parseInitElement(TypeKind type, Attribute &out) {
  if (tok.is(Token::LBrace))
    return parseInitializer(type, out, /*outermost=*/false);
  if (tok.is(Token::Ident)) {
    auto r = parseSymbolInit(0);
    if (failed(r))
      return failure();
    out = *r;
    return success();
  }
  bool neg = consumeIf(Token::Minus);
  Token t = tok;
  if (!t.is(Token::Integer) && !t.is(Token::Float))
    return error(t, "expected an initializer but found " + describe(t));
  consume();
  // The mask form `0xff00(sym)`.
  if (t.is(Token::Integer) && consumeIf(Token::LParen)) {
    auto v = parseIntText(t.text);
    if (!v)
      return error(t, "integer literal " + t.text + " does not fit in 64 bits");
    auto r = parseSymbolInit(*v);
    if (failed(r) || failed(expect(Token::RParen, "')'")))
      return failure();
    out = *r;
    return success();
  }
  auto bits = numericInitBits(type, neg, t);
  if (failed(bits))
    return failure();
  Type regType = getRegisterType(ctx, type);
  if (auto ft = dyn_cast<FloatType>(regType))
    out = FloatAttr::get(ft, llvm::APFloat(ft.getFloatSemantics(), *bits));
  else
    out = IntegerAttr::get(regType, *bits);
  return success();
}

LogicalResult Parser::parseInitializer(TypeKind type, Attribute &out,
                                       bool outermost) {
  if (!tok.is(Token::LBrace))
    return parseInitElement(type, out);
  if (!outermost) {
    consume();
    return parseInitList(type, out);
  }
  // A flat list of numbers (cuRAND's tables hold megabytes of them) goes
  // straight into a dense attribute; anything else is read element by
  // element from the same point.
  Lexer savedLexer = lexer;
  Token savedTok = tok;
  consume();
  SmallVector<llvm::APInt> numbers;
  while (true) {
    bool neg = consumeIf(Token::Minus);
    if (!tok.is(Token::Integer) && !tok.is(Token::Float))
      break;
    Token t = consume();
    if (t.is(Token::Integer) && tok.is(Token::LParen))
      break; // the mask form
    auto bits = numericInitBits(type, neg, t);
    if (failed(bits))
      return failure();
    numbers.push_back(*bits);
    if (consumeIf(Token::Comma))
      continue;
    if (consumeIf(Token::RBrace)) {
      Type regType = getRegisterType(ctx, type);
      unsigned width = regType.getIntOrFloatBitWidth();
      auto ints = DenseElementsAttr::get(
          RankedTensorType::get({static_cast<int64_t>(numbers.size())},
                                IntegerType::get(ctx, width)),
          numbers);
      out = isa<FloatType>(regType) ? ints.bitcast(regType) : ints;
      return success();
    }
    break;
  }
  lexer = savedLexer;
  tok = savedTok;
  consume();
  return parseInitList(type, out);
}

LogicalResult Parser::parseInitList(TypeKind type, Attribute &out) {
  // One level a dimension of the array: a bound, so that `{{{{...` is an
  // error, not a stack overflow.
  constexpr unsigned kMaxInitDepth = 16;
  if (initDepth >= kMaxInitDepth)
    return error(tok, "initializer nested too deeply");
  ++initDepth;
  llvm::scope_exit leave([&] { --initDepth; });
  SmallVector<Attribute> elems;
  if (!tok.is(Token::RBrace)) {
    do {
      Attribute e;
      if (failed(parseInitElement(type, e)))
        return failure();
      elems.push_back(e);
    } while (consumeIf(Token::Comma));
  }
  if (failed(expect(Token::RBrace, "'}' after the initializer list")))
    return failure();
  out = ArrayAttr::get(ctx, elems);
  return success();
}

/// Flat lists of numbers become dense tensors: compact and fast to print.
static Attribute compactInitializer(Attribute init) {
  auto array = dyn_cast_or_null<ArrayAttr>(init);
  if (!array || array.empty())
    return init;
  auto first = dyn_cast<TypedAttr>(array[0]);
  if (!first || !(isa<IntegerAttr>(first) || isa<FloatAttr>(first)))
    return init;
  for (Attribute a : array)
    if (a.getTypeID() != first.getTypeID() ||
        cast<TypedAttr>(a).getType() != first.getType())
      return init;
  auto tensor = RankedTensorType::get({static_cast<int64_t>(array.size())},
                                      first.getType());
  return DenseElementsAttr::get(tensor, array.getValue());
}

LogicalResult Parser::parseVariableDecl(std::optional<Linkage> linkage,
                                        FunctionBuilder *fn) {
  Token spaceTok = consume();
  StateSpace space = *symbolizeStateSpace(spaceTok.text.drop_front());
  std::optional<int64_t> align;
  unsigned vec = 0;
  std::optional<TypeKind> type;
  bool managed = false;
  while (tok.is(Token::DotWord)) {
    StringRef w = tok.text.drop_front();
    Token at = consume();
    if (w == "align") {
      int64_t a;
      if (failed(parseInt(a, "an alignment")))
        return failure();
      align = a;
    } else if (w == "v2" || w == "v4" || w == "v8") {
      vec = w[1] - '0';
    } else if (w == "attribute") {
      if (failed(expect(Token::LParen, "'(' after .attribute")))
        return failure();
      if (!consumeIfDot("managed"))
        return error(tok, "unsupported variable attribute " + describe(tok));
      managed = true;
      if (failed(expect(Token::RParen, "')'")))
        return failure();
    } else if (auto t = symbolizeTypeKind(w)) {
      if (failed(checkDeclaredType(at, *t, space)))
        return failure();
      type = *t;
    } else {
      return error(at,
                   "unexpected " + describe(at) + " in a variable declaration");
    }
  }
  if (!type)
    return error(tok, "variable declaration has no type");
  do {
    Token name;
    if (failed(expectIdent(name, "a variable name")))
      return failure();
    SmallVector<int64_t> dims;
    if (failed(parseArrayDims(dims)))
      return failure();
    Attribute init;
    if (consumeIf(Token::Equal)) {
      if (failed(parseInitializer(*type, init)))
        return failure();
      init = compactInitializer(init);
    }
    NamedAttrList attrs;
    attrs.append("space", StateSpaceAttr::get(ctx, space));
    attrs.append("type", TypeKindAttr::get(ctx, *type));
    if (align)
      attrs.append("alignment", builder.getI64IntegerAttr(*align));
    if (vec)
      attrs.append("vec", builder.getI32IntegerAttr(vec));
    if (!dims.empty())
      attrs.append("dims", DenseI64ArrayAttr::get(ctx, dims));
    if (init)
      attrs.append("init", init);
    if (fn && (space == StateSpace::global || space == StateSpace::const_)) {
      // A `.global`/`.const` variable declared in a function (ptxas accepts
      // it): a module variable, internal, that only this scope names; its
      // symbol is `<function>$<name>` (numbered when taken).
      if (linkage)
        return error(name, "function-scope variables cannot have linkage");
      if (managed)
        return error(name, ".managed applies to module-scope variables only");
      StringRef fnName =
          fn->fnOp->getAttrOfType<StringAttr>("sym_name").getValue();
      std::string sym = (fnName + "$" + name.text).str();
      for (unsigned n = 1; symbols.count(sym); ++n)
        sym = (fnName + "$" + name.text + "$" + Twine(n)).str();
      symbols[sym] = space;
      attrs.append("sym_name", StringAttr::get(ctx, sym));
      {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(fn->fnOp);
        GlobalOp::create(builder, opLoc(name), TypeRange(), ValueRange(),
                         attrs.getAttrs());
      }
      Value addr = AddressOfOp::create(fn->builder, opLoc(name),
                                       PtrType::get(ctx, space), sym);
      fn->declareValue(name.text, addr);
    } else if (fn) {
      if (linkage)
        return error(name, "function-scope variables cannot have linkage");
      if (managed)
        return error(name, ".managed applies to module-scope variables only");
      attrs.append("name", StringAttr::get(ctx, name.text));
      Operation *op = LocalVarOp::create(fn->builder, opLoc(name),
                                         TypeRange{PtrType::get(ctx, space)},
                                         ValueRange(), attrs.getAttrs());
      fn->declareValue(name.text, op->getResult(0));
    } else {
      if (symbols.count(name.text))
        return error(name, "redefinition of symbol '" + name.text + "'");
      symbols[name.text] = space;
      if (*type == TypeKind::texref || *type == TypeKind::samplerref ||
          *type == TypeKind::surfref)
        handles.insert(name.text);
      attrs.append("sym_name", StringAttr::get(ctx, name.text));
      if (linkage)
        attrs.append("linkage", LinkageAttr::get(ctx, *linkage));
      if (managed)
        attrs.append("managed", UnitAttr::get(ctx));
      builder.setInsertionPointToEnd(module.getBody());
      GlobalOp::create(builder, opLoc(name), TypeRange(), ValueRange(),
                       attrs.getAttrs());
    }
  } while (consumeIf(Token::Comma));
  return expect(Token::Semi, "';' after the variable declaration");
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

const NameEntry *FunctionBuilder::lookup(StringRef name) {
  for (size_t i = scopes.size(); i-- > 0;) {
    auto it = scopes[i].find(name);
    if (it != scopes[i].end())
      return &it->second;
    if (ranges[i].empty())
      continue;
    // `%r12` from a `%r<100>` range declaration.
    size_t digits = name.size();
    while (digits > 0 && llvm::isDigit(name[digits - 1]))
      --digits;
    if (digits == name.size() || digits == 0)
      continue;
    auto rit = ranges[i].find(name.take_front(digits));
    if (rit == ranges[i].end())
      continue;
    unsigned idx;
    StringRef num = name.drop_front(digits);
    if ((num.size() > 1 && num[0] == '0') || num.getAsInteger(10, idx) ||
        idx >= rit->second.count)
      continue;
    auto &slot = scopes[i][name];
    slot = NameEntry{NameEntry::Reg, rit->second.base + idx, Value()};
    return &slot;
  }
  return nullptr;
}

Block *FunctionBuilder::newBlock(bool sealed) {
  Block *b = new Block();
  body.push_back(b);
  blocks[b] = std::make_unique<BlockState>();
  blocks[b]->sealed = sealed;
  allBlocks.push_back(b);
  return b;
}

Block *FunctionBuilder::labelBlock(StringRef name, const Token &use) {
  auto it = labels.find(name);
  if (it != labels.end())
    return it->second;
  Block *b = new Block(); // inserted into the region where it is defined
  blocks[b] = std::make_unique<BlockState>();
  if (!p.indirectTargets.contains(name)) {
    auto refs = p.branchRefs.find(name);
    blocks[b]->expectedBranches =
        refs == p.branchRefs.end() ? 0 : static_cast<int>(refs->second);
  }
  allBlocks.push_back(b);
  labels[name] = b;
  labelUses.try_emplace(name, use);
  return b;
}

void FunctionBuilder::ensureBlock() {
  if (cur)
    return;
  // Code after an unconditional branch, ret or exit without a label.
  cur = newBlock(/*sealed=*/true);
  builder.setInsertionPointToEnd(cur);
}

Value FunctionBuilder::resolve(Value v) {
  Value r = v;
  while (true) {
    auto it = replacement.find(r);
    if (it == replacement.end())
      break;
    r = it->second;
  }
  // Path compression.
  while (v != r) {
    auto it = replacement.find(v);
    if (it == replacement.end())
      break;
    Value next = it->second;
    it->second = r;
    v = next;
  }
  return r;
}

Value FunctionBuilder::undef(Type type) {
  Value &u = undefs[type];
  if (!u) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(entry);
    u = UndefOp::create(builder, builder.getUnknownLoc(), type);
  }
  return u;
}

Value FunctionBuilder::readVariable(unsigned var, Block *b) {
  BlockState &s = state(b);
  auto it = s.defs.find(var);
  if (it != s.defs.end())
    return resolve(it->second);
  return readVariableRecursive(var, b);
}

Value FunctionBuilder::readVariableRecursive(unsigned var, Block *b) {
  BlockState &s = state(b);
  Type type = varTypes[var];
  Value val;
  if (!s.sealed) {
    BlockArgument arg = b->addArgument(type, builder.getUnknownLoc());
    phiVar[arg] = var;
    s.incompletePhis.push_back({arg, var});
    val = arg;
  } else if (s.preds.empty()) {
    val = undef(type);
  } else if (s.preds.size() == 1) {
    // A cycle of single-predecessor blocks has no way in: unreachable code,
    // where the register has no value.
    if (!singlePredVisiting.insert(b).second) {
      val = undef(type);
    } else {
      val = readVariable(var, s.preds.front());
      singlePredVisiting.erase(b);
    }
  } else {
    // Past a join, a walk may come back to a single-predecessor block it is
    // already visiting: around a loop, which the phi below (or the one of
    // the loop's header) ends. Only a cycle of single-predecessor blocks
    // alone is unreachable, so the joins start a fresh visiting set.
    llvm::SmallPtrSet<Block *, 8> outer;
    std::swap(outer, singlePredVisiting);
    if (Block *dom = diamondHead(s, var)) {
      // The join of `@%p op` where the guarded block does not write `var`.
      val = readVariable(var, dom);
    } else {
      BlockArgument arg = b->addArgument(type, builder.getUnknownLoc());
      phiVar[arg] = var;
      writeVariable(var, b, arg);
      val = addPhiOperands(var, arg);
    }
    std::swap(outer, singlePredVisiting);
  }
  val = resolve(val);
  writeVariable(var, b, val);
  return val;
}

Value FunctionBuilder::addPhiOperands(unsigned var, BlockArgument phi) {
  SmallVector<Value> ops;
  for (Block *pred : state(phi.getOwner()).preds) {
    Value v = readVariable(var, pred);
    ops.push_back(v);
    if (phiVar.count(v) && v != phi)
      phiUsers[v].push_back(phi);
  }
  phiOperands[phi] = std::move(ops);
  return tryRemoveTrivialPhi(phi);
}

Value FunctionBuilder::tryRemoveTrivialPhi(BlockArgument phi) {
  Value same;
  for (Value op : phiOperands[phi]) {
    op = resolve(op);
    if (op == same || op == phi)
      continue;
    if (same)
      return phi; // merges at least two values: not trivial
    same = op;
  }
  if (!same)
    same = undef(phi.getType());
  phi.replaceAllUsesWith(same);
  replacement[phi] = same;
  // Phis that used this one may have become trivial.
  auto users = phiUsers.find(phi);
  if (users != phiUsers.end()) {
    SmallVector<Value> list = users->second;
    for (Value u : list) {
      if (u == phi || replacement.count(u))
        continue;
      if (phiOperands.count(u))
        tryRemoveTrivialPhi(cast<BlockArgument>(u));
    }
  }
  // `same` may itself have been one of the users found trivial just now.
  return resolve(same);
}

void FunctionBuilder::sealBlock(Block *b) {
  BlockState &s = state(b);
  if (s.sealed)
    return;
  s.sealed = true;
  auto phis = std::move(s.incompletePhis);
  for (auto [arg, var] : phis)
    addPhiOperands(var, arg);
}

LogicalResult FunctionBuilder::parseBody(ArrayRef<ParamDecl> rets,
                                         ArrayRef<ParamDecl> params) {
  Token open = p.consume(); // {
  (void)open;
  entry = newBlock(/*sealed=*/true);
  cur = entry;
  builder.setInsertionPointToEnd(entry);
  pushScope();
  auto declareParam = [&](const ParamDecl &d) {
    ParamAttr a = d.attr;
    if (a.getSpace() == StateSpace::param) {
      BlockArgument arg = entry->addArgument(
          PtrType::get(p.ctx, StateSpace::param), p.loc(d.tok));
      declareValue(a.getName(), arg);
    } else {
      Type t = getRegisterType(p.ctx, a.getType());
      BlockArgument arg = entry->addArgument(t, p.loc(d.tok));
      unsigned var = newVar(t, a.getType());
      scopes.back()[a.getName()] = NameEntry{NameEntry::Reg, var, Value()};
      writeVariable(var, entry, arg);
    }
  };
  for (const ParamDecl &d : rets) {
    declareParam(d);
    if (d.attr.getSpace() == StateSpace::reg)
      returnVars.push_back(scopes.back()[d.attr.getName()].var);
  }
  for (const ParamDecl &d : params)
    declareParam(d);
  pushScope(); // the body's own scope

  int depth = 1;
  while (true) {
    if (p.peek().is(Token::Eof))
      return p.error(p.peek(), "unexpected end of file in function body");
    if (p.peek().is(Token::RBrace)) {
      Token close = p.consume();
      popScope();
      if (--depth == 0) {
        popScope();
        if (failed(finish(close)))
          return failure();
        break;
      }
      continue;
    }
    if (p.peek().is(Token::LBrace)) {
      p.consume();
      pushScope();
      ++depth;
      continue;
    }
    if (failed(parseStatement()))
      return failure();
  }
  if (!pragmas.empty())
    fnOp->setAttr("pragmas", ArrayAttr::get(p.ctx, pragmas));
  return success();
}

LogicalResult FunctionBuilder::parseRegDecl() {
  p.consume(); // .reg
  std::optional<TypeKind> type;
  unsigned vec = 0;
  while (p.peek().is(Token::DotWord)) {
    Token at = p.consume();
    StringRef w = at.text.drop_front();
    if (w == "v2" || w == "v4" || w == "v8")
      vec = w[1] - '0';
    else if (auto t = symbolizeTypeKind(w)) {
      if (failed(p.checkDeclaredType(at, *t, StateSpace::reg)))
        return failure();
      type = *t;
    } else
      return p.error(at, "unexpected " + Parser::describe(at) +
                             " in a register declaration");
  }
  if (!type)
    return p.error(p.peek(), "register declaration has no type");
  if (vec == 8 || (vec && *type == TypeKind::pred))
    return p.error(p.peek(), "vector registers are .v2 or .v4 of a "
                             "non-predicate type");
  Type t = getRegisterType(p.ctx, *type);
  // A vector register: one register per component, `%v.x` (or `%v.r`)...;
  // the whole `%v` stands for `{%v.x, %v.y, ...}`.
  auto declareVector = [&](StringRef name) {
    NameEntry e{NameEntry::Vec, 0, Value()};
    static const char *const xyzw[] = {"x", "y", "z", "w"};
    static const char *const rgba[] = {"r", "g", "b", "a"};
    for (unsigned i = 0; i < vec; ++i) {
      unsigned var = newVar(t, *type);
      e.comps.push_back(var);
      for (const char *c : {xyzw[i], rgba[i]})
        scopes.back()[(name + "." + c).str()] =
            NameEntry{NameEntry::Reg, var, Value()};
    }
    scopes.back()[name] = std::move(e);
  };
  do {
    Token name;
    if (failed(p.expectIdent(name, "a register name")))
      return failure();
    if (vec) {
      int64_t count = -1;
      Token at = p.peek();
      if (p.consumeIf(Token::LAngle) &&
          (failed(p.parseInt(count, "a register count")) ||
           failed(p.expect(Token::RAngle, "'>'"))))
        return failure();
      if (count > (1 << 16))
        return p.error(at, "register count out of range");
      if (count < 0)
        declareVector(name.text);
      for (int64_t i = 0; i < count; ++i)
        declareVector((name.text + Twine(i)).str());
      continue;
    }
    if (p.consumeIf(Token::LAngle)) {
      int64_t count;
      Token at = p.peek();
      if (failed(p.parseInt(count, "a register count")) ||
          failed(p.expect(Token::RAngle, "'>'")))
        return failure();
      if (count < 0 || count > (1 << 24))
        return p.error(at, "register count out of range");
      unsigned base = varTypes.size();
      for (int64_t i = 0; i < count; ++i) {
        varTypes.push_back(t);
        varKinds.push_back(*type);
      }
      ranges.back()[name.text] = RegRange{base, static_cast<unsigned>(count)};
    } else {
      scopes.back()[name.text] =
          NameEntry{NameEntry::Reg, newVar(t, *type), Value()};
    }
  } while (p.consumeIf(Token::Comma));
  return p.expect(Token::Semi, "';' after the register declaration");
}

LogicalResult FunctionBuilder::parseStatement() {
  const Token &t = p.peek();
  if (t.isDot("reg"))
    return parseRegDecl();
  if (t.isDot("local") || t.isDot("shared") || t.isDot("param") ||
      t.isDot("const") || t.isDot("global")) {
    ensureBlock();
    // Function-scope variables live in the entry block so they dominate
    // every use.
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(entry, entry->end());
    if (entry->mightHaveTerminator())
      builder.setInsertionPoint(entry->getTerminator());
    return p.parseVariableDecl(std::nullopt, this);
  }
  if (t.isDot("loc"))
    return p.parseLocDirective();
  if (t.isDot("pragma")) {
    p.consume();
    if (!p.peek().is(Token::String))
      return p.error(p.peek(), "expected a string after .pragma");
    pragmas.push_back(
        StringAttr::get(p.ctx, p.consume().text.drop_front().drop_back()));
    return p.expect(Token::Semi, "';' after .pragma");
  }
  if (t.is(Token::At)) {
    p.consume();
    bool negated = p.consumeIf(Token::Bang);
    Token guard, opcode;
    if (failed(p.expectIdent(guard, "a predicate register after '@'")) ||
        failed(p.expectIdent(opcode, "an instruction after the guard")))
      return failure();
    return parseInstruction(opcode, &guard, negated);
  }
  if (t.is(Token::Ident)) {
    Token first = p.consume();
    if (p.peek().is(Token::Colon)) {
      p.consume();
      return parseLabelStatement(first);
    }
    return parseInstruction(first, nullptr, false);
  }
  return p.error(t, "unexpected " + Parser::describe(t) + " in function body");
}

//===----------------------------------------------------------------------===//
// Labels, prototypes and target lists
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::parseLabelStatement(const Token &name) {
  if (p.peek().isDot("callprototype"))
    return parsePrototype(name);
  if (p.peek().isDot("branchtargets"))
    return parseTargetList(name, /*isBranchTargets=*/true);
  if (p.peek().isDot("calltargets"))
    return parseTargetList(name, /*isBranchTargets=*/false);
  if (!definedLabels.insert(name.text).second)
    return p.error(name, "redefinition of label '" + name.text + "'");
  Block *b = labelBlock(name.text, name);
  if (cur && state(cur).term.kind == TerminatorIntent::None) {
    TerminatorIntent &t = state(cur).term;
    t.kind = TerminatorIntent::Bra;
    t.loc = p.loc(name);
    t.dest = b;
    addEdge(cur, b);
  }
  body.push_back(b);
  state(b).defined = true;
  trySealLabel(b);
  cur = b;
  builder.setInsertionPointToEnd(b);
  return success();
}

LogicalResult FunctionBuilder::parsePrototype(const Token &name) {
  p.consume(); // .callprototype
  Prototype proto;
  if (p.peek().is(Token::LParen))
    if (failed(p.parseParamList(proto.rets, false)))
      return failure();
  Token placeholder;
  if (failed(p.expectIdent(placeholder, "'_' in .callprototype")))
    return failure();
  if (placeholder.text != "_")
    return p.error(placeholder, "expected '_' in .callprototype but found " +
                                    Parser::describe(placeholder));
  if (p.peek().is(Token::LParen))
    if (failed(p.parseParamList(proto.params, false)))
      return failure();
  while (p.peek().isDot("noreturn"))
    p.consume();
  prototypes[name.text] = std::move(proto);
  return p.expect(Token::Semi, "';' after .callprototype");
}

LogicalResult FunctionBuilder::parseTargetList(const Token &name,
                                               bool isBranchTargets) {
  p.consume();
  SmallVector<Token> targets;
  do {
    Token t;
    if (failed(p.expectIdent(t, "a target name")))
      return failure();
    targets.push_back(t);
  } while (p.consumeIf(Token::Comma));
  if (isBranchTargets) {
    branchTargets[name.text] = targets;
  } else {
    SmallVector<Attribute> syms;
    for (const Token &t : targets) {
      if (!p.functions.count(t.text))
        return p.error(t, "unknown function '" + t.text + "' in .calltargets");
      syms.push_back(FlatSymbolRefAttr::get(p.ctx, t.text));
    }
    callTargets[name.text] = syms;
  }
  return p.expect(Token::Semi, "';' after the target list");
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::parseAddress(ParsedOperand &out) {
  out.kind = ParsedOperand::Addr;
  out.tok = p.consume(); // [
  ParsedOperand base;
  const Token &t = p.peek();
  if (t.is(Token::Ident)) {
    base.kind = ParsedOperand::Name;
    base.tok = p.consume();
    base.name = base.tok.text;
  } else if (t.is(Token::Integer) || t.is(Token::Minus)) {
    // An absolute address, `[0x100]`, `[-4]` (of .local memory).
    bool neg = p.consumeIf(Token::Minus);
    base.kind = ParsedOperand::Int;
    base.tok = p.peek();
    if (!base.tok.is(Token::Integer))
      return p.error(base.tok, "expected an address but found " +
                                   Parser::describe(base.tok));
    p.consume();
    auto v = parseIntText(base.tok.text);
    if (!v)
      return p.error(base.tok,
                     "address " + base.tok.text + " does not fit in 64 bits");
    base.intValue = neg ? -*v : *v;
  } else {
    return p.error(t, "expected an address but found " + Parser::describe(t));
  }
  out.elems.push_back(std::move(base));
  // `+imm`, `+-imm` (ptxas: "syntax error" for `[a-4]`).
  if (p.peek().is(Token::Minus))
    return p.error(p.peek(), "an address offset is written '+N' or '+-N', "
                             "not '-N'");
  if (p.consumeIf(Token::Plus)) {
    int64_t off;
    if (failed(p.parseInt(off, "an address offset")))
      return failure();
    out.offset = off;
  }
  // `[tex, {x, y}]`, `[tex, sampler, {x}]`, `[tmap, {x, y}]`
  while (p.consumeIf(Token::Comma)) {
    ParsedOperand e;
    if (failed(parseOperand(e)))
      return failure();
    out.elems.push_back(std::move(e));
  }
  return p.expect(Token::RBracket, "']' after the address");
}

LogicalResult FunctionBuilder::parseOperand(ParsedOperand &out) {
  const Token &t = p.peek();
  out.tok = t;
  // Operands nest (an address holds a vector of coordinates) but never
  // deeply: a bound, so that `{{{{...` is an error, not a stack overflow.
  constexpr unsigned kMaxOperandDepth = 8;
  if (operandDepth >= kMaxOperandDepth)
    return p.error(t, "operand nested too deeply");
  ++operandDepth;
  llvm::scope_exit leave([&] { --operandDepth; });
  switch (t.kind) {
  case Token::LBracket:
    return parseAddress(out);
  case Token::LBrace: {
    p.consume();
    out.kind = ParsedOperand::Vec;
    do {
      ParsedOperand e;
      if (failed(parseOperand(e)))
        return failure();
      out.elems.push_back(std::move(e));
    } while (p.consumeIf(Token::Comma));
    if (failed(p.expect(Token::RBrace, "'}' after the vector operand")))
      return failure();
    // A texture fetch's residency predicate, `{...}|%p` (ptxas takes it).
    if (p.peek().is(Token::Pipe))
      return p.error(p.peek(), "unsupported: a predicate beside a vector "
                               "result ('{...}|%p', a texture's residency)");
    return success();
  }
  case Token::Bang: {
    p.consume();
    Token n;
    if (failed(p.expectIdent(n, "a predicate after '!'")))
      return failure();
    out.kind = ParsedOperand::NotName;
    out.tok = n;
    out.name = n.text;
    return success();
  }
  case Token::Minus:
  case Token::Integer:
  case Token::Float: {
    bool neg = p.consumeIf(Token::Minus);
    Token lit = p.peek();
    if (lit.is(Token::Integer)) {
      p.consume();
      auto v = parseIntText(lit.text);
      if (!v)
        return p.error(lit, "integer literal " + lit.text +
                                " does not fit in 64 bits");
      out.kind = ParsedOperand::Int;
      out.intValue = neg ? -*v : *v;
      return success();
    }
    if (lit.is(Token::Float)) {
      p.consume();
      out.kind = ParsedOperand::Float;
      if (lit.text.starts_with_insensitive("0f") ||
          lit.text.starts_with_insensitive("0d")) {
        out.floatWidth = lit.text.starts_with_insensitive("0f") ? 32 : 64;
        lit.text.drop_front(2).getAsInteger(16, out.bits);
        if (neg)
          out.bits ^= uint64_t(1) << (out.floatWidth - 1);
      } else {
        double d;
        if (lit.text.getAsDouble(d, /*AllowInexact=*/true))
          return p.error(lit, "invalid float literal " + lit.text);
        out.floatValue = neg ? -d : d;
      }
      return success();
    }
    return p.error(lit, "expected a number but found " + Parser::describe(lit));
  }
  case Token::Ident: {
    Token n = p.consume();
    out.tok = n;
    if (n.text == "_" && !p.peek().is(Token::Pipe)) {
      out.kind = ParsedOperand::Sink;
      return success();
    }
    // Special registers: `%tid.x` arrives as `%tid` `.x`.
    bool declared = lookup(n.text) != nullptr;
    if (!declared && (n.text.starts_with("%") || n.text == "WARP_SZ")) {
      std::string name =
          n.text.starts_with("%") ? n.text.drop_front().str() : n.text.str();
      const Token &next = p.peek();
      if (next.is(Token::DotWord) && next.text.size() == 2 &&
          StringRef("xyz").contains(next.text[1]) &&
          next.text.data() == n.text.data() + n.text.size()) {
        name += next.text.str();
        p.consume();
      }
      if (auto reg = parseSpecialRegName(p.ctx, name)) {
        out.kind = ParsedOperand::SReg;
        out.sreg = reg;
        return success();
      }
    }
    // A vector register: `%v.x` is a component, `%v` all of them.
    if (const NameEntry *e = lookup(n.text); e && e->kind == NameEntry::Vec) {
      const Token &next = p.peek();
      if (next.is(Token::DotWord) && next.text.data() == n.text.end()) {
        std::string comp = (n.text + next.text).str();
        if (!lookup(comp))
          return p.error(next,
                         "'" + next.text + "' is not a component of " + n.text);
        p.consume();
        out.kind = ParsedOperand::Name;
        out.name = p.saved.save(comp);
        return success();
      }
      out.kind = ParsedOperand::Vec;
      static const char *const xyzw[] = {"x", "y", "z", "w"};
      for (size_t i = 0; i < e->comps.size(); ++i) {
        ParsedOperand c;
        c.kind = ParsedOperand::Name;
        c.tok = n;
        c.name = p.saved.save((n.text + "." + xyzw[i]).str());
        out.elems.push_back(std::move(c));
      }
      return success();
    }
    out.kind = n.text == "_" ? ParsedOperand::Sink : ParsedOperand::Name;
    out.name = n.text;
    // Video operand selectors: `%r1.b0`, `%r2.h1`, `%r3.b3210`.
    if (declared && p.peek().is(Token::DotWord) &&
        p.peek().text.data() == n.text.end()) {
      StringRef sel = p.peek().text.drop_front();
      if (sel.size() >= 2 && (sel[0] == 'b' || sel[0] == 'h') &&
          llvm::all_of(sel.drop_front(), llvm::isDigit)) {
        out.selector = sel;
        p.consume();
      }
    }
    // `%r1+4`, `%rd2+-8`, `sym+16`: the value plus a constant (ptxas
    // takes `+` only: `%r1-4` is a syntax error there, as here).
    if (out.kind == ParsedOperand::Name && p.consumeIf(Token::Plus)) {
      if (failed(p.parseInt(out.offset, "an offset after '+'")))
        return failure();
      out.hasOffset = true;
      return success();
    }
    if (p.consumeIf(Token::Pipe)) {
      ParsedOperand first = out, second;
      Token n2;
      if (failed(p.expectIdent(n2, "a register after '|'")))
        return failure();
      second.kind = n2.text == "_" ? ParsedOperand::Sink : ParsedOperand::Name;
      second.tok = n2;
      second.name = n2.text;
      out = ParsedOperand();
      out.kind = ParsedOperand::Pair;
      out.tok = n;
      out.elems = {first, second};
    }
    return success();
  }
  default:
    return p.error(t, "expected an operand but found " + Parser::describe(t));
  }
}

FailureOr<Value> FunctionBuilder::readName(const Token &t, StringRef name) {
  if (const NameEntry *e = lookup(name)) {
    if (e->kind == NameEntry::Reg)
      return readVariable(e->var, cur);
    // A vector register stands for its elements only where a vector
    // operand goes (`{...}` positions, expanded before this).
    if (e->kind == NameEntry::Vec)
      return p.error(t, "the vector register '" + name +
                            "' cannot be used here; name an element "
                            "('" +
                            name + ".x', ...)");
    return e->value;
  }
  auto sym = p.symbols.find(name);
  if (sym != p.symbols.end())
    return AddressOfOp::create(builder, here(t),
                               PtrType::get(p.ctx, sym->second), name)
        .getResult();
  if (labels.count(name) || definedLabels.count(name))
    return p.error(t, "label '" + name + "' cannot be used as a value");
  return p.error(t, "use of undeclared identifier '" + name + "'");
}

FailureOr<Value> FunctionBuilder::makeConstant(const ParsedOperand &op,
                                               Type type) {
  Location l = here(op.tok);
  TypedAttr attr;
  if (op.kind == ParsedOperand::Int) {
    if (auto ft = dyn_cast<FloatType>(type)) {
      llvm::APFloat f(ft.getFloatSemantics());
      f.convertFromAPInt(llvm::APInt(64, op.intValue), /*IsSigned=*/true,
                         llvm::APFloat::rmNearestTiesToEven);
      attr = FloatAttr::get(ft, f);
    } else {
      unsigned w = type.getIntOrFloatBitWidth();
      attr = IntegerAttr::get(type, llvm::APInt(w, op.intValue,
                                                /*isSigned=*/false,
                                                /*implicitTrunc=*/true));
    }
  } else {
    llvm::APFloat f(0.0);
    if (op.floatWidth == 32)
      f = llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, op.bits));
    else if (op.floatWidth == 64)
      f = llvm::APFloat(llvm::APFloat::IEEEdouble(), llvm::APInt(64, op.bits));
    else
      f = llvm::APFloat(op.floatValue);
    if (auto ft = dyn_cast<FloatType>(type)) {
      bool lost;
      f.convert(ft.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
      attr = FloatAttr::get(ft, f);
    } else {
      // Float literal in an integer or bit-typed operand: its bits; a
      // decimal one is a double's (ptxas takes `mov.b64 %rd, 1.5`, not
      // `mov.b32 %r, 1.5`; .s/.u operands refuse float literals before).
      llvm::APInt bits = f.bitcastToAPInt();
      unsigned w = type.getIntOrFloatBitWidth();
      if (bits.getBitWidth() != w)
        return p.error(op.tok, "float literal " + op.tok.text + " used as a " +
                                   Twine(w) + "-bit integer operand");
      attr = IntegerAttr::get(type, bits);
    }
  }
  return constant(l, attr);
}

Value FunctionBuilder::constant(Location l, TypedAttr value) {
  Value &c = constants[value];
  if (!c) {
    OpBuilder::InsertionGuard guard(builder);
    if (lastConstant)
      builder.setInsertionPointAfter(lastConstant);
    else
      builder.setInsertionPointToStart(entry);
    lastConstant = ConstantOp::create(builder, l, value.getType(), value);
    c = lastConstant->getResult(0);
  }
  return c;
}

FailureOr<Value> FunctionBuilder::materialize(const ParsedOperand &op,
                                              Type immType) {
  switch (op.kind) {
  case ParsedOperand::Name: {
    FailureOr<Value> v = readName(op.tok, op.name);
    if (failed(v) || !op.hasOffset)
      return v;
    if (isa<PtrType>(v->getType()))
      return AddrOp::create(builder, here(op.tok), v->getType(), *v,
                            builder.getI64IntegerAttr(op.offset))
          .getResult();
    auto it = dyn_cast<IntegerType>(v->getType());
    if (!it || it.getWidth() < 16)
      return p.error(op.tok, "an offset applies to an integer register or "
                             "an address, not '" +
                                 op.name + "'");
    ModifierBuilder mb;
    mb.types.push_back(it.getWidth() == 16   ? TypeKind::u16
                       : it.getWidth() == 32 ? TypeKind::u32
                                             : TypeKind::u64);
    Value off = constant(here(op.tok), IntegerAttr::get(it, op.offset));
    return AddOp::create(builder, here(op.tok), TypeRange{it},
                         ValueRange{*v, off},
                         {builder.getNamedAttr("mods", mb.get(p.ctx))})
        ->getResult(0);
  }
  case ParsedOperand::NotName: {
    auto v = readName(op.tok, op.name);
    if (failed(v))
      return failure();
    if (!v->getType().isInteger(1))
      return p.error(op.tok, "'!' applies to predicates only");
    ModifierBuilder mb;
    mb.types.push_back(TypeKind::pred);
    return NotOp::create(builder, here(op.tok), TypeRange{v->getType()},
                         ValueRange{*v},
                         {builder.getNamedAttr("mods", mb.get(p.ctx))})
        ->getResult(0);
  }
  case ParsedOperand::Int:
  case ParsedOperand::Float:
    return makeConstant(op, immType);
  case ParsedOperand::SReg: {
    SReg kind = op.sreg.getReg();
    unsigned w = 32;
    if (kind == SReg::clock64 || kind == SReg::globaltimer ||
        kind == SReg::gridid || kind == SReg::pm_64 ||
        kind == SReg::current_graph_exec)
      w = 64;
    else if (kind == SReg::is_explicit_cluster)
      w = 1;
    return SRegOp::create(builder, here(op.tok), builder.getIntegerType(w),
                          op.sreg)
        .getResult();
  }
  case ParsedOperand::Addr: {
    const ParsedOperand &base = op.elems.front();
    FailureOr<Value> b =
        base.kind == ParsedOperand::Int
            ? makeConstant(base, builder.getIntegerType(p.addressSize))
            : materialize(base, immType);
    if (failed(b))
      return failure();
    if (op.offset == 0)
      return *b;
    return AddrOp::create(builder, here(op.tok), b->getType(), *b,
                          builder.getI64IntegerAttr(op.offset))
        .getResult();
  }
  case ParsedOperand::Sink:
    return p.error(op.tok, "'_' can only be a destination");
  case ParsedOperand::Vec:
  case ParsedOperand::Pair:
    return p.error(op.tok, "unexpected vector operand");
  }
  llvm_unreachable("unknown operand kind");
}

Type FunctionBuilder::immediateType(StringRef mnemonic, ModifiersAttr mods,
                                    unsigned srcIdx, unsigned numSrcs,
                                    bool isFloatLiteral) {
  MLIRContext *ctx = p.ctx;
  Type i32 = IntegerType::get(ctx, 32), i1 = IntegerType::get(ctx, 1);
  ArrayRef<TypeKind> types = mods.getTypes();
  auto reg = [&](TypeKind k) -> Type {
    if (k == TypeKind::pred)
      return i1;
    return getTypeBitWidth(k) < 8 ? i32 : getRegisterType(ctx, k);
  };
  bool last = srcIdx + 1 == numSrcs;
  // Operands whose type PTX fixes whatever the instruction type is.
  if (((mnemonic == "shl" || mnemonic == "shr") && srcIdx == 1) ||
      (mnemonic == "shf" && srcIdx == 2) ||
      (mnemonic == "bfe" && srcIdx >= 1) || (mnemonic == "bfi" && srcIdx >= 2))
    return i32;
  if (mnemonic == "selp" && srcIdx == 2)
    return i1;
  if ((mnemonic == "mad" || mnemonic == "madc") && srcIdx == 2 &&
      mods.getMode() == Mode::wide && !types.empty())
    return IntegerType::get(ctx, 2 * getTypeBitWidth(types[0]));
  // Barrier numbers and thread counts are .u32; bar.red's last is a
  // predicate.
  if (mnemonic.starts_with("bar"))
    return (mnemonic == "bar.red" || mnemonic == "barrier.red") && last ? i1
                                                                        : i32;
  // Warp ops: the member mask (last) is .b32; vote's source is a predicate.
  if (mnemonic == "vote" || mnemonic == "match" || mnemonic == "redux" ||
      mnemonic == "elect" || mnemonic == "shfl") {
    if (last && mnemonic != "shfl")
      return i32;
    if (mnemonic == "vote")
      return i1;
    return types.empty() ? i32 : reg(types[0]);
  }
  // Strides, scales, selectors, counts and sizes of matrix, async-copy and
  // barrier-object instructions are 32-bit integers.
  if (mnemonic.starts_with("wmma.") || mnemonic.starts_with("mma") ||
      mnemonic.starts_with("wgmma.") || mnemonic.starts_with("tcgen05.") ||
      mnemonic.starts_with("mbarrier.") || mnemonic.starts_with("cp.") ||
      mnemonic == "nanosleep" || mnemonic == "setmaxnreg" ||
      mnemonic == "prefetch" || mnemonic == "applypriority" ||
      mnemonic == "discard")
    return i32;
  // createpolicy's fraction is a float; its sizes are integers.
  if (mnemonic == "createpolicy")
    return isFloatLiteral ? Type(Float32Type::get(ctx)) : i32;
  if ((mnemonic == "cvt" || mnemonic == "set") && types.size() >= 2)
    return reg(types.back());
  if (mnemonic == "slct" && srcIdx == 2 && types.size() >= 2)
    return reg(types[1]);
  if (types.empty())
    return i32;
  return reg(types[0]);
}

FailureOr<Type> FunctionBuilder::destType(const ParsedOperand &op,
                                          Type fallback) {
  if (op.kind == ParsedOperand::Sink)
    return fallback;
  if (op.kind != ParsedOperand::Name)
    return p.error(op.tok, "expected a register as destination but found " +
                               Parser::describe(op.tok));
  if (op.hasOffset)
    return p.error(op.tok, "a destination cannot have an offset");
  const NameEntry *e = lookup(op.name);
  if (!e)
    return p.error(op.tok, "use of undeclared register '" + op.name + "'");
  if (e->kind != NameEntry::Reg)
    return p.error(op.tok, "'" + op.name + "' is not a register");
  return varTypes[e->var];
}

LogicalResult FunctionBuilder::writeDest(const ParsedOperand &op, Value v) {
  if (op.kind == ParsedOperand::Sink)
    return success();
  writeVariable(lookup(op.name)->var, cur, v);
  return success();
}

/// The families the AMDGPU lowering leaves out (textures and surfaces,
/// matrix instructions, barrier objects and bulk copies, multimem), which
/// NVIDIA's GPUs have natively, and `pmevent` (nothing on AMDGPU).
static bool isNativeOnlyFamily(StringRef m) {
  return m == "tex" || m == "tld4" || m == "txq" || m == "suld" ||
         m == "sust" || m == "sured" || m == "suq" || m.starts_with("wmma.") ||
         m == "mma" || m == "mma.sp" || m == "ldmatrix" || m == "stmatrix" ||
         m == "movmatrix" || m.starts_with("wgmma.") ||
         m.starts_with("mbarrier.") || m.starts_with("cp.async.bulk") ||
         m == "cp.async.mbarrier.arrive" ||
         m.starts_with("cp.reduce.async.bulk") || m.starts_with("multimem.") ||
         m == "pmevent";
}

/// The instruction as written, its operands replaced by LLVM inline-asm
/// placeholders (`$0`... the results, then the op's operands in order;
/// integer and float literals kept as written): how a target with the
/// instruction emits it (NVPTX: `native` attribute). The first `tied`
/// operands are the results read again (wgmma's accumulators, tied to them,
/// `native_tied`), not written. None for operand forms it cannot express
/// (negated predicates, predicate pairs as sources).
static std::optional<std::string>
nativeTemplate(StringRef spelling, ArrayRef<ParsedOperand> operands,
               size_t firstSrc, size_t numResults, size_t tied) {
  std::string out = spelling.str();
  llvm::raw_string_ostream os(out);
  size_t result = 0, input = numResults + tied;
  std::function<bool(const ParsedOperand &, bool)> emit =
      [&](const ParsedOperand &op, bool dest) -> bool {
    switch (op.kind) {
    case ParsedOperand::Sink:
      if (!dest)
        return false;
      ++result;
      os << '_';
      return true;
    case ParsedOperand::Name:
    case ParsedOperand::SReg:
      os << '$' << (dest ? result++ : input++);
      return true;
    case ParsedOperand::Int:
    case ParsedOperand::Float:
      if (dest)
        return false;
      ++input;
      os << op.tok.text;
      return true;
    case ParsedOperand::Vec:
    case ParsedOperand::Pair: {
      if (op.kind == ParsedOperand::Pair && !dest)
        return false;
      bool vec = op.kind == ParsedOperand::Vec;
      os << (vec ? "{" : "");
      for (auto [i, e] : llvm::enumerate(op.elems)) {
        if (i)
          os << (vec ? ", " : "|");
        if (!emit(e, dest))
          return false;
      }
      os << (vec ? "}" : "");
      return true;
    }
    case ParsedOperand::Addr:
      if (dest)
        return false;
      os << '[' << '$' << input++;
      for (size_t k = 1; k < op.elems.size(); ++k) {
        os << ", ";
        if (!emit(op.elems[k], false))
          return false;
      }
      os << ']';
      return true;
    case ParsedOperand::NotName:
      return false;
    }
    return false;
  };
  for (auto [i, op] : llvm::enumerate(operands)) {
    os << (i ? ", " : " ");
    if (!emit(op, i < firstSrc))
      return std::nullopt;
  }
  os << ';';
  return out;
}

/// The types of mma's and mma.sp's fragments (the block-scaled .kind::
/// forms' aside).
static bool isMatrixType(TypeKind t) {
  return llvm::is_contained(
      {TypeKind::f16, TypeKind::bf16, TypeKind::tf32, TypeKind::f32,
       TypeKind::f64, TypeKind::s8, TypeKind::u8, TypeKind::s4, TypeKind::u4,
       TypeKind::b1, TypeKind::s32, TypeKind::e4m3, TypeKind::e5m2},
      t);
}

/// What a matrix product's B may be given A: the same type, or its
/// signed/unsigned or other 8-bit float partner (mma's and wgmma's rule).
static int multiplicandFamily(TypeKind t) {
  using T = TypeKind;
  return t == T::s8 || t == T::u8       ? 1
         : t == T::s4 || t == T::u4     ? 2
         : t == T::e4m3 || t == T::e5m2 ? 3
                                        : 4 + static_cast<int>(t);
}

/// The class of a plain scalar PTX type ptxas checks register operands
/// against: 'b', 'f', 's', 'u', 'p' (.pred), or 0 for the others (halves,
/// packed and FP8 types, .b128), which are not checked here.
static char typeClass(TypeKind k) {
  switch (k) {
  case TypeKind::b8:
  case TypeKind::b16:
  case TypeKind::b32:
  case TypeKind::b64:
    return 'b';
  case TypeKind::u8:
  case TypeKind::u16:
  case TypeKind::u32:
  case TypeKind::u64:
    return 'u';
  case TypeKind::s8:
  case TypeKind::s16:
  case TypeKind::s32:
  case TypeKind::s64:
    return 's';
  case TypeKind::f32:
  case TypeKind::f64:
    return 'f';
  case TypeKind::pred:
    return 'p';
  default:
    return 0;
  }
}

/// A single float (.f32, .f64, .f16, .bf16): cvt converts from and to it,
/// and a literal for it is a float.
static bool isScalarFloat(TypeKind k) {
  return typeClass(k) == 'f' || k == TypeKind::f16 || k == TypeKind::bf16;
}

/// Whether ptxas takes a register declared `reg` where an instruction of
/// type `inst` reads or writes its type: the same size, and a .b register
/// anywhere, a .b instruction any register, .s/.u interchangeable, a float
/// instruction float registers (PTX ISA, "Operand Type Information").
/// The elements of a vector operand {a, b}, or the operand alone.
static ArrayRef<ParsedOperand> elementsOf(const ParsedOperand &o) {
  return o.kind == ParsedOperand::Vec ? ArrayRef(o.elems) : ArrayRef(o);
}

/// The operands after the first `n` (none when there are fewer).
static ArrayRef<ParsedOperand> after(ArrayRef<ParsedOperand> operands,
                                     size_t n) {
  return operands.drop_front(std::min(n, operands.size()));
}

static bool registerFits(TypeKind inst, TypeKind reg) {
  char i = typeClass(inst), r = typeClass(reg);
  // A half or a pair of halves: a .b register of its width or one of its
  // own type (ptxas refuses .u16 for add.f16, .f32 for add.f16x2).
  if (isHalfType(inst))
    return reg == inst ||
           (r == 'b' && getTypeBitWidth(reg) == getTypeBitWidth(inst));
  // A .b128 register holds a .b128 value only (ptxas: "Arguments mismatch"
  // for `add.f32 %f1, %q1, %f2`; seed 38 with --words).
  if (reg == TypeKind::b128 && inst != TypeKind::b128)
    return false;
  // A half's register holds a .b value of its width, not an integer
  // (`set.eq.f16.u32 d, %h, %h` for .f16 registers; seed 42).
  if (isHalfType(reg))
    return i == 'b' && getTypeBitWidth(inst) == getTypeBitWidth(reg);
  if (!i || !r)
    return true;
  if (getTypeBitWidth(inst) != getTypeBitWidth(reg))
    return false;
  if (i == 'b' || r == 'b' || i == r)
    return true;
  return (i == 's' || i == 'u') && (r == 's' || r == 'u');
}

LogicalResult FunctionBuilder::checkLiteral(const ParsedOperand &o,
                                            StringRef mnemonic, TypeKind inst,
                                            TypeKind want, bool noHalves) {
  char cls = typeClass(want);
  bool isFloat = o.kind == ParsedOperand::Float;
  if (!(noHalves && isHalfType(want)) && !(cls == 'f' && !isFloat) &&
      !((cls == 's' || cls == 'u') && isFloat))
    return success();
  return p.error(o.tok, "'" + mnemonic + "' of type ." +
                            stringifyTypeKind(inst) + " cannot take the " +
                            (isFloat ? "float" : "integer") + " immediate '" +
                            o.tok.text + "'");
}

LogicalResult FunctionBuilder::checkModifiers(const Token &opTok,
                                              StringRef mnemonic,
                                              ModifiersAttr mods) {
  ArrayRef<TypeKind> types = mods.getTypes();
  auto fail = [&](const Twine &msg) { return p.error(opTok, msg); };
  auto name = [](TypeKind t) { return "." + stringifyTypeKind(t).str(); };
  // Arithmetic takes .s, .u or float types (mul and mad say so elsewhere).
  if (llvm::is_contained(
          {"add", "sub", "div", "rem", "min", "max", "abs", "neg"}, mnemonic))
    for (TypeKind t : types)
      if (typeClass(t) == 'b')
        return fail("'" + mnemonic + "' takes .s, .u or float types, not " +
                    name(t));
  if ((mnemonic == "atom" || mnemonic == "red") && types.empty())
    return fail("'" + mnemonic + "' needs a type (.u32, .s32, .f32, ...)");
  std::optional<RoundingMode> rounding = mods.getRounding();
  bool intRounding =
      rounding &&
      (*rounding == RoundingMode::rni || *rounding == RoundingMode::rzi ||
       *rounding == RoundingMode::rmi || *rounding == RoundingMode::rpi);
  bool floatRounding =
      rounding &&
      (*rounding == RoundingMode::rn || *rounding == RoundingMode::rz ||
       *rounding == RoundingMode::rm || *rounding == RoundingMode::rp);
  // Integer rounding (.rni, .rzi, ...) is cvt's (ptxas: "Illegal rounding
  // modifier for instruction 'add'"; the differential fuzzer, seed 23).
  // (An integer instruction's rounding has its own message.)
  bool integer = types.size() == 1 &&
                 (typeClass(types[0]) == 's' || typeClass(types[0]) == 'u');
  if (intRounding && mnemonic != "cvt" && !integer)
    return fail("'" + mnemonic + "' takes no ." +
                stringifyRoundingMode(*rounding) +
                " (integer rounding is cvt's)");
  // div: .f64 rounds (.rn, .rz, .rm, .rp); .f32 rounds or is .approx/.full.
  if (mnemonic == "div" && types.size() == 1) {
    bool approx = mods.has(Flag::approx) || mods.has(Flag::full);
    if (types[0] == TypeKind::f64 && approx)
      return fail("'div.f64' takes a rounding, not .approx or .full");
    // (The differential fuzzer, seed 17.)
    if ((typeClass(types[0]) == 's' || typeClass(types[0]) == 'u') && approx)
      return fail("'div" + name(types[0]) + "' takes no .approx or .full");
    if ((types[0] == TypeKind::f64 || types[0] == TypeKind::f32) &&
        !floatRounding && !approx)
      return fail("'div" + name(types[0]) +
                  "' needs a rounding (.rn, .rz, "
                  ".rm, .rp)" +
                  (types[0] == TypeKind::f32 ? " or .approx or .full" : ""));
  }
  // .ftz: .f32 (and the half types) have denormals to flush; integers and
  // .f64 do not.
  if (mods.has(Flag::ftz) && !types.empty()) {
    bool noDenormals = typeClass(types[0]) == 'b' ||
                       typeClass(types[0]) == 's' ||
                       typeClass(types[0]) == 'u' || types[0] == TypeKind::f64;
    if (mnemonic == "cvt")
      noDenormals = types.size() == 2 && typeClass(types[0]) &&
                    typeClass(types[0]) != 'f' && typeClass(types[1]) &&
                    typeClass(types[1]) != 'f';
    else if (!llvm::is_contained({"add", "sub", "mul", "mad", "fma", "div",
                                  "min", "max", "abs", "neg", "setp"},
                                 mnemonic))
      noDenormals = false;
    if (noDenormals)
      return fail("'" + mnemonic + "' of " + name(types[0]) + " takes no .ftz");
  }
  // cvt: integer rounding (.rni...) for a float to an integer or a float to
  // itself, float rounding (.rn...) for an integer to a float, a float to
  // a narrower one or between f16 and bf16, none between integers or to a
  // wider float.
  if (mnemonic == "cvt" && types.size() == 2 && rounding &&
      (intRounding || floatRounding)) {
    auto kind = [](TypeKind t) -> char {
      char c = typeClass(t);
      if (c == 's' || c == 'u')
        return 'i';
      if (isScalarFloat(t))
        return 'f';
      return 0;
    };
    char to = kind(types[0]), from = kind(types[1]);
    if (to && from) {
      unsigned toBits = getTypeBitWidth(types[0]),
               fromBits = getTypeBitWidth(types[1]);
      bool legal = to == 'i'              ? from == 'f' && intRounding
                   : from == 'i'          ? floatRounding
                   : toBits < fromBits    ? floatRounding
                   : types[0] == types[1] ? intRounding
                   : toBits == fromBits   ? floatRounding // f16 <-> bf16
                                          : false;
      if (!legal)
        return fail("'cvt" + name(types[0]) + name(types[1]) + "' takes no ." +
                    stringifyRoundingMode(*rounding) + " rounding");
    }
  }
  return success();
}

LogicalResult
FunctionBuilder::checkTextureSurface(const Token &opTok, StringRef mnemonic,
                                     ModifiersAttr mods,
                                     ArrayRef<ParsedOperand> operands) {
  // What each was written with, after the mnemonic (.b/.p, .level, .grad
  // are kept nowhere else).
  SmallVector<StringRef> words = spelledModifiers(mnemonic);
  auto written = [&](StringRef w) { return llvm::is_contained(words, w); };
  auto fail = [&](const Twine &msg) { return p.error(opTok, msg); };
  bool tex = mnemonic == "tex", reduction = mnemonic == "sured";
  bool formats = mnemonic == "sust" || reduction;
  if (!tex && !written("b") && !(formats && written("p")))
    return fail("'" + mnemonic + "' needs .b" + (formats ? " or .p" : "") +
                " (formatted or unformatted access)");
  // ... written first: ptxas reads `sust.cg.b` as no instruction ("Not a
  // name of any known instruction: 'sust'"; the differential fuzzer, seed
  // 33).
  // ... once (ptxas: "Unknown modifier '.p'" for sust.p.p, suld.b.p).
  if (!tex && llvm::count(words, "b") + llvm::count(words, "p") > 1)
    return fail("'" + mnemonic + "' takes one of .b and .p, once");
  if (!tex && words.front() != "b" && words.front() != "p")
    return fail("'" + mnemonic + "." + words.front() + "' is not PTX; write '" +
                mnemonic + (written("b") ? ".b" : ".p") + "' first");
  if (!mods.getGeometry())
    return fail("'" + mnemonic + "' needs a geometry (.1d, .2d, .3d, ...)");
  // sured: one of five operations on a 1d, 2d or 3d surface (ptxas:
  // "Illegal operation '(null)'", "Illegal modifier '.a1d'"; found probing
  // the instructions that keep words, after the fuzzer's seed 37).
  std::optional<ReduceOp> op = mods.getRedOp();
  if (reduction &&
      (!op || !llvm::is_contained({ReduceOp::add, ReduceOp::min, ReduceOp::max,
                                   ReduceOp::and_, ReduceOp::or_},
                                  *op)))
    return fail("'sured' needs an operation (.add, .min, .max, .and, .or)");
  if (reduction &&
      !llvm::is_contained({Geometry::g1d, Geometry::g2d, Geometry::g3d},
                          *mods.getGeometry()))
    return fail("'sured' reduces on a .1d, .2d or .3d surface, not ." +
                stringifyGeometry(*mods.getGeometry()));
  for (StringRef w : words)
    if (!reduction && symbolizeReduceOp(w))
      return fail("'" + mnemonic + "' takes no ." + w + " operation");
  // Nothing else (ptxas: "Illegal modifier '.ftz' for instruction 'tex'";
  // the ptxas differential fuzzer, seed 4): tex's geometry, types, vector,
  // .base/.level/.grad; a surface access's .b/.p, out-of-range mode and
  // cache operator.
  for (StringRef w : words) {
    bool known =
        symbolizeTypeKind(w) || symbolizeGeometry(w) ||
        (reduction ? symbolizeReduceOp(w).has_value()
                   : w == "v2" || w == "v4") ||
        (tex ? llvm::is_contained({"base", "level", "grad"}, w)
             : llvm::is_contained({"b", "p", "trap", "clamp", "zero"}, w) ||
                   (!reduction && symbolizeCacheOp(w)));
    if (!known)
      return fail("'" + mnemonic + "' has no modifier ." + w);
  }
  ArrayRef<TypeKind> types = mods.getTypes();
  auto typeList = [&] {
    std::string out;
    for (TypeKind t : types)
      out += "." + stringifyTypeKind(t).str();
    return out.empty() ? std::string("none") : out;
  };
  // Operands: a result and an address for tex and suld (tex.level adds the
  // level, tex.grad the two gradients; tex an offset and a depth to
  // compare, each optional), an address and a value for sust.
  size_t least = 2, most = 2, address = tex || mnemonic == "suld" ? 1 : 0;
  if (tex) {
    least += written("level") ? 1 : written("grad") ? 2 : 0;
    most = least + 2;
  }
  auto addressAt = [&](size_t i) {
    return operands[i].kind == ParsedOperand::Addr;
  };
  if (operands.size() < least || operands.size() > most ||
      !addressAt(address) ||
      llvm::any_of(llvm::seq(address + 1, operands.size()), addressAt))
    return fail(
        "'" + instSpelling + "' takes " +
        (least == most ? Twine(least) : Twine(least) + " to " + Twine(most)) +
        " operands, the " + (address ? "second" : "first") + " a [" +
        (tex ? "texture" : "surface") + ", {coordinates}] address");
  if (tex) {
    // tex.geom.v4.{u32,s32,f32}.{s32,f32} (and .f16/.f16x2 results).
    auto result = [](TypeKind t) {
      return t == TypeKind::u32 || t == TypeKind::s32 || t == TypeKind::f32 ||
             t == TypeKind::f16 || t == TypeKind::f16x2;
    };
    if (types.size() != 2 || !result(types[0]) ||
        (types[1] != TypeKind::s32 && types[1] != TypeKind::f32))
      return fail("'tex' takes a result type (.u32, .s32, .f32) and a "
                  "coordinate type (.s32, .f32), not " +
                  typeList());
    // Four values but .f16x2's two pairs (ptxas: "Instruction 'tex.f16x2'
    // requires .v2 type"; the differential fuzzer, seed 13).
    unsigned vec = types[0] == TypeKind::f16x2 ? 2 : 4;
    if (mods.getVec() != vec)
      return fail(
          "'tex' of ." + stringifyTypeKind(types[0]) +
          (vec == 2 ? " reads two pairs (.v2)" : " reads four values (.v4)"));
    return checkTextureOperands(mods, operands, written("level"),
                                written("grad"));
  }
  if (!mods.has(Flag::clamp) && !mods.has(Flag::zero) && !mods.has(Flag::trap))
    return fail("'" + mnemonic +
                "' needs an out-of-range mode (.trap, "
                ".clamp or .zero)");
  // A surface load caches as .ca/.cg/.cs/.cv, a store as .wb/.cg/.cs/.wt
  // (ptxas: "Illegal modifier '.ca' for instruction 'sust.b'"; seed 32).
  if (std::optional<CacheOp> c = mods.getCache()) {
    bool load = mnemonic == "suld";
    bool fits = *c == CacheOp::cg || *c == CacheOp::cs ||
                (load ? *c == CacheOp::ca || *c == CacheOp::cv
                      : *c == CacheOp::wb || *c == CacheOp::wt);
    if (!fits)
      return fail("'" + mnemonic + "' caches as " +
                  (load ? ".ca, .cg, .cs or .cv" : ".wb, .cg, .cs or .wt") +
                  ", not ." + stringifyCacheOp(*c));
  }
  bool formatted = !written("b");
  if (reduction) {
    // sured.b: .add on .u32/.s32/.u64, .min/.max on those and .s64,
    // .and/.or on .b32; sured.p: .b32, .min/.max .b64 too (ptxas:
    // "Unexpected instruction types specified for 'sured.b'").
    bool bitwise = *op == ReduceOp::and_ || *op == ReduceOp::or_;
    bool minMax = *op == ReduceOp::min || *op == ReduceOp::max;
    StringRef legal = formatted ? (minMax ? ".b32, .b64" : ".b32")
                      : bitwise ? ".b32"
                      : minMax  ? ".u32, .s32, .u64, .s64"
                                : ".u32, .s32, .u64";
    SmallVector<StringRef, 4> list;
    legal.split(list, ", ");
    if (types.size() != 1 ||
        !llvm::is_contained(list, "." + stringifyTypeKind(types[0]).str()))
      return fail("'sured" + Twine(formatted ? ".p." : ".b.") +
                  stringifyReduceOp(*op) + "' takes one of " + legal +
                  ", not " + typeList());
    return checkSurfaceOperands(mnemonic, mods, operands);
  }
  auto allowed = [&](TypeKind t) {
    if (formatted)
      return t == TypeKind::b32;
    return t == TypeKind::b8 || t == TypeKind::b16 || t == TypeKind::b32 ||
           t == TypeKind::b64;
  };
  if (types.size() != 1 || !allowed(types[0]))
    return fail("'" + mnemonic + (formatted ? ".p" : ".b") + "' takes one of " +
                (formatted ? ".b32" : ".b8, .b16, .b32, .b64") + ", not " +
                typeList());
  return checkSurfaceOperands(mnemonic, mods, operands);
}

FailureOr<ArrayRef<ParsedOperand>>
FunctionBuilder::checkImageAddress(const ParsedOperand &addr, Geometry geom,
                                   StringRef where, StringRef kind) {
  if (failed(checkHandle(addr, where, kind)))
    return failure();
  // One, two or four coordinates (ptxas: "Operand vector size doesn't
  // match geometry", "Illegal vector size: 3"; "Arguments mismatch" for
  // none).
  if (addr.elems.size() < 2)
    return p.error(addr.tok, where + " takes [" + kind +
                                 ", {coordinates}], not a bare address");
  unsigned need = geom == Geometry::g1d                            ? 1
                  : geom == Geometry::g2d || geom == Geometry::a1d ? 2
                                                                   : 4;
  ArrayRef<ParsedOperand> coords = elementsOf(addr.elems.back());
  if (coords.size() < need || coords.size() == 3)
    return p.error(addr.elems.back().tok, where + " takes " + Twine(need) +
                                              " coordinate" +
                                              (need == 1 ? "" : "s") +
                                              ", not " + Twine(coords.size()));
  return coords;
}

LogicalResult FunctionBuilder::checkHandle(const ParsedOperand &addr,
                                           StringRef where, StringRef kind) {
  // A .texref/.surfref/.samplerref (or an entry's .param of one) or a
  // 64-bit register holding one, without an offset (ptxas: ".texref or .u64
  // register expected", "Arguments mismatch").
  const ParsedOperand &base = addr.elems.front();
  if (addr.offset != 0)
    return p.error(addr.tok,
                   where + " takes a " + kind + " handle without an offset");
  if (base.kind != ParsedOperand::Name)
    return p.error(base.tok, where + " takes a " + kind + " handle, not " +
                                 Parser::describe(base.tok));
  if (namesVariable(base) && !p.handles.count(base.name)) {
    const NameEntry *e = lookup(base.name);
    auto ptr = e ? dyn_cast<PtrType>(e->value.getType()) : PtrType();
    if (!ptr || ptr.getSpace() != StateSpace::param)
      return p.error(base.tok, where + " takes a " + kind + " handle; '" +
                                   base.name + "' is a variable");
  }
  if (std::optional<TypeKind> reg = declaredType(base);
      reg && getTypeBitWidth(*reg) != 64)
    return p.error(base.tok, "a " + kind + " handle is 64-bit, not the ." +
                                 stringifyTypeKind(*reg) + " register '" +
                                 base.name + "'");
  return success();
}

LogicalResult
FunctionBuilder::checkSurfaceOperands(StringRef mnemonic, ModifiersAttr mods,
                                      ArrayRef<ParsedOperand> operands) {
  // (ptxas: "Arguments mismatch for instruction 'suld.b'", "Operand vector
  // size doesn't match geometry", "Illegal vector size: 3".)
  TypeKind type = mods.getTypes()[0];
  Geometry geom = *mods.getGeometry();
  std::string where =
      ("'" + mnemonic + "." + stringifyGeometry(geom) + "'").str();
  bool load = mnemonic == "suld";
  FailureOr<ArrayRef<ParsedOperand>> coords =
      checkImageAddress(operands[load ? 1 : 0], geom, where, "surface");
  if (failed(coords))
    return failure();
  for (const ParsedOperand &c : *coords)
    if (std::optional<TypeKind> reg = not32(c))
      return refuseRegister(mnemonic, c, *reg, "coordinate");
  // The values loaded, stored or combined: registers of the type's width
  // or wider, floats for the .b types only.
  auto fits = [&](TypeKind reg) {
    return reg != TypeKind::pred &&
           getTypeBitWidth(reg) >= getTypeBitWidth(type) &&
           (typeClass(type) == 'b' || typeClass(reg) != 'f');
  };
  for (const ParsedOperand &v : elementsOf(operands[load ? 0 : 1]))
    if (std::optional<TypeKind> reg = declaredType(v); reg && !fits(*reg))
      return p.error(v.tok, where + " of ." + stringifyTypeKind(type) +
                                " takes no ." + stringifyTypeKind(*reg) +
                                " register ('" + v.name + "')");
  return success();
}

LogicalResult
FunctionBuilder::checkTextureOperands(ModifiersAttr mods,
                                      ArrayRef<ParsedOperand> operands,
                                      bool level, bool grad) {
  TypeKind dtype = mods.getTypes()[0], ctype = mods.getTypes()[1];
  Geometry geom = *mods.getGeometry();
  std::string where = ("'tex." + stringifyGeometry(geom) + "'").str();
  auto fitsAs = [&](const ParsedOperand &o, TypeKind want,
                    StringRef what) -> LogicalResult {
    if (o.isLiteral())
      return checkLiteral(o, "tex", want, want, /*noHalves=*/false);
    std::optional<TypeKind> reg = declaredType(o);
    if (!reg || registerFits(want, *reg))
      return success();
    return p.error(o.tok, where + " takes ." + stringifyTypeKind(want) + " " +
                              what + ", not the ." + stringifyTypeKind(*reg) +
                              " register '" + o.name + "'");
  };
  // Multisample textures are addressed by texel (ptxas: "Integer
  // coordinates require .s32 instruction type").
  if ((geom == Geometry::g2dms || geom == Geometry::a2dms) &&
      ctype != TypeKind::s32)
    return p.error(operands[1].tok, where + " takes .s32 coordinates");
  for (const ParsedOperand &e : elementsOf(operands[0]))
    if (failed(fitsAs(e, dtype, "results")))
      return failure();
  // The texture is a .texref or its 64-bit handle; an array's first
  // coordinate its .u32 index ("Array index ... Expecting type .u32").
  FailureOr<ArrayRef<ParsedOperand>> coords =
      checkImageAddress(operands[1], geom, where, "texture");
  if (failed(coords))
    return failure();
  bool array = llvm::is_contained(
      {Geometry::a1d, Geometry::a2d, Geometry::acube, Geometry::a2dms}, geom);
  for (auto [i, e] : llvm::enumerate(*coords))
    // (ptxas takes a float literal among .s32 coordinates.)
    if (e.kind != ParsedOperand::Float &&
        failed(fitsAs(e, array && i == 0 ? TypeKind::u32 : ctype,
                      array && i == 0 ? "array index" : "coordinates")))
      return failure();
  // After the address: an offset vector and a depth to compare, each
  // optional and in that order, then tex.level's level of detail (of the
  // coordinates' type) or tex.grad's two gradient vectors (.f32); offsets
  // and gradients have one element a dimension (four for three).
  unsigned dims = llvm::is_contained({Geometry::g1d, Geometry::a1d}, geom) ? 1
                  : llvm::is_contained({Geometry::g2d, Geometry::a2d,
                                        Geometry::g2dms, Geometry::a2dms},
                                       geom)
                      ? 2
                      : 4;
  auto vectorOf = [&](const ParsedOperand &o, TypeKind want,
                      StringRef what) -> LogicalResult {
    if (o.kind != ParsedOperand::Vec || o.elems.size() != dims)
      return p.error(o.tok, where + " takes " + what + " of " + Twine(dims) +
                                " element" + (dims == 1 ? "" : "s") +
                                ", written {...}");
    for (const ParsedOperand &e : o.elems)
      if (failed(fitsAs(e, want, what)))
        return failure();
    return success();
  };
  // Cube maps are sampled at float coordinates, with no offsets (ptxas:
  // "Floating-point coordinates required"; seed 72's neighbours).
  bool cube = geom == Geometry::cube || geom == Geometry::acube;
  if (cube && ctype != TypeKind::f32)
    return p.error(operands[1].tok, where + " takes .f32 coordinates");
  size_t tail = level ? 1 : grad ? 2 : 0;
  ArrayRef<ParsedOperand> extras =
      operands.drop_front(2).drop_back(std::min(tail, operands.size() - 2));
  // (A one-dimensional offset may be a scalar: an integer, where the
  // depth to compare is a float.)
  bool scalarOffset = dims == 1 && !extras.empty() &&
                      extras.front().kind != ParsedOperand::Vec &&
                      extras.front().kind != ParsedOperand::Float &&
                      !(declaredType(extras.front()) &&
                        typeClass(*declaredType(extras.front())) == 'f');
  if (!extras.empty() &&
      (extras.front().kind == ParsedOperand::Vec || scalarOffset)) {
    // (Not with gradients, nor on a cube map: "Arguments mismatch for
    // instruction 'tex.grad'"; seed 72.)
    if (grad || cube)
      return p.error(
          extras.front().tok,
          (grad ? "'tex.grad." + stringifyGeometry(geom) + "'" : Twine(where)) +
              " takes no offsets");
    if (scalarOffset) {
      if (failed(fitsAs(extras.front(), TypeKind::s32, "offsets")))
        return failure();
    } else if (failed(vectorOf(extras.front(), TypeKind::s32, "offsets"))) {
      return failure();
    }
    extras = extras.drop_front();
  }
  if (extras.size() > 1)
    return p.error(extras.front().tok,
                   where + " takes the offsets before the depth to compare");
  if (!extras.empty() &&
      failed(fitsAs(extras.front(), TypeKind::f32, "depth to compare")))
    return failure();
  // A depth is compared at float coordinates ("Arguments mismatch"; seed
  // 72).
  if (!extras.empty() && ctype != TypeKind::f32)
    return p.error(extras.front().tok,
                   where + " compares a depth at .f32 coordinates only");
  // (ptxas takes a vector of registers that fit for the level too; the
  // operand grid.)
  if (level) {
    for (const ParsedOperand &e : elementsOf(operands.back()))
      if (failed(fitsAs(e, ctype, "level of detail")))
        return failure();
    return success();
  }
  if (grad)
    for (const ParsedOperand &g : operands.take_back(2))
      if (failed(vectorOf(g, TypeKind::f32, "gradients")))
        return failure();
  return success();
}

std::optional<TypeKind> FunctionBuilder::not32(const ParsedOperand &o,
                                               bool floats) {
  std::optional<TypeKind> reg = declaredType(o);
  if (reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) != 32 ||
              (!floats && typeClass(*reg) == 'f')))
    return reg;
  return std::nullopt;
}

LogicalResult FunctionBuilder::refuseRegister(StringRef mnemonic,
                                              const ParsedOperand &o,
                                              TypeKind reg, StringRef what) {
  return p.error(o.tok, "'" + mnemonic + "' takes a 32-bit " + what +
                            ", not the ." + stringifyTypeKind(reg) +
                            " register '" + o.name + "'");
}

LogicalResult FunctionBuilder::requireBits(const ParsedOperand &o,
                                           unsigned bits, const Twine &what) {
  std::optional<TypeKind> reg = declaredType(o);
  if (!reg || getTypeBitWidth(*reg) == bits)
    return success();
  return p.error(o.tok, what + ", not the ." + stringifyTypeKind(*reg) +
                            " register '" + o.name + "'");
}

LogicalResult FunctionBuilder::requirePredicate(StringRef mnemonic,
                                                const ParsedOperand &o,
                                                StringRef verb) {
  std::optional<TypeKind> reg = declaredType(o);
  if (!reg || *reg == TypeKind::pred)
    return success();
  return p.error(o.tok,
                 "'" + mnemonic + "' " + verb + " a predicate, not the ." +
                     stringifyTypeKind(*reg) + " register '" + o.name + "'");
}

LogicalResult FunctionBuilder::requireMbarrierAddress(StringRef mnemonic,
                                                      const ParsedOperand &o) {
  // (Nor a predicate, a 32-bit, .f64 or .b128 register or a function's
  // name: the operand grid and seed 74. ptxas takes a 16-bit register.)
  std::optional<TypeKind> reg = declaredType(o);
  bool function = o.kind == ParsedOperand::Name && !lookup(o.name) &&
                  p.functions.count(o.name);
  if (o.kind == ParsedOperand::Vec || o.kind == ParsedOperand::Float ||
      (o.kind == ParsedOperand::Int && o.intValue >> 32) || function ||
      (reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) == 32 ||
               getTypeBitWidth(*reg) == 128 || *reg == TypeKind::f64)))
    return p.error(o.tok, "'" + mnemonic +
                              "' takes the mbarrier's address here, not " +
                              Parser::describe(o.tok));
  return success();
}

LogicalResult FunctionBuilder::requireOneAddress(
    StringRef mnemonic, ArrayRef<ParsedOperand> operands, size_t addr) {
  for (size_t i = 0; i < operands.size(); ++i)
    if ((i == addr) != (operands[i].kind == ParsedOperand::Addr))
      return p.error(operands[i].tok,
                     i == addr ? "'" + mnemonic +
                                     "' expects an address [a] here, not " +
                                     Parser::describe(operands[i].tok)
                               : "'" + mnemonic +
                                     "' takes one address; this operand "
                                     "must be a value");
  return success();
}

std::optional<StateSpace>
FunctionBuilder::variableSpace(const ParsedOperand &o) {
  if (!namesVariable(o))
    return std::nullopt;
  if (const NameEntry *e = lookup(o.name))
    return cast<PtrType>(e->value.getType()).getSpace();
  return p.symbols.lookup(o.name);
}

bool FunctionBuilder::namesVariable(const ParsedOperand &o) {
  if (o.kind != ParsedOperand::Name)
    return false;
  if (const NameEntry *e = lookup(o.name))
    return e->kind == NameEntry::Val && isa<PtrType>(e->value.getType());
  return p.symbols.count(o.name) && !p.functions.count(o.name);
}

LogicalResult
FunctionBuilder::checkOperandKinds(StringRef mnemonic, const InstSpec &spec,
                                   ModifiersAttr mods,
                                   ArrayRef<ParsedOperand> operands) {
  auto takesNo = [&](const ParsedOperand &o, const Twine &what) {
    return p.error(o.tok, "'" + mnemonic + "' takes no " + what);
  };
  // A sink anywhere in a source (ptxas: "Sink '_' not allowed as a source
  // operand").
  std::function<const ParsedOperand *(const ParsedOperand &)> sink =
      [&](const ParsedOperand &o) -> const ParsedOperand * {
    if (o.kind == ParsedOperand::Sink)
      return &o;
    for (const ParsedOperand &e : o.elems)
      if (const ParsedOperand *s = sink(e))
        return s;
    return nullptr;
  };
  auto discard = [&](const ParsedOperand &o) {
    return p.error(o.tok,
                   "'" + mnemonic + "' cannot discard its result into '_'");
  };
  ArrayRef<TypeKind> types = mods.getTypes();
  for (auto [i, o] : llvm::enumerate(operands)) {
    bool dest = i == 0 && spec.hasDest();
    // (ptxas takes `_` for a half of mov.b32's pair: `mov.b32 %r, {%h, _}`.)
    bool halves = mnemonic == "mov" && o.kind == ParsedOperand::Vec &&
                  o.elems.size() == 2 && types.size() == 1 &&
                  types[0] == TypeKind::b32;
    if (!dest && !halves)
      if (const ParsedOperand *s = sink(o))
        return p.error(s->tok, "'_' can only be a destination");
    switch (o.kind) {
    case ParsedOperand::Addr: {
      if (!spec.has(p::Addr))
        return takesNo(o, "address operand [...]");
      // (ptxas: "Immediate addresses allowed only for .local state
      // space".)
      ArrayRef<StateSpace> spaces = mods.getSpaces();
      bool local = !spaces.empty() && llvm::all_of(spaces, [](StateSpace s) {
        return s == StateSpace::local;
      });
      if (o.elems.front().kind == ParsedOperand::Int && !local)
        return p.error(o.tok, "an immediate address [" +
                                  Twine(int64_t(o.elems.front().intValue)) +
                                  "] is for .local memory only");
      break;
    }
    case ParsedOperand::Vec:
      if (!spec.has(p::Vec))
        return takesNo(o, "vector operand {...}");
      break;
    case ParsedOperand::Sink:
      if (!spec.has(p::Discard))
        return discard(o);
      break;
    case ParsedOperand::Pair:
      // `_|%p` for setp, lop3 and elect; elect's second is its predicate.
      if (o.elems[0].kind == ParsedOperand::Sink && !spec.has(p::Discard) &&
          mnemonic != "elect")
        return discard(o.elems[0]);
      if (o.elems[1].kind == ParsedOperand::Sink && mnemonic == "elect")
        return p.error(o.elems[1].tok,
                       "'elect' writes a predicate after '|', not '_'");
      break;
    case ParsedOperand::NotName:
      if (!spec.has(p::Negate))
        return takesNo(o, "negated predicate '!" + o.name + "'");
      break;
    case ParsedOperand::Name:
      // (ptxas: "must be register"; a name plus an offset passes there.)
      if ((!spec.has(p::Symbol) || (mnemonic == "cvta" && mods.has(Flag::to)) ||
           (mnemonic == "mov" && types.size() == 1 &&
            types[0] == TypeKind::pred)) &&
          !o.hasOffset && namesVariable(o))
        return p.error(
            o.tok,
            spec.has(p::Symbol)
                ? "'" + mnemonic + "." + (mnemonic == "mov" ? "pred" : "to") +
                      "' takes a register, not the variable '" + o.name + "'"
                : "'" + mnemonic +
                      "' takes registers and immediates, not the "
                      "variable '" +
                      o.name + "' (mov and cvta take its address)");
      break;
    default:
      break;
    }
  }
  return success();
}

/// A vector's registers are of one width, predicates aside (ptxas:
/// "Incompatible elements of vector expression"; the operand grid). Checked
/// after the instructions' own rules, whose messages say more.
LogicalResult
FunctionBuilder::checkVectorWidths(ArrayRef<ParsedOperand> operands) {
  for (const ParsedOperand &o : operands) {
    if (failed(checkVectorWidths(o.elems)))
      return failure();
    if (o.kind != ParsedOperand::Vec)
      continue;
    const ParsedOperand *first = nullptr;
    for (const ParsedOperand &e : o.elems) {
      std::optional<TypeKind> reg = declaredType(e);
      if (!reg || *reg == TypeKind::pred)
        continue;
      if (!first) {
        first = &e;
        continue;
      }
      TypeKind t = *declaredType(*first);
      if (getTypeBitWidth(t) != getTypeBitWidth(*reg))
        return p.error(e.tok, "the registers of a vector {...} are of one "
                              "width, not ." +
                                  stringifyTypeKind(t) + " '" + first->name +
                                  "' and ." + stringifyTypeKind(*reg) + " '" +
                                  e.name + "'");
    }
  }
  return success();
}

/// The operand types the general rules leave to each instruction, one
/// letter per operand (ptxas's "Arguments mismatch" for any other; found by
/// test/fuzz/ptxas_operand_grid.py):
///   T, U  a value of the first (second) instruction type: a register that
///         fits it or a literal of its kind
///   i, l  a 32-bit (64-bit) integer register or an integer literal
///   x     an integer register of any width or an integer literal
///   j     anything but a float literal (other rules type it)
///   p     a predicate, `!p`, or an integer literal
///   P     a predicate register
///   w     a 32-bit register, a predicate, `!p`, a 0f literal or a vector
///         of 32-bit registers or predicates
///         (what ptxas takes for movmatrix and the sparse mma's metadata)
///   m     an address, a register (not a predicate) or a float literal
///         (what ptxas takes for a tensor copy's shared-memory address)
///   n, N  an integer literal (a non-negative one)
///   d     a 64-bit integer or a vector (wgmma's descriptor or registers)
///   I     an integer register of 32 bits or more, an integer literal or a
///         function's name (cvt.pack's)
///   L     a 64-bit integer register
///   z     an integer of the last type's width or a function's name
///         (alloca's size)
///   B     a register of the last type's width or any literal
///         (tensormap.replace's value)
///   y     anything but an integer literal or a function's name (a bulk
///         tensor copy's shared-memory source, as ptxas takes it)
///   F     anything but a function's name or an address
///   f     anything but a function's name (redux's and vote.ballot's
///         source, a .bf16 ex2's)
///   K     anything but a predicate or a register under 32 bits
///         (cvt.pack's last source)
///   e     a 32-bit integer or a vector (txq.level's level, as ptxas takes it)
///   t     a tensor map and its coordinates `[map, {...}]`, no offset
///   q     a pair `d|p` (elect)
///   a, v  an address [a], a vector {...}
///   .     left to other rules
/// A function's name, which ptxas takes as a 32-bit or 64-bit value of the
/// instruction's type, is refused for i, l, x, p, w, n, N and narrower T.
/// (The scalar video instructions take one, the SIMD ones do not.)
LogicalResult
FunctionBuilder::checkOperandSignature(StringRef mnemonic, ModifiersAttr mods,
                                       ArrayRef<ParsedOperand> operands) {
  static const llvm::StringMap<StringRef> kSignatures = {
      {"slct", "TTTU"},
      {"fns", "TTTT"},
      {"brev", "TT"},
      {"shf", "TTTi"},
      {"setp", "...p"},
      {"set", "...p"},
      {"cvt", ".F"},
      {"cvt.pack", "IIIK"},
      {"istypep", "Pl"},
      {"alloca", "TzN"},
      {"stacksave", "l"},
      {"stackrestore", "L"},
      {"tensormap.replace", "aB"},
      {"txq", ".ae"},
      {"wgmma.wait_group", "N"},
      {"cp.async.bulk.prefetch.tensor", "t"},
      {"cp.reduce.async.bulk.tensor", "tm"},
      {"mbarrier.arrive", ".ai"},
      {"mbarrier.expect_tx", "ai"},
      {"mbarrier.complete_tx", "ai"},
      {"wmma.load", ".ai"},
      {"wmma.store", "a.i"},
      {"vadd2", "xxxx"},
      {"vsub2", "xxxx"},
      {"vavrg2", "xxxx"},
      {"vabsdiff2", "xxxx"},
      {"vmin2", "xxxx"},
      {"vmax2", "xxxx"},
      {"vset2", "xxxx"},
      {"vadd4", "xxxx"},
      {"vsub4", "xxxx"},
      {"vavrg4", "xxxx"},
      {"vabsdiff4", "xxxx"},
      {"vmin4", "xxxx"},
      {"vmax4", "xxxx"},
      {"vset4", "xxxx"},
      {"bmsk", "iii"},
      {"szext", "TTi"},
      {"bfe", "TTii"},
      {"bfi", "TTTii"},
      {"dp4a", "Tjji"},
      {"dp2a", "Tjji"},
      {"shl", "TTi"},
      {"shr", "TTi"},
      {"lop3", "TTTTn"},
      {"selp", "TTTp"},
      {"shfl", "....i"},
      {"vote", "..i"},
      {"match", "..i"},
      {"redux", ".fi"},
      {"nanosleep", "i"},
      {"bar.sync", "ii"},
      {"barrier.sync", "ii"},
      {"bar.arrive", "ii"},
      {"barrier.arrive", "ii"},
      {"bar.warp.sync", "i"},
      {"isspacep", "Px"},
      {"mapa", "TTi"},
      {"getctarank", "iT"},
      {"elect", "qi"},
      {"prefetchu", "a"},
      {"cp.async.mbarrier.arrive", "a"},
      {"mbarrier.init", "ai"},
      {"mbarrier.test_wait", "Pax"},
      {"mbarrier.try_wait", "Paxi"},
      {"mbarrier.pending_count", ".x"},
      {"ldmatrix", "va"},
      {"stmatrix", "av"},
      {"movmatrix", "ww"},
      {"setmaxnreg", "N"},
      {"cp.async.bulk", "aai"},
      {"cp.async.bulk.prefetch", "ai"},
      {"cp.reduce.async.bulk", "aai"},
      {"cp.async.bulk.tensor", "mtm"},
      {"tensormap.cp_fenceproxy", "aaN"},
      {"wgmma.mma_async", "vdlp"},
      {"wgmma.mma_async.sp", "vdlwNp"},
      {"mma", "vvvv"},
      {"mma.sp", "vvvvwN"},
      {"st.async", "aTa"},
      {"red.async", "aTa"},
      {"sured", "aj"},
      {"tex", "va"},
      {"tld4", "va"},
  };
  auto it = kSignatures.find(mnemonic);
  StringRef signature = it == kSignatures.end() ? "" : it->second;
  // The forms whose operands differ: createpolicy's .range and
  // .fractional, bar.red's optional thread count, a tensor copy's
  // direction (to .global: the tensor map first, then the source).
  std::optional<StateSpace> space = mods.getSpace();
  if (mnemonic == "createpolicy")
    signature = hasExtra(mods, "range") ? "laii" : "lF";
  else if (mnemonic == "bar.red" || mnemonic == "barrier.red")
    signature = operands.size() == 4 ? ".iip" : ".ip";
  else if (mnemonic == "vote" && mods.getMode() == Mode::ballot)
    signature = ".fi"; // (ptxas takes a function's name for vote.all's.)
  else if (mnemonic == "cp.async.bulk.tensor" && space &&
           *space == StateSpace::global)
    signature = "ty";
  ArrayRef<TypeKind> types = mods.getTypes();
  auto function = [&](const ParsedOperand &o) {
    return o.kind == ParsedOperand::Name && !lookup(o.name) &&
           p.functions.count(o.name);
  };
  // A function's name is no .bf16 value, where ptxas takes it for .f16
  // (ptxas: "Arguments mismatch" for add, fma, min, neg, tanh, set, ex2...
  // of .bf16 and .bf16x2; the operand grid's rows of seed 67; cvt's
  // source and the matrix instructions' descriptors are their own).
  if (!types.empty() &&
      (types.back() == TypeKind::bf16 || types.back() == TypeKind::bf16x2) &&
      mnemonic != "cvt" && !mnemonic.starts_with("wgmma.") &&
      !mnemonic.starts_with("mma"))
    for (auto [i, o] : llvm::enumerate(operands))
      if (function(o))
        return p.error(o.tok, "'" + mnemonic + "' takes a value as operand " +
                                  Twine(i + 1) + ", not '" + o.name + "'");
  auto integer = [&](const ParsedOperand &o, unsigned bits) {
    if (o.kind == ParsedOperand::Int)
      return true;
    // (A texture's name is its 64-bit handle: istypep.)
    if (o.kind != ParsedOperand::Name || function(o) ||
        (namesVariable(o) && !o.hasOffset && !p.handles.count(o.name)))
      return false;
    std::optional<TypeKind> reg = declaredType(o);
    return !reg ||
           (*reg != TypeKind::pred && typeClass(*reg) != 'f' &&
            !isHalfType(*reg) && (!bits || getTypeBitWidth(*reg) == bits));
  };
  for (size_t i = 0; i < operands.size() && i < signature.size(); ++i) {
    const ParsedOperand &o = operands[i];
    char c = signature[i];
    auto refuse = [&](const Twine &what) {
      return p.error(
          o.tok,
          "'" + mnemonic + "' takes " + what + " as operand " + Twine(i + 1) +
              ", not " +
              (o.kind == ParsedOperand::Addr  ? std::string("an address [...]")
               : o.kind == ParsedOperand::Vec ? std::string("this vector {...}")
               : o.kind == ParsedOperand::Int
                   ? "'" + std::to_string(int64_t(o.intValue)) + "'"
                   : Parser::describe(o.tok)));
    };
    std::optional<TypeKind> reg = declaredType(o);
    bool pred = reg && *reg == TypeKind::pred;
    switch (c) {
    case 'T':
    case 'U': {
      // (An instruction of the wrong type, lop3.pred, is the verifier's.)
      size_t which = c == 'T' ? 0 : 1;
      if (which >= types.size() || types[which] == TypeKind::pred)
        break;
      TypeKind t = types[which];
      // A vector's elements each (st.async's {a, b}).
      ArrayRef<ParsedOperand> elems =
          o.kind == ParsedOperand::Vec ? ArrayRef(o.elems) : ArrayRef(o);
      for (const ParsedOperand &e : elems) {
        if (e.kind == ParsedOperand::Addr)
          return refuse("a ." + stringifyTypeKind(t) + " value");
        if (e.isLiteral()) {
          if (failed(checkLiteral(e, mnemonic, t, t, /*noHalves=*/true)))
            return failure();
          continue;
        }
        if (function(e) && getTypeBitWidth(t) >= 32)
          continue;
        std::optional<TypeKind> r = declaredType(e);
        if (function(e) || (r && !registerFits(t, *r)))
          return refuse("a ." + stringifyTypeKind(t) + " value");
      }
      break;
    }
    case 'i':
    case 'l':
    case 'x':
      if (!integer(o, c == 'i' ? 32 : c == 'l' ? 64 : 0))
        return refuse(c == 'x'   ? Twine("an integer")
                      : c == 'i' ? Twine("a 32-bit integer")
                                 : Twine("a 64-bit integer"));
      break;
    case 'j':
      if (o.kind == ParsedOperand::Float)
        return refuse("an integer");
      break;
    case 'p':
    case 'P':
      if (!(o.kind == ParsedOperand::Name && !function(o) && (pred || !reg)) &&
          !(c == 'p' &&
            (o.kind == ParsedOperand::NotName || o.kind == ParsedOperand::Int)))
        return refuse("a predicate");
      break;
    case 'w': {
      // (A vector of 32-bit registers or predicates.)
      bool ok = (o.kind == ParsedOperand::Vec &&
                 llvm::none_of(o.elems,
                               [&](const ParsedOperand &e) {
                                 std::optional<TypeKind> r = declaredType(e);
                                 return r && *r != TypeKind::pred &&
                                        getTypeBitWidth(*r) != 32;
                               })) ||
                o.kind == ParsedOperand::NotName ||
                (o.kind == ParsedOperand::Float && o.floatWidth == 32) ||
                (o.kind == ParsedOperand::Name && !function(o) &&
                 (!reg || pred || getTypeBitWidth(*reg) == 32));
      if (!ok)
        return refuse("a 32-bit register or a predicate");
      break;
    }
    case 'm':
    case 'y': {
      bool ok = o.kind == ParsedOperand::Addr ||
                o.kind == ParsedOperand::Float ||
                (o.kind == ParsedOperand::Name && !function(o) &&
                 (!pred || c == 'y'));
      if (!ok)
        return refuse("an address [a]");
      break;
    }
    case 'I':
      if (!function(o) &&
          !(integer(o, 0) && (!reg || getTypeBitWidth(*reg) >= 32)))
        return refuse("an integer of 32 bits or more");
      break;
    case 'L':
      if (o.kind != ParsedOperand::Name || !integer(o, 64))
        return refuse("a 64-bit integer register");
      break;
    case 'z': {
      unsigned bits = types.empty() ? 64 : getTypeBitWidth(types.back());
      if (!function(o) && !integer(o, bits))
        return refuse("a " + Twine(bits) + "-bit integer");
      break;
    }
    case 'B': {
      unsigned bits = types.empty() ? 0 : getTypeBitWidth(types.back());
      if ((o.kind == ParsedOperand::Name && !function(o) && reg &&
           (pred || getTypeBitWidth(*reg) != bits)) ||
          o.kind == ParsedOperand::Addr || o.kind == ParsedOperand::Vec)
        return refuse("a " + Twine(bits) + "-bit value");
      break;
    }
    case 'F':
      if (function(o) || o.kind == ParsedOperand::Addr)
        return refuse("a value");
      break;
    case 'f':
      if (function(o))
        return refuse("a value");
      break;
    case 'K':
      if (pred || (reg && getTypeBitWidth(*reg) < 32))
        return refuse("a value of 32 bits or more");
      break;
    case 'e':
      if (o.kind != ParsedOperand::Vec && !integer(o, 32))
        return refuse("a 32-bit integer");
      break;
    case 't':
      if (o.kind != ParsedOperand::Addr || o.elems.size() < 2 || o.offset ||
          (declaredType(o.elems.front()) &&
           getTypeBitWidth(*declaredType(o.elems.front())) != 64))
        return refuse("a tensor map and coordinates [map, {...}]");
      break;
    case 'n':
    case 'N':
      if (o.kind != ParsedOperand::Int || (c == 'N' && int64_t(o.intValue) < 0))
        return refuse(c == 'N' ? "a non-negative integer literal"
                               : "an integer literal");
      break;
    case 'd':
      if (o.kind != ParsedOperand::Vec && !integer(o, 64))
        return refuse("a 64-bit descriptor or a vector {...}");
      break;
    case 'q':
      if (o.kind != ParsedOperand::Pair)
        return refuse("a destination and a predicate 'd|p'");
      break;
    case 'a':
      if (o.kind != ParsedOperand::Addr)
        return refuse("an address [a]");
      break;
    case 'v':
      if (o.kind != ParsedOperand::Vec)
        return refuse("a vector {...}");
      break;
    default:
      break;
    }
  }
  // Immediates of a fixed range (ptxas: "unexpected value", "value out of
  // range").
  if (mnemonic == "setmaxnreg" && !operands.empty() &&
      operands[0].kind == ParsedOperand::Int) {
    uint64_t n = operands[0].intValue;
    if (n < 24 || n > 256 || n % 8)
      return p.error(operands[0].tok, "'setmaxnreg' sets a register count "
                                      "that is a multiple of 8 from 24 to "
                                      "256, not " +
                                          operands[0].tok.text);
  }
  // A texture's result vector and an asynchronous store's value vector
  // are as wide as their .vN ("Argument vector size mismatch", "Illegal
  // vector size: 3"; without .vN ptxas takes st.async's vector: the operand
  // grid); prefetchu's address is generic ("Non-generic address is not
  // supported").
  bool fetch = mnemonic == "tex" || mnemonic == "tld4";
  size_t vi = fetch ? 0 : 1;
  if ((fetch || mnemonic == "st.async" || mnemonic == "red.async") &&
      mods.getVec() && operands.size() > vi &&
      operands[vi].kind == ParsedOperand::Vec &&
      operands[vi].elems.size() != mods.getVec())
    return p.error(operands[vi].tok,
                   "'" + mnemonic + ".v" + Twine(mods.getVec()) + "' " +
                       (fetch ? "writes " : "stores ") + Twine(mods.getVec()) +
                       " values, not " + Twine(operands[vi].elems.size()));
  if (mnemonic == "tld4" && operands.size() > 1 &&
      operands[1].kind == ParsedOperand::Addr && mods.getGeometry() &&
      failed(checkImageAddress(
          operands[1], *mods.getGeometry(),
          ("'tld4." + stringifyGeometry(*mods.getGeometry()) + "'").str(),
          "texture")))
    return failure();
  if (mnemonic == "prefetchu" && !operands.empty() &&
      operands[0].kind == ParsedOperand::Addr &&
      namesVariable(operands[0].elems.front()))
    return p.error(operands[0].tok, "'prefetchu' takes a generic address, "
                                    "not a variable's");
  // createpolicy.range's primary size is at most its total (ptxas reads
  // both as 32-bit: "must be less than or equal to the value of argument
  // 4"); multimem's vector values are as wide as its .vN ("Argument vector
  // size mismatch").
  if (mnemonic == "createpolicy" && operands.size() == 4 &&
      operands[2].kind == ParsedOperand::Int &&
      operands[3].kind == ParsedOperand::Int &&
      uint32_t(operands[2].intValue) > uint32_t(operands[3].intValue))
    return p.error(operands[2].tok,
                   "the primary size of 'createpolicy.range' is at most its "
                   "total size");
  // (And .vN a vector: "Vector of size 2 is expected for argument 1"; the
  // modifier grid.)
  if ((mnemonic == "multimem.st" || mnemonic == "multimem.red") &&
      mods.getVec() && operands.size() == 2 &&
      operands[1].kind != ParsedOperand::Vec)
    return p.error(operands[1].tok,
                   "'" + mnemonic + ".v" + Twine(mods.getVec()) + "' moves " +
                       Twine(mods.getVec()) + " values {...}, not " +
                       Parser::describe(operands[1].tok));
  if (mnemonic.starts_with("multimem."))
    for (const ParsedOperand &o : operands)
      if (o.kind == ParsedOperand::Vec && o.elems.size() != mods.getVec())
        return p.error(o.tok, "'" + mnemonic + "' moves " +
                                  (mods.getVec()
                                       ? ".v" + Twine(mods.getVec()) + " values"
                                       : Twine("one value")) +
                                  ", not a vector of " + Twine(o.elems.size()));
  // A bulk prefetch reads at most 1,048,560 bytes (ptxas: "value out of
  // range, expected to be in range [0..1048560]"; the operand grid).
  if (mnemonic == "cp.async.bulk.prefetch" && operands.size() > 1 &&
      operands[1].kind == ParsedOperand::Int && operands[1].intValue > 1048560)
    return p.error(operands[1].tok, "'cp.async.bulk.prefetch' reads at most "
                                    "1048560 bytes, not " +
                                        operands[1].tok.text);
  // alloca's alignment is a power of two (ptxas: "Alignment must be a
  // power of two"; seed 58).
  if (mnemonic == "alloca" && operands.size() == 3 &&
      operands[2].kind == ParsedOperand::Int &&
      !llvm::isPowerOf2_64(operands[2].intValue))
    return p.error(operands[2].tok, "'alloca' aligns to a power of two, not " +
                                        operands[2].tok.text);
  // (ptxas: "value out of range" for a parity other than 0 and 1.)
  if ((mnemonic == "mbarrier.try_wait" || mnemonic == "mbarrier.test_wait") &&
      mods.has(Flag::parity) && operands.size() > 2 &&
      operands[2].kind == ParsedOperand::Int && operands[2].intValue > 1)
    return p.error(operands[2].tok,
                   "'" + mnemonic +
                       ".parity' waits for phase parity 0 or 1, "
                       "not " +
                       operands[2].tok.text);
  if (mnemonic == "tensormap.cp_fenceproxy" && operands.size() > 2 &&
      operands[2].kind == ParsedOperand::Int && operands[2].intValue != 128)
    return p.error(operands[2].tok,
                   "'tensormap.cp_fenceproxy' copies 128 bytes, not " +
                       operands[2].tok.text);
  return success();
}

LogicalResult
FunctionBuilder::checkMmaFragments(StringRef mnemonic, ArrayRef<TypeKind> types,
                                   ArrayRef<int64_t> shape,
                                   ArrayRef<ParsedOperand> fragments) {
  // D, A, B and C: 32 bits of elements per lane a register (f64 one each;
  // m8n8k4's f16 quad pairs more); the sparse form's A is half as wide.
  bool sparse = mnemonic == "mma.sp";
  int64_t m = shape[0], n = shape[1], k = shape[2];
  bool quadPair =
      !sparse && m == 8 && n == 8 && k == 4 && types[1] == TypeKind::f16;
  for (auto [i, o] : llvm::enumerate(fragments)) {
    TypeKind t = types[i];
    int64_t elems = (i == 1   ? m * k / (sparse ? 2 : 1)
                     : i == 2 ? k * n
                              : m * n) /
                    32;
    int64_t want = t == TypeKind::f64
                       ? elems
                       : std::max<int64_t>(1, elems * getTypeBitWidth(t) / 32);
    if (quadPair) // A and B two .f16x2, C and D four or eight
      want = i == 1 || i == 2 ? 2 : t == TypeKind::f32 ? 8 : 4;
    if (static_cast<int64_t>(o.elems.size()) != want)
      return p.error(o.tok, "'" + mnemonic + "' fragment " + Twine("DABC"[i]) +
                                " of ." + stringifyTypeKind(t) + " is " +
                                Twine(want) + " registers, not " +
                                Twine(o.elems.size()));
    // .f32/.f64 elements in registers of their width; packed and integer
    // ones in 32-bit non-float registers (ptxas: "Arguments mismatch" for
    // .tf32 or .s32 in .f32 registers; seed 45).
    bool wide = t == TypeKind::f32 || t == TypeKind::f64;
    for (const ParsedOperand &e : o.elems)
      if (std::optional<TypeKind> reg = declaredType(e);
          reg && (*reg == TypeKind::pred ||
                  getTypeBitWidth(*reg) != (t == TypeKind::f64 ? 64 : 32) ||
                  (!wide && typeClass(*reg) == 'f')))
        return p.error(e.tok, "'" + mnemonic + "' fragment " +
                                  Twine("DABC"[i]) + " of ." +
                                  stringifyTypeKind(t) + " takes no ." +
                                  stringifyTypeKind(*reg) + " register ('" +
                                  e.name + "')");
  }
  return success();
}

LogicalResult FunctionBuilder::requireRowCol(const Token &opTok,
                                             StringRef mnemonic,
                                             ModifiersAttr mods) {
  SmallVector<StringRef, 2> layouts;
  if (ArrayAttr extras = mods.getExtras())
    for (Attribute e : extras)
      if (StringRef w = cast<StringAttr>(e).getValue();
          w == "row" || w == "col")
        layouts.push_back(w);
  if (layouts.size() == 2 && layouts[0] == "row" && layouts[1] == "col")
    return success();
  if (layouts.empty())
    return p.error(opTok,
                   "'" + mnemonic + "' needs A's and B's layouts (.row.col)");
  return p.error(opTok, "'" + mnemonic +
                            "' is .row.col (A row-major, B column-major), "
                            "not ." +
                            llvm::join(layouts, "."));
}

LogicalResult FunctionBuilder::checkMmaTypes(const Token &opTok,
                                             StringRef mnemonic,
                                             ArrayRef<TypeKind> types,
                                             ArrayRef<int64_t> shape) {
  // A's type names the shapes and D's and C's types (ptxas, sm_90a at PTX
  // 8.6 and 9.0: "Unexpected instruction types specified for 'mma'",
  // "Incorrect instruction type specified for mma with shape", ".dtype
  // must be '.f16' when .ctype is '.f16'"; seed 64 and ptxas_type_grid.py).
  // Dense m16n8 shapes have the two K that hold 128 and 256 bits of A a
  // row, the sparse ones twice those; m8n8 has one, and .f64 three K.
  using T = TypeKind;
  bool sparse = mnemonic == "mma.sp";
  T a = types[1], d = types[0], c = types[3];
  int64_t m = shape[0], n = shape[1], k = shape[2];
  bool fp8 = a == T::e4m3 || a == T::e5m2;
  unsigned bits = a == T::tf32 ? 32 : getTypeBitWidth(a);
  // B is A's type, or its signed/unsigned or other 8-bit float partner.
  if (a == T::f32 || a == T::s32 ||
      multiplicandFamily(types[2]) != multiplicandFamily(a))
    return p.error(opTok, "'" + mnemonic + "' has no multiplicands ." +
                              stringifyTypeKind(a) + " and ." +
                              stringifyTypeKind(types[2]));
  // (PTX ISA 8.7's: "Feature 'mma with FP8 floating point type and FP16
  // accumulation' requires PTX ISA .version 8.7 or later", and for K 16.)
  if (fp8 && !sparse && p.ptxVersion < 87 &&
      ((d == T::f16 && c == T::f16) || (m == 16 && n == 8 && k == 16)))
    return p.error(opTok,
                   "'mma' of ." + stringifyTypeKind(a) +
                       (k == 16 ? Twine(" and K 16") : Twine(" into .f16")) +
                       " needs .version 8.7 or later");
  bool shapeFits = false;
  if (n == 8 && m == 16) {
    int64_t k128 = 128 / bits * (sparse ? 2 : 1);
    if (a == T::f64)
      shapeFits = !sparse && (k == 4 || k == 8 || k == 16);
    else if (fp8)
      shapeFits = k == 2 * k128 || (!sparse && k == k128 && p.ptxVersion >= 87);
    else
      shapeFits = (k == k128 || k == 2 * k128) && !(sparse && a == T::b1);
  } else if (n == 8 && m == 8 && !sparse) {
    shapeFits = a == T::f16 || a == T::f64            ? k == 4
                : a == T::bf16 || a == T::tf32 || fp8 ? false
                                                      : k == 128 / bits;
  }
  if (!shapeFits)
    return p.error(opTok, "'" + mnemonic + "' of ." + stringifyTypeKind(a) +
                              " has no shape .m" + Twine(m) + "n" + Twine(n) +
                              "k" + Twine(k));
  // D and C: one type, but .m8n8k4's .f16 adds .f32 from .f16.
  SmallVector<T, 2> results;
  switch (a) {
  case T::f16:
    results = {T::f16, T::f32};
    break;
  case T::e4m3:
  case T::e5m2:
    results = {T::f32};
    if (!sparse && p.ptxVersion >= 87)
      results.push_back(T::f16);
    break;
  case T::bf16:
  case T::tf32:
    results = {T::f32};
    break;
  case T::f64:
    results = {T::f64};
    break;
  default:
    results = {T::s32};
    break;
  }
  bool mixed = a == T::f16 && m == 8 && k == 4 && d == T::f32 && c == T::f16;
  if ((d != c && !mixed) || !llvm::is_contained(results, d))
    return p.error(
        opTok,
        "'" + mnemonic + "' of ." + stringifyTypeKind(a) + " accumulates ." +
            stringifyTypeKind(c) + " into ." + stringifyTypeKind(d) +
            " (D and C " + (results.size() > 1 ? "of one of ." : "of .") +
            stringifyTypeKind(results[0]) +
            (results.size() > 1 ? (", ." + stringifyTypeKind(results[1])).str()
                                : std::string()) +
            ")");
  return success();
}

LogicalResult FunctionBuilder::checkWgmmaTypes(const Token &opTok,
                                               StringRef mnemonic,
                                               ArrayRef<TypeKind> types,
                                               ArrayRef<int64_t> shape) {
  // A's type names D's and K: .f16 into .f16 or .f32 and .bf16 into .f32
  // with K 16, .tf32 into .f32 with K 8, the 8-bit floats into .f16 or .f32
  // and the 8-bit integers into .s32 with K 32, .b1 (dense only) into .s32
  // with K 256; the sparse form twice K; M is 64 (ptxas: "Unexpected
  // instruction types specified", "Illegal matrix shape"; seed 64 and
  // ptxas_type_grid.py).
  using T = TypeKind;
  bool sparse = mnemonic.ends_with(".sp");
  T a = types[1];
  int64_t k = 0;
  SmallVector<T, 2> results;
  switch (a) {
  case T::f16:
    k = 16, results = {T::f16, T::f32};
    break;
  case T::bf16:
    k = 16, results = {T::f32};
    break;
  case T::tf32:
    k = 8, results = {T::f32};
    break;
  case T::e4m3:
  case T::e5m2:
    k = 32, results = {T::f16, T::f32};
    break;
  case T::s8:
  case T::u8:
    k = 32, results = {T::s32};
    break;
  case T::b1:
    if (!sparse)
      k = 256, results = {T::s32};
    break;
  default:
    break;
  }
  if (!k)
    return p.error(opTok, "'" + mnemonic + "' has no multiplicand type ." +
                              stringifyTypeKind(a));
  if (!llvm::is_contained(results, types[0]))
    return p.error(opTok,
                   "'" + mnemonic + "' of ." + stringifyTypeKind(a) +
                       " accumulates into ." + stringifyTypeKind(results[0]) +
                       (results.size() > 1
                            ? (" or ." + stringifyTypeKind(results[1])).str()
                            : std::string()) +
                       ", not ." + stringifyTypeKind(types[0]));
  k *= sparse ? 2 : 1;
  if (shape.size() == 3 && (shape[0] != 64 || shape[2] != k))
    return p.error(opTok, "'" + mnemonic + "' of ." + stringifyTypeKind(a) +
                              " is of shape .m64nNk" + Twine(k) + ", not .m" +
                              Twine(shape[0]) + "n" + Twine(shape[1]) + "k" +
                              Twine(shape[2]));
  // N is a multiple of 8 up to 256, past 24 of 16 for the integer and
  // single-bit types ("Unknown modifier '.m64n12k16'", "Illegal matrix
  // shape '.m64n40k32' for instruction 'wgmma.mma_async with integer
  // types'").
  bool integer = results[0] == T::s32;
  if (shape.size() == 3 && (shape[1] % 8 || shape[1] < 8 || shape[1] > 256 ||
                            (integer && shape[1] > 24 && shape[1] % 16)))
    return p.error(opTok, "'" + mnemonic + "' of ." + stringifyTypeKind(a) +
                              " has no N " + Twine(shape[1]) +
                              (integer ? " (8, 16, 24, then multiples of 16 "
                                         "up to 256)"
                                       : " (multiples of 8 up to 256)"));
  return success();
}

LogicalResult FunctionBuilder::checkOperandShapes(
    const Token &opTok, StringRef mnemonic, ModifiersAttr mods,
    ArrayRef<ParsedOperand> operands, bool load, bool store) {
  ArrayRef<TypeKind> types = mods.getTypes();
  // ld/ldu/st: .vN moves a {...} of N values, and a {...} needs .vN.
  if ((load || store) && operands.size() > (load ? 0u : 1u)) {
    const ParsedOperand &value = operands[load ? 0 : 1];
    unsigned vec = mods.getVec();
    bool braces = value.kind == ParsedOperand::Vec;
    if (vec && !braces)
      return p.error(value.tok, "'" + mnemonic + ".v" + Twine(vec) +
                                    "' moves a vector {...} of " + Twine(vec) +
                                    " values, not " +
                                    Parser::describe(value.tok));
    // (Triton writes one value in braces: `ld.global.b32 { %r1 }, [a]`.)
    if (!vec && braces && value.elems.size() != 1)
      return p.error(value.tok, "'" + mnemonic +
                                    "' without .v2/.v4 moves one value, not "
                                    "a vector of " +
                                    Twine(value.elems.size()));
    if (vec && braces && value.elems.size() != vec)
      return p.error(value.tok, "'" + mnemonic + ".v" + Twine(vec) +
                                    "' moves " + Twine(vec) + " values, not " +
                                    Twine(value.elems.size()));
    // 256-bit accesses are PTX ISA 8.8's (ptxas: "Feature '256 bit wide
    // load/store' requires PTX ISA .version 8.8").
    if (vec && types.size() == 1 && vec * getTypeBitWidth(types[0]) > 128 &&
        p.ptxVersion < 88)
      return p.error(opTok, "a " + Twine(vec * getTypeBitWidth(types[0])) +
                                "-bit '" + mnemonic +
                                "' needs .version 8.8 or later");
  }
  // A .b128 value is a .b128 register ({a, b} of two .b64 only for mov).
  if (types.size() == 1 && types[0] == TypeKind::b128)
    for (const ParsedOperand &o : operands)
      if (o.kind == ParsedOperand::Name)
        if (std::optional<TypeKind> reg = declaredType(o);
            reg && *reg != TypeKind::b128)
          return p.error(o.tok, "'" + mnemonic +
                                    "' of type .b128 cannot take the ." +
                                    stringifyTypeKind(*reg) + " register '" +
                                    o.name + "'");
  if (mnemonic == "cvt" && types.size() == 2 && operands.size() >= 2) {
    // A .tf32 result is the bits of a .b32 register.
    if (std::optional<TypeKind> reg = declaredType(operands[0]);
        reg && types[0] == TypeKind::tf32 && *reg != TypeKind::b32)
      return p.error(operands[0].tok,
                     "'cvt' to .tf32 writes a .b32 register, not the ." +
                         stringifyTypeKind(*reg) + " register '" +
                         operands[0].name + "'");
    // A literal source of the source type's kind.
    char cls = typeClass(types[1]);
    bool floatSource = isScalarFloat(types[1]);
    for (const ParsedOperand &o : operands.drop_front())
      if (o.isLiteral() && (cls == 's' || cls == 'u' || floatSource) &&
          (o.kind == ParsedOperand::Float) != floatSource)
        return p.error(o.tok, "'cvt' from ." + stringifyTypeKind(types[1]) +
                                  " cannot take the " +
                                  (floatSource ? "integer" : "float") +
                                  " immediate '" + o.tok.text + "'");
  }
  // Barriers: a number 0-15 and a thread count that is a multiple of the
  // warp size, each a 32-bit integer; bar.red's last operand a predicate.
  bool barrier =
      llvm::is_contained({"bar", "bar.sync", "bar.arrive", "bar.red",
                          "barrier.sync", "barrier.arrive", "barrier.red"},
                         mnemonic);
  if (barrier) {
    bool red = mnemonic.ends_with(".red");
    bool arrive = mnemonic.ends_with(".arrive");
    // A number (and an arrival's thread count); bar.red's destination.
    size_t least = red ? 3 : arrive ? 2 : 1;
    if (operands.size() < least)
      return p.error(opTok, "'" + mnemonic + "' takes " +
                                (red      ? "a destination, a barrier number"
                                 : arrive ? "a barrier number and a thread "
                                            "count"
                                          : "a barrier number") +
                                (red ? " and a predicate" : "") + ", not " +
                                Twine(operands.size()) + " operands");
    // .popc counts into a .u32, .and/.or combine into a .pred (ptxas:
    // "Operation requires .u32 type"; the differential fuzzer, seed 24).
    if (red && types.size() == 1 && mods.getRedOp()) {
      TypeKind want =
          *mods.getRedOp() == ReduceOp::popc ? TypeKind::u32 : TypeKind::pred;
      if (types[0] != want)
        return p.error(opTok, "'" + mnemonic + "." +
                                  stringifyReduceOp(*mods.getRedOp()) +
                                  "' is of type ." + stringifyTypeKind(want) +
                                  ", not ." + stringifyTypeKind(types[0]));
    }
    if (red && types.size() == 1)
      if (std::optional<TypeKind> reg = declaredType(operands.front());
          reg && (types[0] == TypeKind::pred ? *reg != TypeKind::pred
                                             : bool(not32(operands.front()))))
        return p.error(operands.front().tok,
                       "'" + mnemonic + "' of ." + stringifyTypeKind(types[0]) +
                           " cannot write the ." + stringifyTypeKind(*reg) +
                           " register '" + operands.front().name + "'");
    // The number and count; bar.red's destination first, predicate last.
    size_t skip = red ? 1 : 0;
    for (size_t i = skip; i + skip < operands.size(); ++i) {
      const ParsedOperand &o = operands[i];
      bool count = i > skip;
      if (o.kind == ParsedOperand::Int) {
        // (ptxas reads the low 32 bits: 0x100000000 is barrier 0.)
        if (!count && (o.intValue & 0xffffffffu) > 15)
          return p.error(o.tok, "barrier number " + o.tok.text +
                                    " is out of range (0 to 15)");
        if (count && o.intValue % 32 != 0)
          return p.error(o.tok, "barrier thread count " + o.tok.text +
                                    " is not a multiple of the warp size (32)");
      } else if (o.kind == ParsedOperand::Float) {
        return p.error(o.tok, "'" + mnemonic + "' takes no float immediate");
      } else if (std::optional<TypeKind> reg = not32(o)) {
        return refuseRegister(mnemonic, o, *reg,
                              count ? "thread count" : "barrier number");
      }
    }
    if (red && operands.size() >= 2 &&
        failed(requirePredicate(mnemonic, operands.back(), "reduces")))
      return failure();
  }
  // A warp instruction's member mask, its last operand when all are there
  // (the verifier counts them), is a 32-bit integer (ptxas refuses a float
  // register, found by the differential fuzzer, seed 6).
  if (llvm::is_contained({"shfl", "vote", "redux", "match"}, mnemonic) &&
      mods.has(Flag::sync) && operands.size() == (mnemonic == "shfl" ? 5u : 3u))
    if (std::optional<TypeKind> reg = not32(operands.back()))
      return refuseRegister(mnemonic, operands.back(), *reg, "member mask");
  // dp2a/dp4a multiply .u32/.s32 (ptxas: "Unexpected instruction types").
  if (mnemonic == "dp2a" || mnemonic == "dp4a")
    for (TypeKind t : types)
      if (t != TypeKind::u32 && t != TypeKind::s32)
        return p.error(opTok, "'" + mnemonic + "' has no type ." +
                                  stringifyTypeKind(t) + " (.u32, .s32)");
  // Vector atom/red are floating point only (ptxas: "Vector qualifier is
  // not allowed").
  if ((mnemonic == "atom" || mnemonic == "red") && mods.getVec() &&
      types.size() == 1 && !isHalfType(types[0]) && types[0] != TypeKind::f32)
    return p.error(opTok, "a vector '" + mnemonic +
                              "' adds, or takes the "
                              "minimum or maximum of, floats, not ." +
                              stringifyTypeKind(types[0]) + " values");
  // Its values and atom's result are then vectors {...} of that size
  // (ptxas: "Vector expected for argument 0"; seed 27).
  if ((mnemonic == "atom" || mnemonic == "red") && mods.getVec())
    for (auto [i, o] : llvm::enumerate(operands)) {
      bool value = o.kind != ParsedOperand::Addr &&
                   (mnemonic == "atom" ? i != 1 : i != 0) &&
                   !(mods.has(Flag::L2_cache_hint) && i + 1 == operands.size());
      if (value &&
          (o.kind != ParsedOperand::Vec || o.elems.size() != mods.getVec()))
        return p.error(o.tok, "a '" + mnemonic + ".v" + Twine(mods.getVec()) +
                                  "' takes vectors {...}"
                                  " of " +
                                  Twine(mods.getVec()) + " values, not " +
                                  Parser::describe(o.tok));
    }
  // wmma: .sync.aligned; a load's {fragment}, [address] and optional
  // stride, a store's [address], {fragment} and optional stride; mma's four
  // fragments and no state space (ptxas: ".aligned modifier required",
  // "Vector expected for argument N", "Arguments mismatch", "No state space
  // qualifier expected").
  auto what = [](const ParsedOperand &o) {
    return o.kind == ParsedOperand::Addr ? std::string("an address [...]")
                                         : Parser::describe(o.tok);
  };
  if (mnemonic.starts_with("wmma.")) {
    if (!mods.has(Flag::sync) || !mods.has(Flag::aligned))
      return p.error(opTok, "'" + mnemonic + "' needs .sync.aligned");
    auto fragment = [&](size_t i) -> LogicalResult {
      if (operands[i].kind == ParsedOperand::Vec)
        return success();
      return p.error(operands[i].tok,
                     "'" + mnemonic + "' operand " + Twine(i + 1) +
                         " is a fragment {...}, not " + what(operands[i]));
    };
    if (mnemonic == "wmma.mma") {
      if (operands.size() != 4)
        return p.error(opTok, "'wmma.mma' takes four fragments, not " +
                                  Twine(operands.size()) + " operands");
      for (size_t i = 0; i < 4; ++i)
        if (failed(fragment(i)))
          return failure();
      bool space = mods.getSpace().has_value();
      if (ArrayAttr extras = mods.getExtras())
        for (Attribute e : extras)
          space = space || symbolizeStateSpace(cast<StringAttr>(e).getValue());
      if (space)
        return p.error(opTok, "'wmma.mma' takes no state space");
    } else if (mnemonic == "wmma.load" || mnemonic == "wmma.store") {
      bool isLoad = mnemonic == "wmma.load";
      size_t frag = isLoad ? 0 : 1, addr = isLoad ? 1 : 0;
      if (operands.size() < 2 || operands.size() > 3)
        return p.error(opTok, "'" + mnemonic +
                                  "' takes a fragment, an address and an "
                                  "optional stride, not " +
                                  Twine(operands.size()) + " operands");
      if (failed(fragment(frag)))
        return failure();
      if (operands[addr].kind != ParsedOperand::Addr)
        return p.error(operands[addr].tok,
                       "'" + mnemonic + "' expects an address [a] here, not " +
                           Parser::describe(operands[addr].tok));
      if (operands.size() == 3 && (operands[2].kind == ParsedOperand::Addr ||
                                   operands[2].kind == ParsedOperand::Vec ||
                                   operands[2].kind == ParsedOperand::Float))
        return p.error(operands[2].tok,
                       "'" + mnemonic + "' takes a 32-bit stride here, not " +
                           what(operands[2]));
    }
  }
  if (mnemonic == "activemask" && types.empty())
    return p.error(opTok, "'activemask' needs its type, .b32");
  if (mnemonic == "activemask" && operands.size() != 1)
    return p.error(opTok, "'activemask' takes one operand, its destination, "
                          "not " +
                              Twine(operands.size()));
  if ((mnemonic == "activemask" || mnemonic == "bar.warp.sync") &&
      !operands.empty())
    if (std::optional<TypeKind> reg =
            not32(operands.front(), mnemonic == "activemask"))
      return refuseRegister(mnemonic, operands.front(), *reg,
                            mnemonic == "activemask" ? "destination"
                                                     : "member mask");
  // (The rules below were found by the ptxas differential fuzzer, seed 3,
  // each case and the valid forms checked against ptxas, sm_80: "Arguments
  // mismatch", "Vector of size N is expected", "State space incorrect",
  // ".mode modifier required", "Predicate output expected".)
  if (mnemonic == "bar.warp.sync" && operands.size() != 1)
    return p.error(opTok, "'bar.warp.sync' takes one operand, its member "
                          "mask, not " +
                              Twine(operands.size()));
  // (Seed 21.)
  if (mnemonic == "bar.warp.sync" && operands[0].kind == ParsedOperand::Float)
    return p.error(operands[0].tok, "'bar.warp.sync' takes an integer member "
                                    "mask, not the float " +
                                        operands[0].tok.text);
  // A CTA barrier's scope is .cta alone, written before what it does
  // (`bar.cta.sync`; ptxas: "Illegal modifier '.cta' for instruction
  // 'bar'" for bar.sync.cta, "'.gpu' for instruction 'barrier'"; seed 21).
  if ((mnemonic.starts_with("bar.") || mnemonic.starts_with("barrier.")) &&
      mnemonic != "bar.warp.sync" && mods.getScope()) {
    StringRef family = mnemonic.take_front(mnemonic.find('.'));
    if (*mods.getScope() != MemScope::cta ||
        !instSpelling.starts_with((family + ".cta.").str()))
      return p.error(opTok, "'" + mnemonic +
                                "' takes the scope .cta only, "
                                "written '" +
                                family + ".cta." +
                                mnemonic.drop_front(family.size() + 1) + "'");
  }
  // bar.red names its operation (ptxas: "Illegal reduction operation for
  // instruction 'bar.red.pred'"; seed 27) and its type: .pred for .and/.or,
  // .u32 for .popc (ptxas:
  // "Unexpected instruction types specified for 'bar.red'"; seed 21).
  if ((mnemonic == "bar.red" || mnemonic == "barrier.red") &&
      !mods.getRedOp() && mods.getTypes().size() <= 1)
    return p.error(opTok,
                   "'" + mnemonic + "' needs its operation (.and, .or, .popc)");
  if ((mnemonic == "bar.red" || mnemonic == "barrier.red") &&
      mods.getTypes().empty())
    return p.error(opTok, "'" + mnemonic +
                              "' needs its type (.pred for .and and .or, "
                              ".u32 for .popc)");
  if (mnemonic == "vote" && !mods.getMode())
    return p.error(opTok, "'vote' needs a mode (.all, .any, .uni, .ballot)");
  // (Seed 55: ptxas "Component modifier required for instruction 'tld4'".)
  if (mnemonic == "tld4" && !mods.getMode())
    return p.error(opTok,
                   "'tld4' names the component it gathers (.r, .g, .b, .a)");
  // (Seed 56: a result and a coordinate type, ptxas "Unexpected
  // instruction types"; slct's result and selector types.)
  if ((mnemonic == "tld4" || mnemonic == "slct") && mods.getTypes().size() != 2)
    return p.error(opTok, "'" + mnemonic + "' names two types (" +
                              (mnemonic == "slct" ? "the result's and .s32 "
                                                    "or .f32 for the selector"
                                                  : "the result's and the "
                                                    "coordinates'") +
                              "), not " + Twine(mods.getTypes().size()));
  if (mnemonic == "mapa" && mods.getTypes().empty())
    return p.error(opTok, "'mapa' needs its type (.u32, .u64)");
  // A policy is made .fractional, .range or .cvt (ptxas: "Not a name of
  // any known instruction: 'createpolicy'"; seed 56).
  if (mnemonic == "createpolicy" && !hasExtra(mods, "fractional") &&
      !hasExtra(mods, "range") && !hasExtra(mods, "cvt"))
    return p.error(opTok, "'createpolicy' is written createpolicy.fractional, "
                          ".range or .cvt");
  // (Seed 26.)
  if (mnemonic == "match" && !mods.getMode())
    return p.error(opTok, "'match' needs a mode (.any, .all)");
  // (ptxas: "Not a name of any known instruction: 'shf'"; seed 35.)
  if (mnemonic == "shf" && !mods.getMode())
    return p.error(opTok, "'shf' needs its direction (.l, .r)");
  // ... then .clamp or .wrap, one of them (ptxas: "Unknown modifier '.l'"
  // after .clamp, "Multiple clamp modifiers specified"; seed 48).
  if (mnemonic == "shf") {
    if (mods.has(Flag::clamp) && mods.has(Flag::wrap))
      return p.error(opTok, "'shf' takes .clamp or .wrap, not both");
    SmallVector<StringRef> words = spelledModifiers(mnemonic);
    if (!words.empty() && words.front() != "l" && words.front() != "r")
      return p.error(opTok, "'shf' is written shf.l or shf.r first, not ." +
                                words.front());
  }
  // vset compares; mma names its shape (ptxas: "Comparison modifier
  // required for instruction 'vset2'", "Shape modifier required for
  // instruction 'mma'"; seed 48).
  if (mnemonic.starts_with("vset") && !mods.getCmp())
    return p.error(opTok, "'" + mnemonic + "' needs a comparison (.eq, ...)");
  if ((mnemonic == "mma" || mnemonic == "mma.sp") && mods.getShape().empty())
    return p.error(opTok, "'" + mnemonic + "' needs a shape (.m16n8k16, ...)");
  // The first destination of shfl and match, shfl's value, lane and clamp:
  // 32 bits (a float register too, but for match's mask); shfl's second
  // destination a predicate; match's value of its type's width.
  auto first = [](const ParsedOperand &o) -> const ParsedOperand & {
    return o.kind == ParsedOperand::Pair && !o.elems.empty() ? o.elems.front()
                                                             : o;
  };
  if (mnemonic == "shfl" && !operands.empty()) {
    for (size_t i = 0; i < std::min<size_t>(operands.size(), 4); ++i)
      if (std::optional<TypeKind> reg = not32(first(operands[i]), true))
        return refuseRegister(mnemonic, first(operands[i]), *reg,
                              i == 0   ? "destination"
                              : i == 1 ? "value"
                                       : "lane or clamp operand");
    const ParsedOperand &d = operands.front();
    if (d.kind == ParsedOperand::Pair && d.elems.size() == 2)
      if (std::optional<TypeKind> reg = declaredType(d.elems[1]);
          reg && *reg != TypeKind::pred)
        return p.error(d.elems[1].tok,
                       "'shfl' writes a predicate second, not the ." +
                           stringifyTypeKind(*reg) + " register '" +
                           d.elems[1].name + "'");
  }
  if (mnemonic == "match" && operands.size() >= 2) {
    if (std::optional<TypeKind> reg = not32(first(operands[0])))
      return refuseRegister(mnemonic, first(operands[0]), *reg, "destination");
    if (std::optional<TypeKind> reg = declaredType(operands[1]);
        reg && types.size() == 1 && *reg != TypeKind::pred &&
        getTypeBitWidth(*reg) != getTypeBitWidth(types[0]))
      return p.error(operands[1].tok,
                     "'match' of type ." + stringifyTypeKind(types[0]) +
                         " cannot take the ." + stringifyTypeKind(*reg) +
                         " register '" + operands[1].name + "'");
  }
  // ldmatrix (stmatrix): 32-bit registers in braces, one per 8x8 matrix,
  // from (to) .shared or a generic address (ptxas: "Vector of size 1 is
  // expected for argument 1 of instruction 'stmatrix'").
  bool ldm = mnemonic == "ldmatrix";
  if ((ldm || mnemonic == "stmatrix") && operands.size() > (ldm ? 0u : 1u)) {
    unsigned count = mods.getCount() ? mods.getCount() : 1;
    bool m8n8 = mods.getShape() == ArrayRef<int64_t>{8, 8};
    const ParsedOperand &d = operands[ldm ? 0 : 1];
    if (m8n8 && (d.kind != ParsedOperand::Vec || d.elems.size() != count))
      return p.error(d.tok, "'" + mnemonic + ".x" + Twine(count) + "' " +
                                (ldm ? "loads" : "stores") +
                                " a {...} of one register per matrix "
                                "(" +
                                Twine(count) + "), not " +
                                (d.kind == ParsedOperand::Vec
                                     ? "one of " + Twine(d.elems.size())
                                     : Twine(Parser::describe(d.tok))));
    for (const ParsedOperand &e : d.elems)
      if (std::optional<TypeKind> reg = not32(e, true))
        return refuseRegister(mnemonic, e, *reg, ldm ? "destination" : "value");
    // (stmatrix writes it: seed 59 with --words.)
    if (std::optional<StateSpace> space = mods.getSpace();
        space && spaceFamily(*space) != StateSpace::shared)
      return p.error(opTok, "'" + mnemonic + "' " + (ldm ? "reads" : "writes") +
                                " .shared memory, not ." +
                                stringifyStateSpace(*space));
  }
  return success();
}

/// multimem.ld_reduce and multimem.red: the types each operation takes and
/// their accumulation precision, as ptxas checks them ("Incorrect type
/// '.b32' for operation '.add'", "Illegal reduction operation", "Illegal
/// modifier '.acc::f32' ... with type '.s32'" for multimem.ld_reduce; the
/// differential fuzzer, seed 47 with --words, each form probed on sm_90 and
/// sm_100a). The packed 8-bit floats (.e5m2x4, sm_100a) are not types of
/// ours.
static std::optional<std::string> multimemReductionError(StringRef mnemonic,
                                                         ModifiersAttr mods) {
  if (mnemonic != "multimem.ld_reduce" && mnemonic != "multimem.red")
    return std::nullopt;
  std::optional<ReduceOp> op = mods.getRedOp();
  ArrayRef<TypeKind> types = mods.getTypes();
  if (!op || types.size() != 1)
    return std::nullopt;
  using T = TypeKind;
  T t = types[0];
  bool pair = t == T::f16x2 || t == T::bf16x2;
  // (A vector's elements may be single halves, and multimem.red's pairs
  // take .min and .max there too: the modifier grid.)
  bool vec = mods.getVec() != 0;
  bool half = vec && (t == T::f16 || t == T::bf16);
  bool fits = false;
  switch (*op) {
  case ReduceOp::add:
    fits = pair || half ||
           llvm::is_contained({T::u32, T::u64, T::s32, T::f32, T::f64}, t);
    break;
  case ReduceOp::min:
  case ReduceOp::max:
    fits = llvm::is_contained({T::u32, T::u64, T::s32, T::s64}, t) || half ||
           (pair && (vec || mnemonic == "multimem.ld_reduce"));
    break;
  case ReduceOp::and_:
  case ReduceOp::or_:
  case ReduceOp::xor_:
    fits = t == T::b32 || t == T::b64;
    break;
  default:
    return ("'" + mnemonic + "' has no operation ." + stringifyReduceOp(*op))
        .str();
  }
  if (!fits)
    return ("'" + mnemonic + "." + stringifyReduceOp(*op) + "' has no type ." +
            stringifyTypeKind(t))
        .str();
  // (ptxas takes multimem.red's .acc words on any type, .acc::f16 on
  // sm_90 too: they say nothing there.)
  if (mnemonic == "multimem.red")
    return std::nullopt;
  if (hasExtra(mods, "acc::f32") && (*op != ReduceOp::add || !pair))
    return ("'" + mnemonic +
            "' accumulates in .f32 (.acc::f32) an .add of "
            ".f16x2 or .bf16x2 only")
        .str();
  if (hasExtra(mods, "acc::f16"))
    return ("'" + mnemonic +
            "' accumulates in .f16 (.acc::f16) an .add of "
            "packed 8-bit floats only")
        .str();
  return std::nullopt;
}

/// cp.reduce.async.bulk (not .tensor, which has no type): the types each
/// operation takes into .global memory, fewer into another CTA's
/// .shared::cluster; an .add of halves says .noftz (ptxas: "Incorrect type
/// '.b32' for operation '.add'", "Unexpected instruction types", "Modifier
/// '.noftz' required"; the differential fuzzer, seed 55 with --words, each
/// operation and type probed on sm_90a).
static std::optional<std::string> bulkReductionError(StringRef mnemonic,
                                                     ModifiersAttr mods) {
  if (mnemonic != "cp.reduce.async.bulk")
    return std::nullopt;
  ArrayRef<TypeKind> types = mods.getTypes();
  std::optional<ReduceOp> op = mods.getRedOp();
  if (!op || types.size() != 1)
    return std::nullopt;
  using T = TypeKind;
  T t = types[0];
  bool global = mods.getSpace() == StateSpace::global;
  bool half = t == T::f16 || t == T::bf16;
  bool fits = false;
  switch (*op) {
  case ReduceOp::and_:
  case ReduceOp::or_:
  case ReduceOp::xor_:
    fits = t == T::b32 || (global && t == T::b64);
    break;
  case ReduceOp::inc:
  case ReduceOp::dec:
    fits = t == T::u32;
    break;
  case ReduceOp::add:
    fits = llvm::is_contained({T::s32, T::u32, T::u64}, t) ||
           (global && (half || t == T::f32 || t == T::f64));
    break;
  case ReduceOp::min:
  case ReduceOp::max:
    fits = t == T::s32 || t == T::u32 ||
           (global && (half || t == T::s64 || t == T::u64));
    break;
  default:
    return ("'" + mnemonic + "' has no operation ." + stringifyReduceOp(*op))
        .str();
  }
  if (!fits)
    return ("'" + mnemonic + "." + stringifyReduceOp(*op) + "' into ." +
            (global ? "global" : "shared::cluster") + " memory has no type ." +
            stringifyTypeKind(t))
        .str();
  if (*op == ReduceOp::add && half && !mods.has(Flag::noftz))
    return ("'" + mnemonic + ".add." + stringifyTypeKind(t) + "' needs .noftz")
        .str();
  return std::nullopt;
}

// (Found by the ptxas differential fuzzer, seed 9; each case and the valid
// forms checked against ptxas, sm_90: "Unexpected instruction types",
// "Illegal modifier", "Illegal rounding modifier", "Arguments mismatch".)
LogicalResult
FunctionBuilder::checkTypeAndFlagRules(const Token &opTok, StringRef mnemonic,
                                       ModifiersAttr mods,
                                       ArrayRef<ParsedOperand> operands) {
  ArrayRef<TypeKind> types = mods.getTypes();
  // The approximate functions say so; rcp and sqrt say .approx or how
  // they round (ptxas: ".approx modifier required", "Rounding modifier or
  // '.approx' modifier required").
  bool approxOnly = llvm::is_contained(
      {"lg2", "ex2", "sin", "cos", "tanh", "rsqrt"}, mnemonic);
  if ((approxOnly || mnemonic == "rcp" || mnemonic == "sqrt") &&
      !mods.has(Flag::approx) &&
      (approxOnly ? mnemonic != "ex2" || !mods.getRounding()
                  : !mods.getRounding()))
    return p.error(opTok, "'" + mnemonic + "' needs .approx" +
                              (approxOnly ? "" : " or a rounding modifier"));
  // Found with the differential fuzzer's --words mutations (seed 38), each
  // form probed against ptxas (the flags each takes are its flag set's in
  // PTXInstSpec.h: mma, prefetch, cp.async, ldmatrix, the mbarriers, txq,
  // suq, tld4, multimem): mma is .sync.aligned ("'.aligned' modifier
  // required"); selp selects integers, .f32 and .f64 ("Unexpected
  // instruction types"); rcp.approx.f64 flushes subnormals (".ftz modifier
  // required"); the vector atomics reach .global only and the mbarriers .shared
  // ("State space incorrect").
  auto flagBits = [](std::initializer_list<Flag> fs) {
    uint64_t bits = 0;
    for (Flag f : fs)
      bits |= static_cast<uint64_t>(f);
    return bits;
  };
  // The warp-synchronous instructions are written .sync.aligned, elect
  // .sync (ptxas: ".sync modifier required", ".aligned modifier required";
  // ldmatrix's, setmaxnreg's, movmatrix's and elect's found by the
  // differential fuzzer, seeds 40-59).
  // (wgmma's four are .sync, .aligned optional: seed 64.)
  bool alignedForm = llvm::is_contained(
      {"mma", "mma.sp", "ldmatrix", "stmatrix", "movmatrix", "setmaxnreg"},
      mnemonic);
  if ((alignedForm || mnemonic == "elect" || mnemonic.starts_with("wgmma.")) &&
      (!mods.has(Flag::sync) || (alignedForm && !mods.has(Flag::aligned))))
    return p.error(opTok, "'" + mnemonic + "' is written " + mnemonic +
                              (alignedForm ? ".sync.aligned" : ".sync"));
  if (mnemonic == "selp" && types.size() == 1 &&
      !llvm::is_contained({TypeKind::b16, TypeKind::b32, TypeKind::b64,
                           TypeKind::u16, TypeKind::u32, TypeKind::u64,
                           TypeKind::s16, TypeKind::s32, TypeKind::s64,
                           TypeKind::f32, TypeKind::f64},
                          types[0]))
    return p.error(opTok, "'selp' has no type ." + stringifyTypeKind(types[0]) +
                              " (16- to 64-bit integers, .f32, .f64)");
  if (mnemonic == "rcp" && mods.has(Flag::approx) && types.size() == 1 &&
      types[0] == TypeKind::f64 && !mods.has(Flag::ftz))
    return p.error(opTok, "'rcp.approx.f64' needs .ftz");
  if ((mnemonic == "atom" || mnemonic == "red") && mods.getVec())
    if (std::optional<StateSpace> space = mods.getSpace();
        space && *space != StateSpace::global)
      return p.error(opTok, "a vector '" + mnemonic +
                                "' reaches .global, not ." +
                                stringifyStateSpace(*space));
  if (mnemonic.starts_with("mbarrier."))
    if (std::optional<StateSpace> space = mods.getSpace();
        space && spaceFamily(*space) != StateSpace::shared)
      return p.error(opTok, "'" + mnemonic + "' reaches .shared, not ." +
                                stringifyStateSpace(*space));
  // Seed 39 with --words, each form probed against ptxas: prefetch names
  // its cache level; .rna is cvt's; mul24/mad24 say .hi or .lo (without
  // it ptxas knows no such instruction); the video instructions take .sat
  // at most (vshl/vshr .clamp/.wrap besides, vset nothing); ld/st with
  // L2's eviction priority are 256-bit; cvt's .satfinite saturates to a narrow
  // float, and a conversion from or to a packed pair rounds.
  if (mnemonic == "prefetch" &&
      !(static_cast<uint64_t>(mods.getFlags()) &
        flagBits({Flag::L1, Flag::L2, Flag::L2_evict_last,
                  Flag::L2_evict_normal})) &&
      !mods.getExtras())
    return p.error(opTok, "'prefetch' needs a cache level (.L1, .L2)");
  // (One of them: the flag grid's prefetch.global.L2.L1, .L2.L2::evict_last.)
  if (mnemonic == "prefetch" &&
      llvm::popcount(static_cast<uint64_t>(mods.getFlags()) & fl::Prefetch) > 1)
    return p.error(opTok, "'prefetch' names one level or one L2 eviction "
                          "priority (.L1, .L2, .L2::evict_last, "
                          ".L2::evict_normal)");
  if (mods.getRounding() == RoundingMode::rna && mnemonic != "cvt")
    return p.error(opTok, "'" + mnemonic + "' takes no .rna (it is cvt's)");
  if ((mnemonic == "mul24" || mnemonic == "mad24" || mnemonic == "madc") &&
      mods.getMode() != Mode::hi && mods.getMode() != Mode::lo)
    return p.error(opTok, "'" + mnemonic + "' needs .hi or .lo");
  bool videoOp = mnemonic.size() > 1 && mnemonic.front() == 'v' &&
                 llvm::is_contained({"vadd", "vsub", "vabsdiff", "vmin", "vmax",
                                     "vshl", "vshr", "vmad", "vset", "vavrg"},
                                    mnemonic.rtrim("24"));
  if (videoOp)
    if (std::optional<Flag> f = firstFlag(
            mods, mnemonic.starts_with("vset") ? ~uint64_t(0)
                  : mnemonic.starts_with("vsh")
                      ? ~flagBits({Flag::sat, Flag::clamp, Flag::wrap})
                      : ~static_cast<uint64_t>(Flag::sat)))
      return p.error(opTok, "'" + mnemonic + "' has no modifier ." +
                                stringifyFlag(*f));
  if ((mnemonic == "ld" || mnemonic == "st") && types.size() == 1 &&
      (mods.has(Flag::L2_evict_first) || mods.has(Flag::L2_evict_last) ||
       mods.has(Flag::L2_evict_normal) || mods.has(Flag::L2_evict_unchanged)) &&
      std::max(1u, mods.getVec()) * getTypeBitWidth(types[0]) != 256)
    return p.error(opTok, "'" + mnemonic +
                              "' with L2's eviction priority "
                              "moves 256 bits (.v8.b32, .v4.b64)");
  if (mnemonic == "cvt" && types.size() == 2) {
    auto pair = [](TypeKind t) { return stringifyTypeKind(t).ends_with("x2"); };
    if (mods.has(Flag::satfinite) &&
        ((typeClass(types[0]) != 0 && typeClass(types[0]) != 'f') ||
         types[0] == TypeKind::f32 || types[0] == TypeKind::f64))
      return p.error(opTok, "'cvt.satfinite' saturates to a narrow float, "
                            "not ." +
                                stringifyTypeKind(types[0]));
    if (pair(types[0]) && (types[1] == TypeKind::f32 || pair(types[1])) &&
        !mods.getRounding())
      return p.error(opTok, "'cvt." + stringifyTypeKind(types[0]) + "." +
                                stringifyTypeKind(types[1]) +
                                "' needs a rounding modifier");
  }
  // Seed 41 with --words: atom/red take no bare cache level (.L1, .L2:
  // prefetch's; ld/st's flag set has none); sad has no 8-bit types; div rounds
  // or is .approx or .full, not both; multimem.ld_reduce names its type; txq
  // names its query.
  if ((mnemonic == "atom" || mnemonic == "red") &&
      (mods.has(Flag::L1) || mods.has(Flag::L2)))
    return p.error(opTok, "'" + mnemonic + "' has no cache level ." +
                              (mods.has(Flag::L1) ? "L1" : "L2") +
                              " (it is prefetch's)");
  if (mnemonic == "sad" && types.size() == 1 && getTypeBitWidth(types[0]) == 8)
    return p.error(opTok, "'sad' has no type ." + stringifyTypeKind(types[0]));
  // div, rcp and sqrt round or are .approx (div .full besides), one way
  // (ptxas: "Rounding modifier or '.approx' modifier required", "Illegal
  // modifier '.approx' for instruction 'div.full'"; seeds 41, 48, 49).
  if ((mnemonic == "div" || mnemonic == "rcp" || mnemonic == "sqrt") &&
      (mods.getRounding() ? 1 : 0) + mods.has(Flag::approx) +
              mods.has(Flag::full) >
          1)
    return p.error(opTok, "'" + mnemonic + "' rounds or is .approx" +
                              (mnemonic == "div" ? " or .full" : "") +
                              ", not both");
  // (Seed 49, every flag tried on ~70 instructions against ptxas: min/max
  // .relu is of .s32/.s16x2, .NaN and .xorsign of .f32 and halves ("Illegal
  // modifier '.NaN'"); fma's .oob of halves; slct.ftz selects by an .f32;
  // ld/st.mmio are .relaxed.sys, scalar, of .global ("Modifier '.mmio' requires
  // modifier '.relaxed'").)
  if ((mnemonic == "min" || mnemonic == "max") && types.size() == 1) {
    TypeKind t = types[0];
    bool floats = t == TypeKind::f32 || isHalfType(t);
    if (mods.has(Flag::relu) && t != TypeKind::s32 && t != TypeKind::s16x2)
      return p.error(opTok, "'" + mnemonic +
                                ".relu' is of .s32 or .s16x2, "
                                "not ." +
                                stringifyTypeKind(t));
    if (std::optional<Flag> f =
            firstFlag(mods, flagBits({Flag::NaN, Flag::xorsign, Flag::abs}));
        f && !floats)
      return p.error(opTok, "'" + mnemonic + "." + stringifyFlag(*f) +
                                "' is of .f32 or halves, not ." +
                                stringifyTypeKind(t));
    if (mods.has(Flag::abs) != mods.has(Flag::xorsign))
      return p.error(opTok, "'" + mnemonic + "' is .xorsign.abs, both words");
  }
  // (An arrival that does not complete counts: "Illegal modifier
  // '.noComplete' for instruction 'mbarrier.arrive without count
  // argument'".)
  if ((mnemonic == "mbarrier.arrive" || mnemonic == "mbarrier.arrive_drop") &&
      mods.has(Flag::noComplete) && operands.size() < 3)
    return p.error(opTok, "'" + mnemonic + ".noComplete' takes a count");
  // Halves round to nearest, but in a .bf16 fma (ptxas: "Illegal rounding
  // modifier for instruction 'add'"; seed 67, each probed with .f16,
  // .f16x2, .bf16 and .bf16x2).
  if (llvm::is_contained({"add", "sub", "mul", "fma"}, mnemonic) &&
      types.size() == 1 && isHalfType(types[0]) && mods.getRounding() &&
      llvm::is_contained({RoundingMode::rz, RoundingMode::rm, RoundingMode::rp},
                         *mods.getRounding()) &&
      !(mnemonic == "fma" &&
        (types[0] == TypeKind::bf16 || types[0] == TypeKind::bf16x2)))
    return p.error(opTok, "'" + mnemonic + "' of ." +
                              stringifyTypeKind(types[0]) +
                              " rounds .rn only, not ." +
                              stringifyRoundingMode(*mods.getRounding()));
  if (mnemonic == "fma" && mods.has(Flag::oob) && types.size() == 1 &&
      !isHalfType(types[0]))
    return p.error(opTok, "'fma.oob' is of halves, not ." +
                              stringifyTypeKind(types[0]));
  // (The surface accesses handle out-of-range coordinates one way,
  // "Multiple clamp modifiers specified"; mma saturates integer results,
  // "Unexpected instruction types specified for 'mma'".)
  if (llvm::is_contained({"suld", "sust", "sured"}, mnemonic) &&
      (mods.has(Flag::trap) + mods.has(Flag::clamp) + mods.has(Flag::zero)) > 1)
    return p.error(opTok, "'" + mnemonic +
                              "' takes one of .trap, .clamp, "
                              ".zero");
  bool wgmma = mnemonic.starts_with("wgmma.mma_async");
  if ((mnemonic == "mma" || mnemonic == "mma.sp" || wgmma) &&
      mods.has(Flag::satfinite) && types.size() == (wgmma ? 3u : 4u) &&
      types[0] != TypeKind::s32)
    return p.error(opTok, "'" + mnemonic +
                              ".satfinite' saturates .s32 "
                              "results, not ." +
                              stringifyTypeKind(types[0]));
  if (mnemonic == "slct" && mods.has(Flag::ftz) && types.size() == 2 &&
      types[1] != TypeKind::f32)
    return p.error(opTok, "'slct.ftz' selects by an .f32, not ." +
                              stringifyTypeKind(types[1]));
  if ((mnemonic == "ld" || mnemonic == "st") && mods.has(Flag::mmio)) {
    if (mods.getSem() != MemSemantics::relaxed ||
        mods.getScope() != MemScope::sys)
      return p.error(opTok, "'" + mnemonic + ".mmio' is .relaxed.sys");
    if (mods.getVec())
      return p.error(opTok, "'" + mnemonic + ".mmio' takes no vector");
    if (mods.getSpace() && *mods.getSpace() != StateSpace::global)
      return p.error(opTok, "'" + mnemonic +
                                ".mmio' reaches .global memory, "
                                "not ." +
                                stringifyStateSpace(*mods.getSpace()));
  }
  // (Seed 48, each function's flags probed: bmsk and
  // szext say .clamp or .wrap, "Clamp modifier required"; tanh and ex2 of
  // .f16/.f16x2 have no .ftz; mad24.sat is .hi.s32's.)
  if ((mnemonic == "bmsk" || mnemonic == "szext") &&
      mods.has(Flag::clamp) == mods.has(Flag::wrap))
    return p.error(opTok, "'" + mnemonic +
                              "' takes .clamp or .wrap, one of "
                              "them");
  if (mods.has(Flag::ftz) && types.size() == 1 &&
      (mnemonic == "tanh" ||
       (mnemonic == "ex2" &&
        (types[0] == TypeKind::f16 || types[0] == TypeKind::f16x2))))
    return p.error(opTok, "'" + mnemonic + "." + stringifyTypeKind(types[0]) +
                              "' takes no .ftz");
  if (mnemonic == "mad24" && mods.has(Flag::sat) &&
      (mods.getMode() != Mode::hi || types.size() != 1 ||
       types[0] != TypeKind::s32))
    return p.error(opTok, "'mad24.sat' is of .hi.s32 only");
  if (mnemonic == "multimem.ld_reduce" && types.empty())
    return p.error(opTok, "'multimem.ld_reduce' needs a type");
  // (Seeds 50-51 with --words: multimem.ld_reduce names one type and its
  // reduction; movmatrix its shape; setmaxnreg is .u32 or .s32; discard
  // and applypriority take [address] and 128; pmevent's event is 0-15,
  // .mask's a 16-bit mask.)
  if (mnemonic.starts_with("multimem.") && types.size() > 1)
    return p.error(opTok, "'" + mnemonic + "' names one type, not " +
                              Twine(types.size()));
  // (Seed 52 with --words: multimem.ld_reduce's destination is of its
  // type; createpolicy.cvt says .L2; txq.level's level is a 32-bit
  // integer; the tensor copies name both spaces.)
  if (mnemonic == "multimem.ld_reduce" && types.size() == 1 &&
      !operands.empty())
    for (const ParsedOperand &e : elementsOf(operands[0]))
      if (std::optional<TypeKind> reg = declaredType(e);
          reg && !registerFits(types[0], *reg))
        return p.error(
            e.tok, "'multimem.ld_reduce' of type ." +
                       stringifyTypeKind(types[0]) + " cannot write the ." +
                       stringifyTypeKind(*reg) + " register '" + e.name + "'");
  // (.L2 is the .cvt form's alone, and every form is .b64: the flag grid
  // and seed 53 with --words.)
  if (mnemonic == "createpolicy" && hasExtra(mods, "cvt") != mods.has(Flag::L2))
    return p.error(opTok, mods.has(Flag::L2)
                              ? "'createpolicy' takes .L2 in its .cvt form only"
                              : "'createpolicy.cvt' is written "
                                "createpolicy.cvt.L2");
  if (mnemonic == "createpolicy" &&
      (types.empty() || (types.size() == 1 && types[0] != TypeKind::b64)))
    return p.error(opTok, "'createpolicy' is of type .b64");
  // (Seed 55: `.global` is the .range form's; ptxas "No state space
  // qualifier expected for instruction 'createpolicy.fractional'".)
  if (mnemonic == "createpolicy" && hasExtra(mods, "global") &&
      !hasExtra(mods, "range"))
    return p.error(opTok, "'createpolicy' names .global in its .range form "
                          "only");
  if (mnemonic == "txq" && hasExtra(mods, "level") && operands.size() == 3)
    if (std::optional<TypeKind> reg = not32(operands[2], /*floats=*/false))
      return refuseRegister(mnemonic, operands[2], *reg, "level");
  if ((mnemonic == "cp.async.bulk.tensor" ||
       mnemonic == "cp.reduce.async.bulk.tensor") &&
      mods.getSpaces().size() != 2)
    return p.error(opTok, "'" + mnemonic +
                              "' names two state spaces (to, "
                              "from)");
  if ((mnemonic == "multimem.ld_reduce" || mnemonic == "multimem.red") &&
      !mods.getRedOp())
    return p.error(opTok, "'" + mnemonic +
                              "' needs its reduction (.add, "
                              "...)");
  if (mnemonic == "movmatrix" && mods.getShape().empty())
    return p.error(opTok, "'movmatrix' needs a shape (.m8n8)");
  // (It transposes: ".trans modifier required"; seed 65.)
  if (mnemonic == "movmatrix" && !mods.has(Flag::trans))
    return p.error(opTok, "'movmatrix' is written movmatrix...m8n8.trans");
  // ... of .b16 ("Unexpected instruction types"; seed 69).
  if (mnemonic == "movmatrix" && types.size() == 1 && types[0] != TypeKind::b16)
    return p.error(opTok, "'movmatrix' moves .b16, not ." +
                              stringifyTypeKind(types[0]));
  if (mnemonic == "setmaxnreg" && types.size() == 1 &&
      types[0] != TypeKind::u32 && types[0] != TypeKind::s32)
    return p.error(opTok,
                   "'setmaxnreg' is .u32, not ." + stringifyTypeKind(types[0]));
  // (... act on .global, applypriority naming its priority: seeds 53-54.)
  if (mnemonic == "discard" || mnemonic == "applypriority") {
    if (operands.size() != 2 || operands[0].kind != ParsedOperand::Addr ||
        operands[1].kind != ParsedOperand::Int || operands[1].intValue != 128)
      return p.error(opTok, "'" + mnemonic + "' takes [address] and 128");
    if (mods.getSpace() && *mods.getSpace() != StateSpace::global)
      return p.error(opTok, "'" + mnemonic + "' acts on .global, not ." +
                                stringifyStateSpace(*mods.getSpace()));
    if (mnemonic == "applypriority" && !mods.has(Flag::L2_evict_normal))
      return p.error(opTok, "'applypriority' names its priority "
                            "(.L2::evict_normal)");
  }
  if (mnemonic == "pmevent" && operands.size() == 1 &&
      operands[0].kind == ParsedOperand::Int &&
      operands[0].intValue > (hasExtra(mods, "mask") ? 0xffffu : 15u))
    return p.error(
        operands[0].tok,
        hasExtra(mods, "mask")
            ? "'pmevent.mask' takes a 16-bit mask, not " + operands[0].tok.text
            : "'pmevent' counts events 0 to 15, not " + operands[0].tok.text);
  if (std::optional<std::string> why = multimemReductionError(mnemonic, mods))
    return p.error(opTok, *why);
  if (std::optional<std::string> why = bulkReductionError(mnemonic, mods))
    return p.error(opTok, *why);
  // (suq too: "Query modifier required for instruction 'suq'"; seed 75.)
  if ((mnemonic == "txq" || mnemonic == "suq") &&
      !(mods.getExtras() && llvm::any_of(mods.getExtras(), [](Attribute e) {
          return cast<StringAttr>(e).getValue() != "level";
        })))
    return p.error(opTok,
                   "'" + mnemonic + "' needs a query (.width, .height, ...)");
  // Seed 42 with --words: an L1 eviction priority replaces the cache
  // operator ("Modifier '.evict_last' cannot be combined with modifier
  // '.ca'"); atomics take no eviction priority; an mbarrier's ordering
  // has a scope; wgmma names three types;
  // ldmatrix/stmatrix are .sync.aligned, of one state space.
  if ((mnemonic == "ld" || mnemonic == "st") && mods.getCache())
    if (std::optional<Flag> f = firstFlag(
            mods, flagBits({Flag::L1_evict_normal, Flag::L1_evict_unchanged,
                            Flag::L1_evict_first, Flag::L1_evict_last,
                            Flag::L1_no_allocate})))
      return p.error(opTok, "'" + mnemonic + "' takes ." + stringifyFlag(*f) +
                                " or a cache operator, not both");
  if (mnemonic == "atom" || mnemonic == "red")
    if (std::optional<Flag> f = firstFlag(
            mods, flagBits({Flag::L2_evict_first, Flag::L2_evict_last,
                            Flag::L2_evict_normal, Flag::L2_evict_unchanged})))
      return p.error(opTok, "'" + mnemonic + "' has no eviction priority ." +
                                stringifyFlag(*f));
  if (mnemonic.starts_with("mbarrier.") && mods.getSem() && !mods.getScope())
    return p.error(opTok, "'" + mnemonic + "." +
                              stringifyMemSemantics(*mods.getSem()) +
                              "' needs a scope (.cta, .cluster)");
  // ... and a scope is an ordering's (ptxas: "Modifier '.sys' requires
  // order with 'multimem.red' instruction"), an mbarrier's .cta or
  // .cluster ("Illegal modifier '.gpu'"; seed 47 with --words).
  bool mbarrier = mnemonic.starts_with("mbarrier.");
  if ((mbarrier || mnemonic.starts_with("multimem.")) && mods.getScope() &&
      !mods.getSem())
    return p.error(opTok, "'" + mnemonic + "' with a scope needs an ordering");
  // ... and multimem's orderings but .weak a scope (ptxas: "Modifier
  // '.relaxed' requires scope with 'multimem.st' instruction"; seed 55).
  if (mnemonic.starts_with("multimem.") && mods.getSem() &&
      *mods.getSem() != MemSemantics::weak && !mods.getScope())
    return p.error(opTok, "'" + mnemonic + "." +
                              stringifyMemSemantics(*mods.getSem()) +
                              "' needs a scope (.cta, .cluster, .gpu, .sys)");
  if (mbarrier && mods.getScope() && *mods.getScope() != MemScope::cta &&
      *mods.getScope() != MemScope::cluster)
    return p.error(opTok, "'" + mnemonic +
                              "' has the scope .cta or "
                              ".cluster, not ." +
                              stringifyMemScope(*mods.getScope()));
  if (mnemonic.starts_with("wgmma.mma_async") && types.size() != 3)
    return p.error(opTok, "'" + mnemonic +
                              "' names three types (D, A, B), "
                              "not " +
                              Twine(types.size()));
  // Seed 43 with --words: ex2 of .bf16 pairs flushes (".ftz modifier
  // required"); vshl/vshr shift by a .u32; createpolicy's fraction and
  // range name an eviction priority. (The math functions' .sat is their
  // flag set's, fl::Approx.)
  if (mnemonic == "ex2" && types.size() == 1 &&
      (types[0] == TypeKind::bf16 || types[0] == TypeKind::bf16x2) &&
      !mods.has(Flag::ftz))
    return p.error(opTok,
                   "'ex2." + stringifyTypeKind(types[0]) + "' needs .ftz");
  if ((mnemonic == "vshl" || mnemonic == "vshr") && types.size() == 3 &&
      types[2] != TypeKind::u32)
    return p.error(opTok, "'" + mnemonic + "' shifts by a .u32, not ." +
                              stringifyTypeKind(types[2]));
  if (mnemonic == "createpolicy" && mods.getExtras() &&
      !hasExtra(mods, "cvt") &&
      !firstFlag(mods,
                 flagBits({Flag::L2_evict_last, Flag::L2_evict_normal,
                           Flag::L2_evict_first, Flag::L2_evict_unchanged})))
    return p.error(opTok, "'createpolicy' needs an eviction priority "
                          "(.L2::evict_last, ...)");
  // Seed 44 with --words (the flags of loads, stores, the carry
  // instructions and bar.red are their flag sets', PTXInstSpec.h):
  // mul24/mad24 of .u32/.s32; match of .b32/.b64; wgmma's A and B of one
  // family; mma's bit operations on .b1 only.
  if ((mnemonic == "mul24" || mnemonic == "mad24") && types.size() == 1 &&
      types[0] != TypeKind::u32 && types[0] != TypeKind::s32)
    return p.error(opTok, "'" + mnemonic + "' has no type ." +
                              stringifyTypeKind(types[0]) + " (.u32, .s32)");
  if (mnemonic == "match" && types.size() == 1 && types[0] != TypeKind::b32 &&
      types[0] != TypeKind::b64)
    return p.error(opTok, "'match' compares .b32 or .b64, not ." +
                              stringifyTypeKind(types[0]));
  if (mnemonic.starts_with("wgmma.mma_async") && types.size() == 3) {
    if (multiplicandFamily(types[1]) != multiplicandFamily(types[2]))
      return p.error(opTok, "'" + mnemonic + "' multiplies ." +
                                stringifyTypeKind(types[1]) + " by ." +
                                stringifyTypeKind(types[2]));
    if (failed(checkWgmmaTypes(opTok, mnemonic, types, mods.getShape())))
      return failure();
  }
  // redux's .abs and .NaN are of its .f32 forms (ptxas: "Instruction
  // 'redux' requires '.f32' type with '.abs' modifier"; seed 47).
  if (mnemonic == "redux" && types.size() == 1 && types[0] != TypeKind::f32)
    if (std::optional<Flag> f =
            firstFlag(mods, flagBits({Flag::abs, Flag::NaN})))
      return p.error(opTok,
                     "'redux' takes ." + stringifyFlag(*f) + " with .f32 only");
  // wgmma of .b1 is `.and.popc`, those words for .b1 alone (ptxas:
  // "Unexpected number of operations specified for wgmma.mma_async with
  // boolean type", "Illegal reduction operation"; seed 47 with --words).
  if (mnemonic == "wgmma.mma_async" && types.size() == 3) {
    ArrayAttr extras = mods.getExtras();
    bool andPopc = extras && extras.size() == 2 &&
                   cast<StringAttr>(extras[0]).getValue() == "and" &&
                   cast<StringAttr>(extras[1]).getValue() == "popc";
    if (types[1] == TypeKind::b1 && !andPopc)
      return p.error(opTok, "'wgmma.mma_async' of .b1 is written .and.popc");
    if (types[1] != TypeKind::b1 &&
        (hasExtra(mods, "and") || hasExtra(mods, "popc")))
      return p.error(opTok, "'wgmma.mma_async' names a bit operation for "
                            ".b1 only");
  }
  if ((mnemonic == "mma" || mnemonic == "mma.sp") && types.size() == 4 &&
      types[1] != TypeKind::b1 && mods.getExtras() &&
      llvm::any_of(mods.getExtras(), [](Attribute e) {
        return llvm::is_contained({"and", "xor", "popc"},
                                  cast<StringAttr>(e).getValue());
      }))
    return p.error(opTok,
                   "'" + mnemonic + "' names a bit operation for .b1 only");
  // ... and a .b1 one names its operation and .popc (ptxas: "Unexpected
  // number of operations specified for mma with shape '.m8n8k128'"; seed
  // 58).
  if ((mnemonic == "mma" || mnemonic == "mma.sp") && types.size() == 4 &&
      types[1] == TypeKind::b1 &&
      (!hasExtra(mods, "popc") ||
       hasExtra(mods, "and") == hasExtra(mods, "xor")))
    return p.error(opTok, "'" + mnemonic +
                              "' of .b1 is written .and.popc or .xor.popc");
  // The modifier grid (ptxas_flag_grid.py --modifiers), each rule probed
  // with its valid neighbours on sm_90a: .rs rounds cvt alone ("Illegal
  // modifier '.rs'"); atom is not .weak or .sc, red only .relaxed or
  // .release ("Illegal modifier '.acquire' for instruction 'red'"); st.async
  // is .weak at most, of .cluster scope at most; the cluster barrier's
  // arrival is .relaxed or .release, its wait .acquire; alloca takes no
  // state space, mapa and getctarank .shared::cluster, cp.async.mbarrier.
  // arrive .shared or .shared::cta ("State space incorrect").
  if (mods.getRounding() == RoundingMode::rs && mnemonic != "cvt")
    return p.error(opTok, "'" + mnemonic + "' has no rounding .rs (cvt's)");
  if (std::optional<MemSemantics> sem = mods.getSem()) {
    using S = MemSemantics;
    bool fits = true;
    if (mnemonic == "atom")
      fits = *sem != S::weak && *sem != S::sc;
    else if (mnemonic == "red")
      fits = *sem == S::relaxed || *sem == S::release;
    else if (mnemonic == "st.async")
      fits = *sem == S::weak;
    else if (mnemonic == "barrier.cluster.arrive")
      fits = *sem == S::relaxed || *sem == S::release;
    else if (mnemonic == "barrier.cluster.wait")
      fits = *sem == S::acquire;
    if (!fits)
      return p.error(opTok, "'" + mnemonic + "' has no ordering ." +
                                stringifyMemSemantics(*sem));
  }
  if (mnemonic == "st.async" && mods.getScope() &&
      *mods.getScope() != MemScope::cluster)
    return p.error(opTok, "'st.async' has no scope ." +
                              stringifyMemScope(*mods.getScope()) +
                              " (.cluster)");
  if (std::optional<StateSpace> sp = mods.getSpace()) {
    bool fits = true;
    if (mnemonic == "alloca")
      fits = false;
    else if (mnemonic == "mapa" || mnemonic == "getctarank")
      fits = *sp == StateSpace::shared_cluster;
    else if (mnemonic == "cp.async.mbarrier.arrive")
      fits = *sp == StateSpace::shared || *sp == StateSpace::shared_cta;
    // (st.async stores into shared memory, red.async into another CTA's:
    // "State space incorrect", "Modifier '.cluster' requires
    // '.shared::cluster' space"; seed 76.)
    else if (mnemonic == "st.async")
      fits = spaceFamily(*sp) == StateSpace::shared;
    else if (mnemonic == "red.async")
      fits = *sp == StateSpace::shared_cluster;
    if (!fits)
      return p.error(opTok, "'" + mnemonic + "' takes no state space ." +
                                stringifyStateSpace(*sp) +
                                (mnemonic == "alloca" ? ""
                                 : mnemonic == "cp.async.mbarrier.arrive"
                                     ? " (.shared, .shared::cta)"
                                 : mnemonic == "st.async"
                                     ? " (.shared::cluster, .shared::cta)"
                                     : " (.shared::cluster)"));
  }
  // st.async moves .v2 or .v4 values of up to 128 bits ("Illegal vector
  // size: 8", "Vector type too large, exceeds 128 bit limit").
  if (mnemonic == "st.async" && mods.getVec() && types.size() == 1 &&
      (mods.getVec() > 4 || mods.getVec() * getTypeBitWidth(types[0]) > 128))
    return p.error(opTok, "'st.async' stores .v2 or .v4 of up to 128 bits, "
                          "not .v" +
                              Twine(mods.getVec()) + "." +
                              stringifyTypeKind(types[0]));
  // multimem.st stores no single half, and a vector's registers are of
  // its type's width (ptxas: "Unexpected instruction types specified for
  // 'multimem.st'", "Arguments mismatch" for .v2.f16 of .b32 registers;
  // seed 74).
  if (mnemonic == "multimem.st" && !mods.getVec() && types.size() == 1 &&
      (types[0] == TypeKind::f16 || types[0] == TypeKind::bf16))
    return p.error(opTok, "'multimem.st' stores a single ." +
                              stringifyTypeKind(types[0]) +
                              " in a vector only (.v2, ...)");
  if (mnemonic.starts_with("multimem.") && mods.getVec() && types.size() == 1)
    for (const ParsedOperand &o : operands)
      if (o.kind == ParsedOperand::Vec)
        for (const ParsedOperand &e : o.elems)
          if (std::optional<TypeKind> reg = declaredType(e);
              reg && getTypeBitWidth(*reg) != getTypeBitWidth(types[0]))
            return p.error(e.tok, "'" + mnemonic + ".v" + Twine(mods.getVec()) +
                                      "." + stringifyTypeKind(types[0]) +
                                      "' takes " +
                                      Twine(getTypeBitWidth(types[0])) +
                                      "-bit registers, not the ." +
                                      stringifyTypeKind(*reg) + " register '" +
                                      e.name + "'");
  // multimem's vectors are of floats up to 32 bits wide, 128 bits in all
  // ("Vector qualifier is not allowed", "Inconsistent type '.f32' with
  // vector .v8").
  if (mnemonic.starts_with("multimem.") && mods.getVec() && types.size() == 1 &&
      (!llvm::is_contained({TypeKind::f16, TypeKind::bf16, TypeKind::f16x2,
                            TypeKind::bf16x2, TypeKind::f32},
                           types[0]) ||
       mods.getVec() * getTypeBitWidth(types[0]) > 128))
    return p.error(opTok, "'" + mnemonic + "' has no vector .v" +
                              Twine(mods.getVec()) + " of ." +
                              stringifyTypeKind(types[0]) +
                              " (floats, 128 bits at most)");
  // Seed 45 with --words: .volatile is an ordering of its own (ptxas:
  // "Duplicate .volatile modifier" beside .weak or .relaxed); a conversion
  // to 8-bit float pairs saturates; tensormap.replace is .b1024 and a
  // value type; cp.async.bulk names two state spaces.
  if (llvm::is_contained({"ld", "ldu", "st"}, mnemonic) &&
      mods.has(Flag::volatile_) && mods.getSem())
    return p.error(opTok, "'" + mnemonic + ".volatile' takes no ." +
                              stringifyMemSemantics(*mods.getSem()));
  if (mnemonic == "cvt" && types.size() == 2 &&
      (types[0] == TypeKind::e4m3x2 || types[0] == TypeKind::e5m2x2) &&
      !mods.has(Flag::satfinite))
    return p.error(opTok, "'cvt' to ." + stringifyTypeKind(types[0]) +
                              " needs .satfinite");
  if (mnemonic == "tensormap.replace" &&
      (!hasExtra(mods, "b1024") || types.size() != 1 ||
       (types[0] != TypeKind::b32 && types[0] != TypeKind::b64)))
    return p.error(opTok, "'tensormap.replace' is of .b1024 and a .b32 or "
                          ".b64 value");
  // ... and names the field it replaces (ptxas: "Illegal modifier '' for
  // instruction 'tensormap.replace'"; seed 77).
  if (mnemonic == "tensormap.replace" && !checkExtraWords(mnemonic, mods) &&
      !llvm::any_of(ArrayRef<StringRef>{"global_address", "rank", "box_dim",
                                        "global_dim", "global_stride",
                                        "element_stride", "elemtype",
                                        "interleave_layout", "swizzle_mode",
                                        "swizzle_atomicity", "fill_mode"},
                    [&](StringRef f) { return hasExtra(mods, f); }))
    return p.error(opTok, "'tensormap.replace' names the field it replaces "
                          "(.global_address, .rank, ...)");
  // slct selects a value, not a predicate ("Unexpected instruction types
  // specified for 'slct'"; seed 77).
  if (mnemonic == "slct" && !types.empty() && types[0] == TypeKind::pred)
    return p.error(opTok, "'slct' selects no .pred");
  if (mnemonic == "cp.async.bulk" && mods.getSpaces().size() > 2)
    return p.error(opTok, "'cp.async.bulk' names two state spaces, not " +
                              Twine(mods.getSpaces().size()));
  // fma is of floats; ldmatrix and stmatrix name their shape; nanosleep
  // takes one operand, sad no predicate.
  if (mnemonic == "fma" && types.size() == 1 &&
      (typeClass(types[0]) == 'b' || typeClass(types[0]) == 's' ||
       typeClass(types[0]) == 'u'))
    return p.error(opTok, "'fma' has no type ." + stringifyTypeKind(types[0]) +
                              " (it is of floats)");
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") &&
      mods.getShape().empty())
    return p.error(opTok, "'" + mnemonic + "' needs a shape (.m8n8, ...)");
  // ... and the number of matrices (ptxas: ".num modifier required for
  // instruction 'ldmatrix'"; seed 49).
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") && !mods.getCount())
    return p.error(opTok, "'" + mnemonic +
                              "' needs the number of matrices "
                              "(.x1, .x2, .x4)");
  if (mnemonic == "nanosleep" && operands.size() != 1)
    return p.error(opTok, "'nanosleep' takes one operand, not " +
                              Twine(operands.size()));
  if (mnemonic == "sad")
    for (const ParsedOperand &o : operands)
      if (declaredType(o) == TypeKind::pred)
        return p.error(o.tok, "'sad' takes no predicate ('" + o.name + "')");
  // cvt.sat between integers clamps only where the source's range does not
  // fit the destination's (ptxas: "Illegal modifier '.sat'").
  if (mnemonic == "cvt" && types.size() == 2 && mods.has(Flag::sat)) {
    char dc = typeClass(types[0]), sc = typeClass(types[1]);
    unsigned dw = getTypeBitWidth(types[0]), sw = getTypeBitWidth(types[1]);
    bool ints = (dc == 's' || dc == 'u') && (sc == 's' || sc == 'u');
    bool fits = (dc == sc && dw >= sw) || (sc == 'u' && dc == 's' && dw > sw);
    if (ints && fits)
      return p.error(opTok, "'cvt.sat' from ." + stringifyTypeKind(types[1]) +
                                " to ." + stringifyTypeKind(types[0]) +
                                " has nothing to clamp");
  }
  // cvt.relu clamps a float narrowed to a smaller float (ptxas:
  // "Unexpected instruction types specified for 'cvt'" for .f32.f32,
  // .f32.f64, .s32.f32 and .bf16.f16; seed 48).
  if (mnemonic == "cvt" && types.size() == 2 && mods.has(Flag::relu)) {
    auto wide = [](TypeKind t) {
      char c = typeClass(t);
      return c == 's' || c == 'u' || t == TypeKind::f64;
    };
    bool half = types[1] == TypeKind::f16 || types[1] == TypeKind::bf16;
    if (wide(types[0]) || types[0] == TypeKind::f32 || wide(types[1]) || half)
      return p.error(opTok, "'cvt.relu' narrows a float to a smaller float, "
                            "not ." +
                                stringifyTypeKind(types[1]) + " to ." +
                                stringifyTypeKind(types[0]));
  }
  // dp2a and dp4a name both factors' types.
  if ((mnemonic == "dp2a" || mnemonic == "dp4a") && types.size() == 1)
    return p.error(opTok, "'" + mnemonic + "' names both factors' types (." +
                              stringifyTypeKind(types[0]) + ".u32, ...)");
  // ... two of them; nanosleep sleeps .u32 nanoseconds (seed 38, --words).
  if ((mnemonic == "dp2a" || mnemonic == "dp4a") && types.size() > 2)
    return p.error(opTok, "'" + mnemonic + "' names two types (a, b), not " +
                              Twine(types.size()));
  // dp2a names the half of b it reads (ptxas: "'.hi/.lo' modifier required
  // for instruction 'dp2a'"; seed 69).
  if (mnemonic == "dp2a" && mods.getMode() != Mode::hi &&
      mods.getMode() != Mode::lo)
    return p.error(opTok, "'dp2a' names the half of b it reads (.lo or .hi)");
  if (mnemonic == "nanosleep" &&
      (types.size() != 1 || types[0] != TypeKind::u32))
    return p.error(opTok, "'nanosleep' is written nanosleep.u32");
  // vote's .all/.any/.uni decide a .pred, .ballot gathers a .b32.
  if (mnemonic == "vote" && types.size() == 1 && mods.getMode()) {
    TypeKind want =
        mods.getMode() == Mode::ballot ? TypeKind::b32 : TypeKind::pred;
    if (types[0] != want)
      return p.error(opTok, "'vote." + stringifyMode(*mods.getMode()) +
                                "' is ." + stringifyTypeKind(want) + ", not ." +
                                stringifyTypeKind(types[0]));
  }
  // The video instructions work on .u32 and .s32 (each of their types).
  bool video = mnemonic.size() > 1 && mnemonic.front() == 'v' &&
               llvm::is_contained({"vadd", "vsub", "vabsdiff", "vmin", "vmax",
                                   "vshl", "vshr", "vmad", "vset", "vavrg"},
                                  mnemonic.rtrim("24"));
  if (video)
    for (TypeKind t : types)
      if (t != TypeKind::u32 && t != TypeKind::s32)
        return p.error(opTok, "'" + mnemonic + "' has no type ." +
                                  stringifyTypeKind(t));
  // ... and name the result's and the two sources' types, vset the
  // sources' only (seed 29).
  bool vset = mnemonic.starts_with("vset");
  // Only vset compares (ptxas: "Comparison qualifier is not allowed";
  // seed 38 with --words).
  if (video && !vset && mods.getCmp())
    return p.error(opTok, "'" + mnemonic + "' takes no comparison ." +
                              stringifyCmpOp(*mods.getCmp()));
  if (video && types.size() != (vset ? 2u : 3u))
    return p.error(
        opTok, "'" + mnemonic + "' names " +
                   (vset ? "two types (a, b)" : "three types (result, a, b)") +
                   ", not " + Twine(types.size()));
  // Their SIMD forms (vadd2, vabsdiff4, ...) read registers only (ptxas:
  // "Incorrect video selector for operand 1"; the differential fuzzer,
  // seed 14).
  if (video && (mnemonic.ends_with("2") || mnemonic.ends_with("4")))
    for (const ParsedOperand &o : operands.drop_front())
      if (o.isLiteral())
        return p.error(o.tok, "'" + mnemonic +
                                  "' reads registers, not the immediate " +
                                  o.tok.text);
  // Seed 47 with --words: a video operand is an integer, never a float
  // literal (ptxas: "Arguments mismatch"); the secondary operation is .add,
  // .min or .max after a scalar instruction, .add after a SIMD one and none
  // after vmad ("Illegal secondary operation for video instruction",
  // "Illegal modifier '.and'").
  if (video)
    for (const ParsedOperand &o : after(operands, 1))
      if (o.kind == ParsedOperand::Float)
        return p.error(o.tok, "'" + mnemonic +
                                  "' reads integers, not the float " +
                                  o.tok.text);
  if (video && mods.getRedOp()) {
    ReduceOp op = *mods.getRedOp();
    bool simd = mnemonic.ends_with("2") || mnemonic.ends_with("4");
    bool fits = mnemonic != "vmad" &&
                (op == ReduceOp::add ||
                 (!simd && (op == ReduceOp::min || op == ReduceOp::max)));
    if (!fits)
      return p.error(opTok, "'" + mnemonic + "' has no secondary operation ." +
                                stringifyReduceOp(op));
  }
  // set: a destination and a source type, a pair of halves only from a
  // pair, a register (not a predicate) written, no flag but .ftz.
  if (mnemonic == "set") {
    if (types.size() != 2)
      return p.error(opTok, "'set' needs a destination and a source type");
    // It writes a .u32/.s32 mask, an .f32 1.0 or halves, into a register
    // of that type (ptxas: "Unexpected instruction types specified",
    // "Arguments mismatch"; the differential fuzzer, seeds 25-26).
    // A half's comparison writes .u16/.s16 too, not .f32, and .bf16's not
    // .f16 (seed 38 with --words).
    bool half = types[1] == TypeKind::f16 || types[1] == TypeKind::bf16;
    if (!llvm::is_contained({TypeKind::u32, TypeKind::s32, TypeKind::f32,
                             TypeKind::f16, TypeKind::f16x2, TypeKind::bf16,
                             TypeKind::bf16x2, TypeKind::u16, TypeKind::s16},
                            types[0]) ||
        ((types[0] == TypeKind::u16 || types[0] == TypeKind::s16) && !half))
      return p.error(opTok, "'set' writes .u32, .s32, .f32 or halves, not ." +
                                stringifyTypeKind(types[0]));
    if (half && (types[0] == TypeKind::f32 ||
                 (types[1] == TypeKind::bf16 && types[0] == TypeKind::f16)))
      return p.error(opTok, "'set' comparing ." + stringifyTypeKind(types[1]) +
                                " writes ." + stringifyTypeKind(types[1]) +
                                (types[1] == TypeKind::f16 ? ", .bf16" : "") +
                                ", .u16, .s16, .u32 or .s32, not ." +
                                stringifyTypeKind(types[0]));
    // ... comparing 16- to 64-bit integers, .f32/.f64 or halves (seed 31).
    using T = TypeKind;
    if (!llvm::is_contained({T::b16, T::b32, T::b64, T::u16, T::u32, T::u64,
                             T::s16, T::s32, T::s64, T::f32, T::f64, T::f16,
                             T::f16x2, T::bf16, T::bf16x2},
                            types[1]))
      return p.error(opTok, "'set' has no source type ." +
                                stringifyTypeKind(types[1]));
    if (!operands.empty())
      if (std::optional<TypeKind> reg = declaredType(operands[0]);
          reg && *reg != TypeKind::pred && !registerFits(types[0], *reg))
        return p.error(operands[0].tok,
                       "'set' into ." + stringifyTypeKind(types[0]) +
                           " cannot write the ." + stringifyTypeKind(*reg) +
                           " register '" + operands[0].name + "'");
    if (((types[1] == TypeKind::f16x2 || types[1] == TypeKind::bf16x2) &&
         types[0] != types[1] && types[0] != TypeKind::u32 &&
         types[0] != TypeKind::s32) ||
        ((types[0] == TypeKind::f16x2 || types[0] == TypeKind::bf16x2) &&
         types[1] != types[0]))
      return p.error(
          opTok, types[1] == TypeKind::f16x2 || types[1] == TypeKind::bf16x2
                     ? "'set' comparing ." + stringifyTypeKind(types[1]) +
                           " writes ." + stringifyTypeKind(types[1]) +
                           ", .u32 or .s32, not ." + stringifyTypeKind(types[0])
                     : "'set' into ." + stringifyTypeKind(types[0]) +
                           " compares ." + stringifyTypeKind(types[0]) +
                           ", not ." + stringifyTypeKind(types[1]));
    if (!operands.empty() && declaredType(operands[0]) == TypeKind::pred)
      return p.error(operands[0].tok, "'set' writes a value; 'setp' writes "
                                      "the predicate '" +
                                          operands[0].name + "'");
    if (std::optional<Flag> f =
            firstFlag(mods, ~static_cast<uint64_t>(Flag::ftz)))
      return p.error(opTok, "'set' takes no ." + stringifyFlag(*f));
    // Its two sources are of the source type (no literal for halves).
    for (size_t i = 1; i < std::min<size_t>(operands.size(), 3); ++i) {
      const ParsedOperand &o = operands[i];
      if (o.isLiteral()) {
        if (failed(checkLiteral(o, mnemonic, types[1], types[1],
                                /*noHalves=*/true)))
          return failure();
      } else if (std::optional<TypeKind> reg = declaredType(o);
                 reg && !registerFits(types[1], *reg)) {
        return p.error(o.tok,
                       "'set' comparing ." + stringifyTypeKind(types[1]) +
                           " cannot take the ." + stringifyTypeKind(*reg) +
                           " register '" + o.name + "'");
      }
    }
  }
  // cvt rounds to nearest, ties away, only into .tf32; a half is written
  // to a 16-bit or .b register, not a float one.
  if (mnemonic == "cvt" && types.size() == 2) {
    if (mods.getRounding() == RoundingMode::rna && types[0] != TypeKind::tf32)
      return p.error(opTok, "'cvt.rna' converts to .tf32 only, not ." +
                                stringifyTypeKind(types[0]));
    // A .tf32 is made from an .f32, rounded (ptxas: "Unexpected instruction
    // types specified", "Rounding modifier required"; the differential
    // fuzzer, seed 14).
    if (types[1] == TypeKind::tf32 ||
        (types[0] == TypeKind::tf32 && types[1] != TypeKind::f32))
      return p.error(opTok, "'cvt' makes .tf32 from .f32 only, not ." +
                                stringifyTypeKind(types[0]) + " from ." +
                                stringifyTypeKind(types[1]));
    // A packed pair is a register of its exact width (ptxas: "Arguments
    // mismatch" for an .e5m2x2 in a 32-bit register; seed 41).
    for (auto [i, o] : llvm::enumerate(operands)) {
      TypeKind t = types[i == 0 ? 0 : 1];
      std::optional<TypeKind> reg = declaredType(o);
      // (ptxas takes a 64-bit destination for .f16x2 from .f32 only.)
      bool wider = reg && i == 0 && types[0] == TypeKind::f16x2 &&
                   types[1] == TypeKind::f32 && getTypeBitWidth(*reg) == 64;
      if (reg && stringifyTypeKind(t).ends_with("x2") && !wider &&
          getTypeBitWidth(*reg) != getTypeBitWidth(t))
        return p.error(
            o.tok, "'cvt' of ." + stringifyTypeKind(t) + " takes a " +
                       Twine(getTypeBitWidth(t)) + "-bit register, not the ." +
                       stringifyTypeKind(*reg) + " register '" + o.name + "'");
    }
    // (ptxas reads a .b64 register as an .f32 for other conversions.)
    if (types[0] == TypeKind::tf32 && operands.size() >= 2 &&
        failed(requireBits(operands[1], 32,
                           "'cvt' to .tf32 reads a 32-bit register")))
      return failure();
    // A pair of halves converts to a pair of 8-bit floats only: .f16x2 to
    // .e4m3x2/.e5m2x2, .bf16x2 to .ue8m0x2 (ptxas: "Unexpected instruction
    // types specified"; seed 17).
    if ((types[1] == TypeKind::f16x2 && types[0] != TypeKind::e4m3x2 &&
         types[0] != TypeKind::e5m2x2) ||
        (types[1] == TypeKind::bf16x2 && types[0] != TypeKind::ue8m0x2))
      return p.error(opTok, "'cvt' has no conversion from ." +
                                stringifyTypeKind(types[1]) + " to ." +
                                stringifyTypeKind(types[0]));
    // (ptxas reads a decimal literal as an .f64: "Arguments mismatch".)
    if (types[0] == TypeKind::tf32 && operands.size() >= 2 &&
        operands[1].kind == ParsedOperand::Float &&
        operands[1].floatWidth != 32)
      return p.error(operands[1].tok,
                     "'cvt' to .tf32 reads an .f32, written 0f..., not " +
                         operands[1].tok.text);
    if (types[0] == TypeKind::tf32 && !mods.getRounding())
      return p.error(
          opTok, "'cvt.tf32.f32' needs a rounding modifier (.rna, .rn, .rz)");
    if (types[0] == TypeKind::tf32 && mods.has(Flag::satfinite) &&
        mods.getRounding() != RoundingMode::rna && p.ptxVersion < 86)
      return p.error(opTok, "'cvt.tf32.f32' with ." +
                                stringifyRoundingMode(*mods.getRounding()) +
                                " and .satfinite needs .version 8.6 or later");
    if ((types[0] == TypeKind::f16 || types[0] == TypeKind::bf16) &&
        !operands.empty())
      if (std::optional<TypeKind> reg = declaredType(operands[0]);
          reg && typeClass(*reg) == 'f')
        return p.error(operands[0].tok,
                       "'cvt' to ." + stringifyTypeKind(types[0]) +
                           " cannot write the ." + stringifyTypeKind(*reg) +
                           " register '" + operands[0].name + "'");
  }
  // A store or an atomic is never non-coherent (atom.nc: seed 23); atom
  // and red have no L1 eviction priority and no prefetch size (seed 27).
  if ((mnemonic == "st" || mnemonic == "atom" || mnemonic == "red") &&
      mods.has(Flag::nc))
    return p.error(opTok, "'" + mnemonic + "' takes no .nc (it is for loads)");
  if (mnemonic == "atom" || mnemonic == "red")
    if (std::optional<Flag> f =
            firstFlag(mods, fl::L1Eviction | fl::PrefetchSize))
      return p.error(opTok, "'" + mnemonic + "' takes no ." +
                                stringifyFlag(*f) +
                                (static_cast<uint64_t>(*f) & fl::PrefetchSize
                                     ? " (a load's prefetch size)"
                                     : " (an L1 eviction priority)"));
  // The flag grid's 82 new forms (the nineteenth session), each probed
  // against ptxas with its valid neighbours: sqrt's .ftz is of .f32 (rcp's
  // is not); a pair of halves from two floats neither flushes nor
  // saturates (cvt.rn.relu and .satfinite do); cvt.pack saturates, with
  // .sat only; mad.wide has no carry; createpolicy's second priority is
  // .L2::evict_first or .evict_unchanged; an mbarrier arrival that expects
  // bytes completes.
  if (mnemonic == "sqrt" && mods.has(Flag::ftz) && types.size() == 1 &&
      types[0] == TypeKind::f64)
    return p.error(opTok, "'sqrt.ftz' is of .f32, not .f64");
  if (mnemonic == "cvt" && types.size() == 2 &&
      (types[0] == TypeKind::f16x2 || types[0] == TypeKind::bf16x2) &&
      types[1] == TypeKind::f32)
    if (std::optional<Flag> f =
            firstFlag(mods, flagBits({Flag::ftz, Flag::sat})))
      return p.error(opTok, "'cvt' to ." + stringifyTypeKind(types[0]) +
                                " takes no ." + stringifyFlag(*f));
  if (mnemonic == "cvt.pack" && !mods.has(Flag::sat))
    return p.error(opTok, "'cvt.pack' is written cvt.pack.sat");
  if (mnemonic == "mad" && mods.getMode() == Mode::wide && mods.has(Flag::cc))
    return p.error(opTok, "'mad.wide' takes no .cc");
  if (mnemonic == "createpolicy") {
    SmallVector<StringRef> priorities;
    for (StringRef w : spelledModifiers(mnemonic))
      if (w.starts_with("L2::evict_"))
        priorities.push_back(w);
    if (priorities.size() == 2 && priorities[1] != "L2::evict_first" &&
        priorities[1] != "L2::evict_unchanged")
      return p.error(opTok, "the second priority of 'createpolicy' is "
                            ".L2::evict_first or .L2::evict_unchanged, not ." +
                                priorities[1]);
  }
  // Seed 54 with --words: cvt.pack names three types, istypep one;
  // tensormap.cp_fenceproxy copies between two spaces.
  bool halves = !types.empty() &&
                (types[0] == TypeKind::s16 || types[0] == TypeKind::u16);
  if (mnemonic == "cvt.pack" && types.size() != (halves ? 2u : 3u))
    return p.error(opTok, "'cvt.pack' names " +
                              Twine(halves ? "two types (the result's, the "
                                             "sources')"
                                           : "three types (the result's, the "
                                             "sources', the merged value's)") +
                              ", not " + Twine(types.size()));
  // (Seed 62: the sources are .s32, the merged value .b32; ptxas
  // "Unexpected instruction types".)
  if (mnemonic == "cvt.pack" &&
      (types[1] != TypeKind::s32 ||
       (types.size() == 3 && types[2] != TypeKind::b32)))
    return p.error(opTok, "'cvt.pack' converts .s32 sources" +
                              Twine(halves ? "" : " into a .b32 value") +
                              ", not ." + stringifyTypeKind(types[1]) +
                              (types.size() == 3
                                   ? " and ." + stringifyTypeKind(types[2])
                                   : std::string()));
  if (mnemonic == "istypep" && types.size() != 1)
    return p.error(opTok, "'istypep' tests for one type (.texref, "
                          ".samplerref, .surfref)");
  if (mnemonic == "tensormap.cp_fenceproxy" &&
      (mods.getSpaces().size() != 2 ||
       mods.getSpaces()[0] != StateSpace::global ||
       mods.getSpaces()[1] != StateSpace::shared_cta))
    return p.error(opTok, "'tensormap.cp_fenceproxy' copies from .shared::cta "
                          "to .global: two state spaces");
  // (Seeds 58-59 with --words: each with ptxas's "... modifier required",
  // "Unexpected instruction types", "Unknown modifier '.grad'".)
  // (elect's d|p and member mask: seed 63, "Arguments mismatch".)
  if (mnemonic == "elect" && operands.size() != 2)
    return p.error(opTok, "'elect' takes d|p and a member mask, not " +
                              Twine(operands.size()) + " operand" +
                              (operands.size() == 1 ? "" : "s"));
  // (The cache level each names: prefetchu .L1, discard and the bulk
  // prefetches .L2; the tensor's: seed 67.)
  if (std::optional<Flag> level =
          mnemonic == "prefetchu" ? std::optional(Flag::L1)
          : mnemonic == "discard" || mnemonic == "cp.async.bulk.prefetch" ||
                  mnemonic == "cp.async.bulk.prefetch.tensor"
              ? std::optional(Flag::L2)
              : std::nullopt;
      level && !mods.has(*level))
    return p.error(opTok, "'" + mnemonic + "' names its cache level (." +
                              stringifyFlag(*level) + ")");
  if ((mnemonic == "st.async" || mnemonic == "red.async") &&
      operands.size() != 3)
    return p.error(opTok,
                   "'" + mnemonic +
                       "' takes [address], a value and [mbarrier], not " +
                       Twine(operands.size()) + " operands");
  if (mnemonic == "st.async" && types.size() != 1)
    return p.error(opTok,
                   "'st.async' names one type, not " + Twine(types.size()));
  // Both complete on the mbarrier (ptxas: "Modifier '.shared::cluster'
  // requires modifier '.completion_mechanism'"; seed 66).
  if ((mnemonic == "st.async" || mnemonic == "red.async") &&
      !mods.has(Flag::mbarrier_complete_tx_bytes))
    return p.error(opTok, "'" + mnemonic +
                              "' needs its completion "
                              "(.mbarrier::complete_tx::bytes)");
  if (mnemonic == "tex") {
    SmallVector<StringRef> words = spelledModifiers(mnemonic);
    if (llvm::count(words, "level") + llvm::count(words, "grad") > 1)
      return p.error(opTok, "'tex' takes one of .level and .grad, once");
  }
  if ((mnemonic == "mbarrier.arrive" || mnemonic == "mbarrier.arrive_drop") &&
      mods.has(Flag::expect_tx) && mods.has(Flag::noComplete))
    return p.error(opTok, "'" + mnemonic + ".expect_tx' takes no .noComplete");
  return success();
}

// (Found by the ptxas differential fuzzer, seeds 4-7; each case and the
// valid forms checked against ptxas, sm_90: "layout modifier required",
// "Shape modifier required", "Illegal matrix shape", "Illegal type",
// "Incorrect instruction type specified for ... with shape", "Illegal
// alayout", "Argument vector size mismatch", "Illegal modifier".)
LogicalResult
FunctionBuilder::checkWmmaForms(const Token &opTok, StringRef mnemonic,
                                ModifiersAttr mods,
                                ArrayRef<ParsedOperand> operands) {
  bool isMma = mnemonic == "wmma.mma";
  bool isLoad = mnemonic == "wmma.load";
  if (!isMma && !isLoad && mnemonic != "wmma.store")
    return success();
  auto fail = [&](const Twine &msg) {
    return p.error(opTok, "'" + mnemonic + "' " + msg);
  };
  // The words kept verbatim: the fragment (a load's a, b or c, a store's
  // d) and the layouts (one for a load or store, A's and B's for mma).
  // Single-bit mma names its operation (`.xor.popc`, `.and.popc`).
  SmallVector<StringRef, 2> layouts;
  std::optional<StringRef> fragment;
  bool bitOp = false;
  if (ArrayAttr extras = mods.getExtras())
    for (Attribute e : extras) {
      StringRef w = cast<StringAttr>(e).getValue();
      if (w == "row" || w == "col") {
        layouts.push_back(w);
      } else if (isMma && llvm::is_contained({"xor", "and", "popc"}, w)) {
        bitOp = true;
      } else if (!isMma && !fragment &&
                 llvm::is_contained({"a", "b", "c", "d"}, w)) {
        fragment = w;
      } else if (!symbolizeStateSpace(w)) {
        return fail("has no qualifier ." + w);
      }
    }
  if (!isMma && (!fragment || (isLoad ? *fragment == "d" : *fragment != "d")))
    return fail(isLoad ? "loads fragment .a, .b or .c" : "stores fragment .d");
  // (Written first: `wmma.load.a.sync`; ptxas reads `wmma.load.sync.a` as
  // an unknown `.load`. Seed 56 with --words.)
  if (!isMma && spelledModifiers(mnemonic).front() != *fragment)
    return p.error(opTok, "'" + mnemonic + "." + *fragment +
                              "' is written with its fragment first (" +
                              mnemonic + "." + *fragment + ".sync...)");
  if (layouts.size() != (isMma ? 2u : 1u))
    return fail(isMma ? "needs A's and B's layouts (.row or .col each)"
                      : "needs one layout (.row or .col)");
  uint64_t allowed = static_cast<uint64_t>(Flag::sync) |
                     static_cast<uint64_t>(Flag::aligned) |
                     (isMma ? static_cast<uint64_t>(Flag::satfinite) : 0);
  if (std::optional<Flag> f = firstFlag(mods, ~allowed))
    return fail("has no qualifier ." + stringifyFlag(*f));
  if (mods.getCache() || mods.getRedOp() || mods.getCmp() ||
      (!isMma && mods.getRounding()))
    return fail("takes no cache operator, reduction, comparison or rounding");
  // (ptxas: "Illegal rounding modifier for instruction 'wmma.mma'"; seed 26.)
  if (isMma && mods.getRounding() &&
      (mods.getTypes().empty() || mods.getTypes()[0] != TypeKind::f64))
    return fail("rounds .f64 only");
  if (std::optional<StateSpace> sp = mods.getSpace();
      sp && spaceFamily(*sp) != StateSpace::global &&
      spaceFamily(*sp) != StateSpace::shared)
    return fail("reaches .global or .shared memory, not ." +
                stringifyStateSpace(*sp));
  ArrayRef<int64_t> shape = mods.getShape();
  if (shape.size() != 3)
    return fail("needs a shape (.m16n16k16, ...)");
  int64_t m = shape[0], n = shape[1], k = shape[2];
  auto is = [&](int64_t mm, int64_t nn, int64_t kk) {
    return m == mm && n == nn && k == kk;
  };
  bool k16 = is(16, 16, 16) || is(32, 8, 16) || is(8, 32, 16);
  // The element types: a load's or store's one; mma's D and C (A and B
  // .f16) or D, A, B, C.
  ArrayRef<TypeKind> types = mods.getTypes();
  if (isMma ? types.size() != 2 && types.size() != 4 : types.size() != 1)
    return fail(isMma ? "takes the types of D and C, or of D, A, B and C"
                      : "takes one type");
  TypeKind abType = isMma && types.size() == 4 ? types[1] : TypeKind::f16;
  // Which shapes each element type has, as A or B and as C or D.
  auto abShape = [&](TypeKind t) {
    switch (t) {
    case TypeKind::f16:
    case TypeKind::bf16:
    case TypeKind::s8:
    case TypeKind::u8:
      return k16;
    case TypeKind::tf32:
      return is(16, 16, 8);
    case TypeKind::f64:
      return is(8, 8, 4);
    case TypeKind::s4:
    case TypeKind::u4:
      return is(8, 8, 32);
    case TypeKind::b1:
      return is(8, 8, 128);
    default:
      return false;
    }
  };
  auto cShape = [&](TypeKind t) {
    switch (t) {
    case TypeKind::f16:
      return k16;
    case TypeKind::f32:
      return k16 || is(16, 16, 8);
    case TypeKind::s32:
      return k16 || is(8, 8, 32) || is(8, 8, 128);
    case TypeKind::f64:
      return is(8, 8, 4);
    default:
      return false;
    }
  };
  // The registers of a fragment: one per 32 bits of its elements per
  // lane, f64 one per element, at least one; f16's A and B eight.
  auto registers = [&](char frag, TypeKind t) -> unsigned {
    if (t == TypeKind::f16 && (frag == 'a' || frag == 'b'))
      return 8;
    int64_t elems = (frag == 'a' ? m * k : frag == 'b' ? k * n : m * n) / 32;
    if (t == TypeKind::f64)
      return elems;
    return std::max<int64_t>(1, elems * getTypeBitWidth(t) / 32);
  };
  auto checkFragment = [&](const ParsedOperand &o, char frag,
                           TypeKind t) -> LogicalResult {
    if (o.kind != ParsedOperand::Vec)
      return success();
    unsigned want = registers(frag, t);
    if (o.elems.size() != want)
      return p.error(o.tok, "'" + mnemonic + "' fragment ." + Twine(frag) +
                                " of ." + stringifyTypeKind(t) + " at .m" +
                                Twine(m) + "n" + Twine(n) + "k" + Twine(k) +
                                " is " + Twine(want) + " registers, not " +
                                Twine(o.elems.size()));
    // (mma's A and B take no float register but for f64; a load's do.)
    unsigned width = t == TypeKind::f64 ? 64 : 32;
    bool noFloat = isMma && (frag == 'a' || frag == 'b') && t != TypeKind::f64;
    for (const ParsedOperand &e : o.elems)
      if (std::optional<TypeKind> reg = declaredType(e);
          reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) != width ||
                  (noFloat && typeClass(*reg) == 'f')))
        return p.error(
            e.tok, "'" + mnemonic + "' fragment ." + Twine(frag) + " holds " +
                       (noFloat ? Twine(".b32") : Twine(width) + "-bit") +
                       " registers, not the ." + stringifyTypeKind(*reg) +
                       " register '" + e.name + "'");
    return success();
  };
  // Sub-byte A is row-major and B column-major.
  auto subByte = [](TypeKind t) {
    return t == TypeKind::s4 || t == TypeKind::u4 || t == TypeKind::b1;
  };
  if (!isMma) {
    char frag = fragment->front();
    TypeKind t = types[0];
    bool ab = frag == 'a' || frag == 'b';
    if (!(ab ? abShape(t) : cShape(t)))
      return fail("has no ." + stringifyTypeKind(t) + " fragment ." +
                  Twine(frag) + " at .m" + Twine(m) + "n" + Twine(n) + "k" +
                  Twine(k));
    if (ab && subByte(t) && layouts[0] != (frag == 'a' ? "row" : "col"))
      return fail("lays sub-byte fragment ." + Twine(frag) + " out ." +
                  (frag == 'a' ? "row" : "col") + " only");
    // The stride is a 32-bit integer.
    if (operands.size() == 3)
      if (std::optional<TypeKind> reg = not32(operands[2]))
        return refuseRegister(mnemonic, operands[2], *reg, "stride");
    const ParsedOperand *value = operands.size() > (isLoad ? 0u : 1u)
                                     ? &operands[isLoad ? 0 : 1]
                                     : nullptr;
    return value ? checkFragment(*value, frag, t) : success();
  }
  TypeKind d = types[0], c = types.back();
  if (!abShape(abType) || !cShape(d) || !cShape(c) ||
      (types.size() == 4 && types[2] != abType))
    return fail("has no form ." +
                [&] {
                  std::string list;
                  for (TypeKind t : types)
                    list += "." + stringifyTypeKind(t).str();
                  return list.substr(1);
                }() +
                " at .m" + Twine(m) + "n" + Twine(n) + "k" + Twine(k));
  // (ptxas: "... with '.satfinite' is not supported starting from PTX
  // ISA version 6.5".)
  if (mods.has(Flag::satfinite) && (d == TypeKind::f16 || d == TypeKind::f32) &&
      p.ptxVersion >= 65)
    return fail("takes .satfinite on floats only before .version 6.5");
  if (bitOp && abType != TypeKind::b1)
    return fail("takes .xor/.and.popc on .b1 only");
  if (subByte(abType) && (layouts[0] != "row" || layouts[1] != "col"))
    return fail("on sub-byte types is .row.col only");
  if (operands.size() == 4)
    for (auto [o, frag, t] : {std::tuple{&operands[0], 'd', d},
                              std::tuple{&operands[1], 'a', abType},
                              std::tuple{&operands[2], 'b', abType},
                              std::tuple{&operands[3], 'c', c}})
      if (failed(checkFragment(*o, frag, t)))
        return failure();
  return success();
}

// (Found by the ptxas differential fuzzer, seeds 4-6; each case and the
// valid forms checked against ptxas, sm_80 and sm_90: "Arguments
// mismatch", "Illegal vector size", "Incompatible elements of vector
// expression", "Illegal vector-vector operands", "value out of range".)
LogicalResult
FunctionBuilder::checkOperandForms(const Token &opTok, StringRef mnemonic,
                                   ModifiersAttr mods,
                                   ArrayRef<ParsedOperand> operands) {
  ArrayRef<TypeKind> types = mods.getTypes();
  // mov packs two or four registers of equal width into a .bN value, or
  // unpacks one: {...} on one side only, each element N/2 or N/4 bits wide
  // (a literal or `_` in its place; `{%r}` is %r itself). mov.v2/.v4 move
  // vectors.
  if (mnemonic == "mov" && types.size() == 1 && !mods.getVec() &&
      operands.size() == 2 &&
      (operands[0].kind == ParsedOperand::Vec ||
       operands[1].kind == ParsedOperand::Vec)) {
    if (operands[0].kind == operands[1].kind)
      return p.error(operands[1].tok,
                     "'mov' packs into or unpacks from one register, not a "
                     "vector {...} into a vector");
    const ParsedOperand &vec =
        operands[operands[0].kind == ParsedOperand::Vec ? 0 : 1];
    TypeKind t = types[0];
    if (typeClass(t) != 'b' && t != TypeKind::b128)
      return p.error(opTok, "'mov' packs and unpacks .b types, not ." +
                                stringifyTypeKind(t));
    size_t n = vec.elems.size();
    if (n != 1 && n != 2 && n != 4)
      return p.error(vec.tok, "'mov' packs and unpacks two or four values, "
                              "not " +
                                  Twine(n));
    unsigned width = getTypeBitWidth(t) / n;
    for (const ParsedOperand &e : vec.elems)
      if (std::optional<TypeKind> reg = declaredType(e);
          reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) != width)) {
        std::string what = n == 1 ? std::string("moves one value")
                           : &vec == &operands[0]
                               ? ("unpacks into " + Twine(n) + " values").str()
                               : ("packs " + Twine(n) + " values").str();
        return p.error(e.tok, "'mov." + stringifyTypeKind(t) + "' " + what +
                                  " of " + Twine(width) + " bits, not the ." +
                                  stringifyTypeKind(*reg) + " register '" +
                                  e.name + "'");
      }
  }
  // mov.v2/.v4 move a vector {...} of that many values of the type into
  // another, at most 128 bits (ptxas: "Result vector expected", "Vector
  // type too large, exceeds 128 bit limit", "Illegal vector size").
  if (mnemonic == "mov" && types.size() == 1 && mods.getVec() &&
      operands.size() == 2) {
    unsigned vec = mods.getVec();
    if (vec * getTypeBitWidth(types[0]) > 128)
      return p.error(opTok, "'mov.v" + Twine(vec) + "." +
                                stringifyTypeKind(types[0]) + "' moves " +
                                Twine(vec * getTypeBitWidth(types[0])) +
                                " bits; a vector is at most 128");
    for (const ParsedOperand &o : operands) {
      if (o.kind != ParsedOperand::Vec || o.elems.size() != vec)
        return p.error(o.tok, "'mov.v" + Twine(vec) +
                                  "' moves a vector {...} "
                                  "of " +
                                  Twine(vec) + " values, not " +
                                  (o.kind == ParsedOperand::Vec
                                       ? "one of " + Twine(o.elems.size())
                                       : Twine(Parser::describe(o.tok))));
      for (const ParsedOperand &e : o.elems)
        if (std::optional<TypeKind> reg = declaredType(e);
            reg && !registerFits(types[0], *reg))
          return p.error(
              e.tok, "'mov.v" + Twine(vec) + "." + stringifyTypeKind(types[0]) +
                         "' cannot take the ." + stringifyTypeKind(*reg) +
                         " register '" + e.name + "'");
    }
  }
  // A variable's or function's address is moved as an integer (ptxas:
  // "Arguments mismatch" for mov.f32 of one).
  if (mnemonic == "mov" && types.size() == 1 && operands.size() == 2 &&
      operands[1].kind == ParsedOperand::Name && typeClass(types[0]) == 'f') {
    const NameEntry *e = lookup(operands[1].name);
    // (A function's address, a generic symbol here, ptxas only warns of.)
    auto sym = p.symbols.find(operands[1].name);
    if ((e && e->kind == NameEntry::Val) ||
        (!e && sym != p.symbols.end() && sym->second != StateSpace::generic))
      return p.error(operands[1].tok, "'mov." + stringifyTypeKind(types[0]) +
                                          "' cannot move the address of '" +
                                          operands[1].name +
                                          "'; an address is an integer");
  }
  // A special register is read as an integer (ptxas: "Special register
  // argument not allowed").
  if (mnemonic == "mov" && types.size() == 1 && operands.size() == 2 &&
      operands[1].kind == ParsedOperand::SReg && typeClass(types[0]) == 'f')
    return p.error(operands[1].tok, "'mov." + stringifyTypeKind(types[0]) +
                                        "' cannot read a special register; "
                                        "it is an integer");
  // selp selects by a predicate register.
  if (mnemonic == "selp" && operands.size() == 4 &&
      failed(requirePredicate(mnemonic, operands[3], "selects by")))
    return failure();
  // Registers that are 32 bits wide (a float one passes where `floats`):
  // prmt's, dp2a's and dp4a's; vote's predicate source and its
  // destination, a predicate but for .ballot's 32-bit mask.
  auto refuse32 = [&](const ParsedOperand &o, StringRef what,
                      bool floats) -> LogicalResult {
    if (std::optional<TypeKind> reg = not32(o, floats))
      return refuseRegister(mnemonic, o, *reg, what);
    return success();
  };
  // (prmt's type and its predicate operands have their own messages.)
  bool prmt = mnemonic == "prmt" && types == ArrayRef<TypeKind>{TypeKind::b32};
  if (prmt || mnemonic == "dp2a" || mnemonic == "dp4a")
    for (const ParsedOperand &o : operands)
      if (!(prmt && &o != &operands.front() &&
            declaredType(o) == TypeKind::pred) &&
          failed(refuse32(o, prmt ? "register" : "integer", prmt)))
        return failure();
  // ldmatrix and stmatrix name their element type (seed 30).
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") && types.empty())
    return p.error(opTok, "'" + mnemonic + "' needs its type (.b16, .b8)");
  // mad and madc write .cc after .hi/.lo (ptxas: "Unexpected instruction
  // types specified for 'mad'" for mad.cc.lo; seeds 27 and 29).
  if ((mnemonic == "mad" || mnemonic == "madc") && mods.has(Flag::cc) &&
      mods.getMode()) {
    SmallVector<StringRef> words = spelledModifiers(mnemonic);
    auto at = [&](StringRef w) { return llvm::find(words, w) - words.begin(); };
    StringRef mode = stringifyMode(*mods.getMode());
    if (at("cc") < at(mode))
      return p.error(opTok, "'" + mnemonic + "' writes .cc after ." + mode +
                                " ('" + mnemonic + "." + mode + ".cc')");
  }
  // ldmatrix and stmatrix: the fragment and the address, nothing more
  // (seed 24).
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") &&
      operands.size() != 2)
    return p.error(opTok, "'" + mnemonic + "' takes " +
                              (mnemonic == "ldmatrix"
                                   ? "a fragment {...} and an address [a]"
                                   : "an address [a] and a fragment {...}") +
                              ", not " + Twine(operands.size()) + " operands");
  if (mnemonic == "vote" && operands.size() >= 2) {
    bool ballot = mods.getMode() == Mode::ballot;
    if (ballot && failed(refuse32(operands[0], "destination", true)))
      return failure();
    for (size_t i = ballot ? 1 : 0; i < 2; ++i)
      if (failed(requirePredicate(mnemonic, operands[i],
                                  i == 0 ? "writes" : "reads")))
        return failure();
  }
  // lop3's sources are values, not predicates (its predicate form writes
  // one); a member mask is an integer, never a float literal; cp.async
  // reads an [address]; tex writes a vector {...}.
  // Its boolean form writes d|p, the other d alone (ptxas: "Predicate
  // output expected", "Predicate output not allowed"; seed 71).
  if (mnemonic == "lop3" && !operands.empty() &&
      mods.getBoolOp().has_value() != (operands[0].kind == ParsedOperand::Pair))
    return p.error(operands[0].tok,
                   mods.getBoolOp() ? Twine("'lop3' with a boolean operation "
                                            "writes d|p")
                                    : Twine("'lop3' writes d|p with a boolean "
                                            "operation only (.and, .or)"));
  if (mnemonic == "lop3")
    for (size_t i = 1; i < std::min<size_t>(operands.size(), 4); ++i)
      if (declaredType(operands[i]) == TypeKind::pred)
        return p.error(operands[i].tok,
                       "'lop3' combines values, not the predicate '" +
                           operands[i].name + "'");
  if (llvm::is_contained({"shfl", "vote", "redux", "match"}, mnemonic) &&
      !operands.empty() && operands.back().kind == ParsedOperand::Float)
    return p.error(operands.back().tok, "'" + mnemonic +
                                            "' takes an integer member mask, "
                                            "not the float " +
                                            operands.back().tok.text);
  // (The differential fuzzer, seeds 19-20; each checked against ptxas.)
  // shf shifts 32-bit registers (a float one will do) by a 32-bit integer.
  if (mnemonic == "shf")
    for (size_t i = 0; i < std::min<size_t>(operands.size(), 4); ++i)
      if (std::optional<TypeKind> reg = not32(operands[i], /*floats=*/i < 3))
        return refuseRegister(mnemonic, operands[i], *reg,
                              i == 0   ? "result"
                              : i == 3 ? "shift amount"
                                       : "source");
  // cp.async.bulk keeps the qualifiers it does not know as extras; one of
  // another instruction's flags is refused (ptxas: "Illegal modifier
  // '.ftz' for instruction 'cp.async.bulk'").
  // (The bulk prefetch of bytes has no load mode, the tensor's has:
  // "Illegal modifier '.tile' for instruction 'cp.async.bulk.prefetch'";
  // seed 78.)
  // A tensor copy has one load mode ("Multiple .load_mode modifiers
  // specified"; the flag grid).
  if (mods.has(Flag::tile) && mods.has(Flag::im2col))
    return p.error(opTok,
                   "'" + mnemonic + "' takes one load mode, .tile or .im2col");
  if (mnemonic == "cp.async.bulk.prefetch")
    for (Flag f : {Flag::tile, Flag::im2col})
      if (mods.has(f))
        return p.error(opTok, "'cp.async.bulk.prefetch' takes no ." +
                                  stringifyFlag(f) +
                                  " (a tensor prefetch's load mode)");
  if (mnemonic == "cp.async.bulk")
    if (ArrayAttr extras = mods.getExtras())
      for (Attribute e : extras)
        if (StringRef w = cast<StringAttr>(e).getValue();
            symbolizeFlag(w) || symbolizeTypeKind(w))
          return p.error(opTok, "'cp.async.bulk' has no qualifier ." + w);
  // Found with the differential fuzzer's --words mutations (seed 38), each
  // form probed against ptxas ("Arguments mismatch", "Unexpected
  // instruction types", "Unexpected number of state spaces"):
  // cp.async.bulk has no type and takes the mbarrier with its completion
  // (the CTA mask with .multicast::cluster, a policy with
  // .L2::cache_hint); cp.async names both spaces.
  if (mnemonic == "cp.async.bulk") {
    if (!types.empty())
      return p.error(opTok, "'cp.async.bulk' has no type ." +
                                stringifyTypeKind(types[0]));
    size_t want = 3 + (mods.has(Flag::mbarrier_complete_tx_bytes) ? 1 : 0) +
                  (mods.has(Flag::multicast_cluster) ? 1 : 0) +
                  (mods.has(Flag::L2_cache_hint) ? 1 : 0);
    if (mods.getSpaces().size() == 2 && operands.size() != want)
      return p.error(opTok, "'" + instSpelling + "' takes " + Twine(want) +
                                " operands, not " + Twine(operands.size()));
    // [destination], [source], size, then the mbarrier: an [address], or
    // a 64-bit register or an immediate holding one (seed 40).
    bool mbarrier = mods.has(Flag::mbarrier_complete_tx_bytes);
    for (auto [i, o] : llvm::enumerate(operands)) {
      if (i == 3 && mbarrier) {
        if (failed(requireMbarrierAddress(mnemonic, o)))
          return failure();
        // (An [address] when multicast: "Arguments mismatch"; seed 77.)
        if (mods.has(Flag::multicast_cluster) && o.kind != ParsedOperand::Addr)
          return p.error(o.tok, "'" + mnemonic +
                                    ".multicast::cluster' takes the "
                                    "mbarrier's [address], not " +
                                    Parser::describe(o.tok));
        continue;
      }
      bool address = i < 2;
      if ((o.kind == ParsedOperand::Addr) != address)
        return p.error(o.tok,
                       "'cp.async.bulk' takes " +
                           Twine(address ? "an address [a]" : "a value") +
                           " here, not " + Parser::describe(o.tok));
    }
  }
  if (mnemonic == "cp.async" && mods.getSpaces().size() != 2)
    return p.error(opTok, "'cp.async' names two state spaces "
                          "(.shared.global), not " +
                              Twine(mods.getSpaces().size()));
  // ... caches as .ca or .cg (.cg 16 bytes), after its two addresses none
  // (seed 38).
  if (mnemonic == "cp.async") {
    std::optional<CacheOp> c = mods.getCache();
    if (!c || (*c != CacheOp::ca && *c != CacheOp::cg))
      return p.error(opTok, "'cp.async' needs .ca or .cg");
    // (Its copy size is written: "Arguments mismatch"; seed 64.)
    if (operands.size() < 3)
      return p.error(opTok,
                     "'cp.async' takes [to], [from] and the copy size, not " +
                         Twine(operands.size()) + " operands");
    if (*c == CacheOp::cg && operands.size() >= 3 &&
        operands[2].kind == ParsedOperand::Int && operands[2].intValue != 16)
      return p.error(operands[2].tok, "'cp.async.cg' copies 16 bytes, not " +
                                          operands[2].tok.text);
    // The source size is at most the copy's (ptxas: "value '5' out of
    // range, expected to be in range [0..4]"; seed 56).
    if (operands.size() >= 4 && operands[2].kind == ParsedOperand::Int &&
        operands[3].kind == ParsedOperand::Int &&
        operands[3].intValue > operands[2].intValue)
      return p.error(operands[3].tok,
                     "'cp.async' reads at most the " + operands[2].tok.text +
                         " bytes it copies, not " + operands[3].tok.text);
    for (const ParsedOperand &o : after(operands, 2))
      if (o.kind == ParsedOperand::Addr)
        return p.error(o.tok, "'cp.async' takes two addresses, the "
                              "destination's and the source's");
  }
  if (mnemonic == "cp.async" && !operands.empty() &&
      operands[0].kind != ParsedOperand::Addr)
    return p.error(operands[0].tok, "'cp.async' writes an address [a], not " +
                                        Parser::describe(operands[0].tok));
  // The bulk copies (ptxas_flag_grid.py): one completion, an mbarrier's
  // or a bulk group's ("Multiple .bulk_group modifiers specified"); the
  // cache policy of .L2::cache_hint is their last operand, a register or
  // an immediate ("Arguments mismatch"); .noftz adds halves.
  if (mnemonic.starts_with("cp.async.bulk") ||
      mnemonic.starts_with("cp.reduce.async.bulk")) {
    if (mods.has(Flag::mbarrier_complete_tx_bytes) &&
        mods.has(Flag::bulk_group))
      return p.error(opTok, "'" + mnemonic +
                                "' completes on an mbarrier or "
                                "in a bulk group, not both");
    bool hint = mods.has(Flag::L2_cache_hint);
    bool tensor = mnemonic.ends_with(".tensor");
    // (cp.async.bulk.prefetch reads [address], size: seed 46.)
    if (mnemonic == "cp.async.bulk.prefetch" &&
        (operands.size() != 2u + hint ||
         operands[0].kind != ParsedOperand::Addr))
      return p.error(opTok, "'cp.async.bulk.prefetch' takes [address] and a "
                            "size" +
                                Twine(hint ? " and a cache policy" : ""));
    if (mnemonic == "cp.reduce.async.bulk") {
      size_t want = 3 + mods.has(Flag::mbarrier_complete_tx_bytes) + hint;
      if (operands.size() != want)
        return p.error(opTok, "'" + mnemonic + "' takes " + Twine(want) +
                                  " operands" +
                                  (hint ? " (the last a cache policy)" : "") +
                                  ", not " + Twine(operands.size()));
      // ([to], [from], size: seed 52; then the mbarrier's address: seed
      // 74.)
      for (size_t i = 0; i < 3; ++i)
        if ((operands[i].kind == ParsedOperand::Addr) != (i < 2))
          return p.error(operands[i].tok,
                         "'" + mnemonic + "' takes [to], [from] and a size");
      if (mods.has(Flag::mbarrier_complete_tx_bytes) &&
          failed(requireMbarrierAddress(mnemonic, operands[3])))
        return failure();
    }
    // (Seeds 50-51 with --words: cp.async.bulk.prefetch.tensor reads the
    // tensor map alone, of .global; cp.reduce.async.bulk names two
    // spaces; an immediate size is a multiple of 16, "expected to be
    // multiple of 16".)
    if (mnemonic == "cp.reduce.async.bulk.tensor" &&
        operands.size() != 2u + hint)
      return p.error(opTok, "'" + mnemonic +
                                "' takes the tensor map's [map, {coordinates}] "
                                "and [source]" +
                                Twine(hint ? " and a cache policy" : ""));
    if (mnemonic == "cp.async.bulk.prefetch.tensor" &&
        operands.size() != 1u + hint)
      return p.error(opTok, "'" + mnemonic +
                                "' takes the tensor map's "
                                "[map, {coordinates}]" +
                                Twine(hint ? " and a cache policy" : ""));
    // (Seed 55: ptxas "State space modifier required", "State space
    // incorrect" for cp.async.bulk.prefetch too.)
    if (mnemonic.starts_with("cp.async.bulk.prefetch") &&
        mods.getSpace() != StateSpace::global)
      return p.error(
          opTok,
          "'" + mnemonic + "' reads .global memory" +
              (mods.getSpace()
                   ? (", not ." + stringifyStateSpace(*mods.getSpace())).str()
                   : std::string(" and names it")));
    if (!tensor) {
      size_t size = mnemonic == "cp.async.bulk.prefetch" ? 1 : 2;
      if (size < operands.size() && operands[size].kind == ParsedOperand::Int &&
          operands[size].intValue % 16 != 0)
        return p.error(operands[size].tok,
                       "'" + mnemonic +
                           "' copies a multiple of 16 bytes, not " +
                           operands[size].tok.text);
    }
    if (mods.has(Flag::noftz) && !(mods.getTypes().size() == 1 &&
                                   (mods.getTypes()[0] == TypeKind::f16 ||
                                    mods.getTypes()[0] == TypeKind::bf16)))
      return p.error(opTok, "'" + mnemonic + ".noftz' adds .f16 or .bf16");
  }
  // (Seed 45: cp.async takes at most a source size and a policy besides
  // (a fifth without .L2::cache_hint has its message below);
  // isspacep's address is 32- or 64-bit; cp.async.bulk's size 32-bit.)
  if (mnemonic == "cp.async" && operands.size() > 5)
    return p.error(opTok, "'cp.async' takes [to], [from], the copy size, a "
                          "source size and (with .L2::cache_hint) a policy; "
                          "not " +
                              Twine(operands.size()) + " operands");
  if (mnemonic == "isspacep" && operands.size() == 2)
    if (std::optional<TypeKind> reg = declaredType(operands[1]);
        reg && *reg != TypeKind::pred && getTypeBitWidth(*reg) < 32)
      return p.error(operands[1].tok, "'isspacep' tests a 32- or 64-bit "
                                      "address, not the ." +
                                          stringifyTypeKind(*reg) +
                                          " register '" + operands[1].name +
                                          "'");
  if (mnemonic == "cp.async.bulk" && operands.size() >= 3)
    if (std::optional<TypeKind> reg = not32(operands[2]))
      return refuseRegister(mnemonic, operands[2], *reg, "size");
  // (Seed 46: testp writes a predicate; a half is converted from a
  // register only.)
  if (mnemonic == "testp" && !operands.empty() &&
      failed(requirePredicate(mnemonic, operands[0], "writes")))
    return failure();
  // (Halves and packed small floats, .e4m3x2...: seed 56.)
  if (mnemonic == "cvt" && types.size() == 2 &&
      (isHalfType(types[1]) || stringifyTypeKind(types[1]).ends_with("x2") ||
       stringifyTypeKind(types[1]).ends_with("x4")))
    for (const ParsedOperand &o : after(operands, 1))
      if (o.isLiteral())
        return p.error(o.tok, "'cvt' from ." + stringifyTypeKind(types[1]) +
                                  " takes a register, not " + o.tok.text);
  // A cache policy is a 64-bit integer register or an immediate (the bulk
  // prefetches' and reductions': seed 55; no .f64 register: seed 73).
  if (mods.has(Flag::L2_cache_hint) && !operands.empty() &&
      (llvm::is_contained({"ld", "ldu", "st", "atom", "red", "cp.async"},
                          mnemonic) ||
       mnemonic.starts_with("cp.async.bulk") ||
       mnemonic.starts_with("cp.reduce.async.bulk"))) {
    const ParsedOperand &policy = operands.back();
    std::optional<TypeKind> reg = declaredType(policy);
    if (policy.kind == ParsedOperand::Addr ||
        policy.kind == ParsedOperand::Vec ||
        policy.kind == ParsedOperand::Float ||
        (reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) != 64 ||
                 typeClass(*reg) == 'f')))
      return p.error(policy.tok,
                     "'" + mnemonic +
                         ".L2::cache_hint' takes a 64-bit cache policy last, "
                         "not " +
                         (policy.kind == ParsedOperand::Addr ? "an address"
                          : policy.kind == ParsedOperand::Vec
                              ? "a vector"
                              : Parser::describe(policy.tok)));
  }
  // txq and suq: a .b32 result of the query, from a texture or surface.
  if (mnemonic == "txq" || mnemonic == "suq") {
    if (types.size() != 1 || types[0] != TypeKind::b32)
      return p.error(opTok, "'" + mnemonic + "' answers in .b32");
    // (ptxas takes a .f32 register for the result.)
    if (!operands.empty())
      if (std::optional<TypeKind> reg = not32(operands[0], /*floats=*/true))
        return refuseRegister(mnemonic, operands[0], *reg, "result");
    if (operands.size() >= 2 && operands[1].kind != ParsedOperand::Addr)
      return p.error(operands[1].tok, "'" + mnemonic +
                                          "' queries an address [a], not " +
                                          Parser::describe(operands[1].tok));
    if (operands.size() >= 2 &&
        failed(checkHandle(operands[1], ("'" + mnemonic + "'").str(),
                           mnemonic == "txq" ? "texture" : "surface")))
      return failure();
  }
  // The tensor-map proxy's acquire fence: its address and 128, the size.
  if (mnemonic == "fence" && operands.size() == 2 &&
      (operands[0].kind != ParsedOperand::Addr ||
       operands[1].kind != ParsedOperand::Int || operands[1].intValue != 128))
    return p.error(opTok, "'fence.proxy.tensormap::generic.acquire' takes "
                          "an address [a] and the size 128");
  // Seed 39 with --words, each form probed against ptxas ("Arguments
  // mismatch", "Vector is not expected", "Argument vector size mismatch",
  // "State space incorrect"): redux of integers takes no float bits; an
  // atomic's vector value needs .v2/.v4/.v8, a half atomic's value is a
  // register; wgmma's descriptors are 64-bit; the video instructions read
  // no predicate; a surface access moves as many values as its vector;
  // tensormap.replace writes an address; cp.async.bulk's spaces.
  if (mnemonic == "redux" && types != ArrayRef<TypeKind>{TypeKind::f32})
    for (const ParsedOperand &o : after(operands, 1))
      if (o.kind == ParsedOperand::Float)
        return p.error(o.tok,
                       "'redux' reduces integers, not the float " + o.tok.text);
  if (mnemonic == "atom" || mnemonic == "red") {
    bool half = types.size() == 1 && isHalfType(types[0]);
    for (const ParsedOperand &o : operands) {
      if (o.kind == ParsedOperand::Vec && !mods.getVec())
        return p.error(o.tok, "'" + mnemonic +
                                  "' without .v2/.v4/.v8 takes one value, "
                                  "not a vector");
      if (half && o.isLiteral())
        return p.error(o.tok, "'" + mnemonic + "." +
                                  stringifyTypeKind(types[0]) +
                                  "' takes a register, not an immediate");
    }
  }
  if (mnemonic.starts_with("wgmma.mma_async"))
    for (size_t i = 1; i < std::min<size_t>(operands.size(), 3); ++i)
      if (std::optional<TypeKind> reg = declaredType(operands[i]);
          operands[i].kind != ParsedOperand::Vec && reg &&
          (getTypeBitWidth(*reg) != 64 || typeClass(*reg) == 'f'))
        return p.error(operands[i].tok,
                       "'" + mnemonic +
                           "' takes a 64-bit matrix descriptor, not the ." +
                           stringifyTypeKind(*reg) + " register '" +
                           operands[i].name + "'");
  if (mnemonic.size() > 1 && mnemonic.front() == 'v' &&
      llvm::is_contained({"vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl",
                          "vshr", "vmad", "vset", "vavrg"},
                         mnemonic.rtrim("24")))
    for (const ParsedOperand &o : operands)
      if (std::optional<TypeKind> reg = not32(o);
          reg && o.kind != ParsedOperand::Int)
        return refuseRegister(mnemonic, o, *reg, "integer register");
  // Seed 40 with --words: prefetch and prefetch.tensormap read one
  // [address]; pmevent's event is an immediate; cp.async copies 4, 8 or 16
  // bytes, written as a number; shf and wgmma take no float bits;
  // tensormap.cp_fenceproxy copies [to], [from] of 128 bytes.
  if (mnemonic == "prefetch" &&
      (operands.size() != 1 || operands[0].kind != ParsedOperand::Addr))
    return p.error(opTok, "'prefetch' takes one address [a]");
  if (mnemonic == "pmevent" && operands.size() == 1 &&
      operands[0].kind != ParsedOperand::Int)
    return p.error(operands[0].tok, "'pmevent' takes an immediate event, "
                                    "not " +
                                        Parser::describe(operands[0].tok));
  if (mnemonic == "cp.async" && operands.size() >= 3 &&
      (operands[2].kind != ParsedOperand::Int ||
       !llvm::is_contained({4u, 8u, 16u}, operands[2].intValue)))
    return p.error(operands[2].tok, "'cp.async' copies 4, 8 or 16 bytes, "
                                    "written as a number, not " +
                                        Parser::describe(operands[2].tok));
  // (.L2::cache_hint's policy is its last operand: seed 49.)
  if (mnemonic == "cp.async" && mods.has(Flag::L2_cache_hint) &&
      operands.size() < 4)
    return p.error(opTok, "'cp.async.L2::cache_hint' takes a cache policy "
                          "after the size");
  // (shf's sources may be float bits, its shift amount not; seed 44.)
  if (mnemonic == "shf" && operands.size() == 4 &&
      operands[3].kind == ParsedOperand::Float)
    return p.error(operands[3].tok,
                   "'shf' shifts by an integer, not " + operands[3].tok.text);
  if (mnemonic.starts_with("wgmma.mma_async"))
    for (const ParsedOperand &o : after(operands, 1))
      if (o.kind == ParsedOperand::Float)
        return p.error(o.tok, "'" + mnemonic + "' takes no float literal (" +
                                  o.tok.text + ")");
  if (mnemonic == "tensormap.cp_fenceproxy" &&
      (operands.size() != 3 || operands[0].kind != ParsedOperand::Addr ||
       operands[1].kind != ParsedOperand::Addr))
    return p.error(opTok, "'tensormap.cp_fenceproxy' takes [to], [from] "
                          "and the size");
  // createpolicy writes a 64-bit policy from a fraction (.fractional),
  // an [address] and two sizes (.range) or a policy (.cvt);
  // tensormap.replace writes one value (seed 41).
  if (mnemonic == "createpolicy" && !operands.empty()) {
    bool range = hasExtra(mods, "range");
    // (The fraction is optional, 1.0: ptxas takes
    // `createpolicy.fractional.L2::evict_last.b64 %rd1`; seed 49.)
    bool fractional = hasExtra(mods, "fractional");
    if (operands.size() != (range ? 4u : 2u) &&
        !(fractional && operands.size() == 1))
      return p.error(opTok, "'createpolicy' takes " + Twine(range ? 4 : 2) +
                                " operands, not " + Twine(operands.size()));
    if (failed(requireBits(operands[0], 64,
                           "'createpolicy' writes a 64-bit policy")))
      return failure();
    // .cvt reads one, an integer's bits ("Arguments mismatch" for .b32,
    // .f64 and .b128 registers; seed 64).
    if (hasExtra(mods, "cvt") && operands.size() == 2 &&
        operands[1].kind == ParsedOperand::Float)
      return p.error(operands[1].tok, "'createpolicy.cvt' reads a 64-bit "
                                      "policy, not the float " +
                                          operands[1].tok.text);
    if (hasExtra(mods, "cvt") && operands.size() == 2)
      if (std::optional<TypeKind> reg = declaredType(operands[1]);
          reg && (getTypeBitWidth(*reg) != 64 || typeClass(*reg) == 'f'))
        return p.error(operands[1].tok,
                       "'createpolicy.cvt' reads a 64-bit policy, not the ." +
                           stringifyTypeKind(*reg) + " register '" +
                           operands[1].name + "'");
  }
  // (Seed 44: createpolicy's fraction is a float; a vector load's
  // destination a vector of its size; wgmma's scales and transposes
  // immediates; cp.reduce.async.bulk.tensor reduces into a tensor map's
  // [address].)
  // (... or an .f32 register's: seed 48.)
  if (mnemonic == "createpolicy" && operands.size() == 2 &&
      hasExtra(mods, "fractional")) {
    if (operands[1].kind == ParsedOperand::Int)
      return p.error(operands[1].tok, "'createpolicy.fractional' takes a "
                                      "float fraction, not " +
                                          operands[1].tok.text);
    // (ptxas takes the bits of a .b32 register too; the operand grid.)
    if (std::optional<TypeKind> reg = declaredType(operands[1]);
        reg && (getTypeBitWidth(*reg) != 32 || *reg == TypeKind::pred ||
                typeClass(*reg) == 's' || typeClass(*reg) == 'u'))
      return p.error(operands[1].tok,
                     "'createpolicy.fractional' takes an .f32 fraction, not "
                     "the ." +
                         stringifyTypeKind(*reg) + " register '" +
                         operands[1].name + "'");
    // A literal fraction is in (0, 1] (ptxas: "value out of range").
    if (operands[1].kind == ParsedOperand::Float) {
      const ParsedOperand &f = operands[1];
      double v = f.floatWidth == 32
                     ? double(llvm::bit_cast<float>(uint32_t(f.bits)))
                 : f.floatWidth == 64 ? llvm::bit_cast<double>(f.bits)
                                      : f.floatValue;
      if (!(v > 0 && v <= 1))
        return p.error(f.tok, "'createpolicy.fractional' takes a fraction "
                              "in (0, 1], not " +
                                  f.tok.text);
    }
  }
  // multimem: ld_reduce loads from an [address] into registers, red and
  // st write a register or an immediate to one (ptxas: "Arguments
  // mismatch", "must be register"; seed 47 with --words).
  // (Seed 49: of .global or generic addresses; ptxas: "State space
  // incorrect".)
  if (mnemonic.starts_with("multimem.") && mods.getSpace() &&
      *mods.getSpace() != StateSpace::global)
    return p.error(opTok, "'" + mnemonic + "' reaches .global memory, not ." +
                              stringifyStateSpace(*mods.getSpace()));
  if (mnemonic.starts_with("multimem.") && operands.size() == 2) {
    size_t addr = mnemonic == "multimem.ld_reduce" ? 1 : 0;
    if (failed(requireOneAddress(mnemonic, operands, addr)))
      return failure();
    // (Seed 48: the value is of the instruction's type, a literal of its
    // kind; ptxas: "Arguments mismatch".)
    // (Seed 55: a .b32 or .b64 value takes the bits of a float literal of
    // its width, 0f for .b32, 0d or a decimal one for .b64.)
    const ParsedOperand &value = operands[1 - addr];
    if (addr == 0 && mods.getTypes().size() == 1) {
      TypeKind t = mods.getTypes()[0];
      bool floatBits = value.kind == ParsedOperand::Float &&
                       typeClass(t) == 'b' &&
                       getTypeBitWidth(t) == (value.floatWidth == 32 ? 32 : 64);
      if (value.isLiteral() && !floatBits &&
          (isHalfType(t) ||
           (value.kind == ParsedOperand::Float) != isScalarFloat(t)))
        return p.error(value.tok,
                       "'" + mnemonic + "' of ." + stringifyTypeKind(t) +
                           " cannot take the immediate " + value.tok.text);
      if (std::optional<TypeKind> reg = declaredType(value);
          reg && *reg != TypeKind::pred && !registerFits(t, *reg))
        return p.error(value.tok,
                       "'" + mnemonic + "' of type ." + stringifyTypeKind(t) +
                           " cannot take the ." + stringifyTypeKind(*reg) +
                           " register '" + value.name + "'");
    }
    if (std::optional<TypeKind> reg = declaredType(value);
        reg && *reg == TypeKind::pred)
      return p.error(value.tok, "'" + mnemonic +
                                    "' takes a value, not the predicate '" +
                                    value.name + "'");
  }
  if (mnemonic == "multimem.ld_reduce" && mods.getVec() && !operands.empty() &&
      (operands[0].kind != ParsedOperand::Vec ||
       operands[0].elems.size() != mods.getVec()))
    return p.error(operands[0].tok, "'multimem.ld_reduce.v" +
                                        Twine(mods.getVec()) + "' loads " +
                                        Twine(mods.getVec()) + " values {...}");
  // wgmma's operand count (ptxas: "Arguments mismatch"; seed 47 with
  // --words): d, a, b (and .sp's metadata and selector), scale-d; the
  // float kinds' scales of A and B; and the transposes of .f16/.bf16, of
  // B alone where A is in registers.
  if (mnemonic.starts_with("wgmma.mma_async") && types.size() == 3 &&
      operands.size() >= 2) {
    using T = TypeKind;
    auto isHalf = [](T t) { return t == T::f16 || t == T::bf16; };
    auto isFloat = [&](T t) {
      return isHalf(t) || llvm::is_contained({T::tf32, T::e4m3, T::e5m2}, t);
    };
    bool halves = isHalf(types[1]), floats = isFloat(types[1]);
    // (A and B of different kinds have their own message.)
    bool oneKind = halves == isHalf(types[2]) && floats == isFloat(types[2]);
    size_t want =
        (mnemonic.ends_with(".sp") ? 6 : 4) + (floats ? 2 : 0) +
        (halves ? (operands[1].kind == ParsedOperand::Vec ? 1 : 2) : 0);
    if (oneKind && operands.size() != want)
      return p.error(opTok, "'" + mnemonic + "." + stringifyTypeKind(types[0]) +
                                "." + stringifyTypeKind(types[1]) + "' takes " +
                                Twine(want) + " operands, not " +
                                Twine(operands.size()));
    // D is a vector; scale-d a predicate or 0/1, .sp's selector 0/1, the
    // scales of A and B 1 or -1, the transposes 0/1 (ptxas: "Vector
    // expected for argument 0", "Argument 4 of instruction 'wgmma.mma_async
    // with floating point types': unexpected value '0', expected to be 1
    // or -1"; seed 47 with --words).
    if (operands[0].kind != ParsedOperand::Vec)
      return p.error(operands[0].tok, "'" + mnemonic +
                                          "' writes a vector {d, ...}, not " +
                                          Parser::describe(operands[0].tok));
    // N/2 registers of .f32/.s32, N/4 of .f16 pairs ("Argument vector size
    // mismatch"; the operand grid).
    if (mods.getShape().size() == 3) {
      int64_t want = mods.getShape()[1] / (types[0] == T::f16 ? 4 : 2);
      if (static_cast<int64_t>(operands[0].elems.size()) != want)
        return p.error(operands[0].tok, "'" + mnemonic + "' D of ." +
                                            stringifyTypeKind(types[0]) +
                                            " is " + Twine(want) +
                                            " registers, not " +
                                            Twine(operands[0].elems.size()));
    }
    size_t scaleD = mnemonic.ends_with(".sp") ? 5 : 3;
    if (scaleD < operands.size())
      if (std::optional<TypeKind> reg = declaredType(operands[scaleD]);
          reg && *reg != TypeKind::pred)
        return p.error(operands[scaleD].tok,
                       "'" + mnemonic +
                           "' scales D by a predicate or 0/1, "
                           "not the ." +
                           stringifyTypeKind(*reg) + " register '" +
                           operands[scaleD].name + "'");
    for (size_t i = scaleD == 5 ? 4 : 3; i < operands.size(); ++i) {
      const ParsedOperand &o = operands[i];
      if (o.kind != ParsedOperand::Int)
        continue;
      bool scale = floats && i > scaleD && i <= scaleD + 2;
      int64_t v = static_cast<int64_t>(o.intValue);
      if (scale ? v != 1 && v != -1 : v != 0 && v != 1)
        return p.error(o.tok, "'" + mnemonic + "' takes " +
                                  (scale ? "1 or -1" : "0 or 1") +
                                  " here, not " + o.tok.text);
    }
    // .sp's metadata is a register, its selector an immediate ("Arguments
    // mismatch"; seed 49).
    if (scaleD == 5 && operands.size() > 4) {
      if (operands[3].isLiteral())
        return p.error(operands[3].tok, "'" + mnemonic +
                                            "' takes its sparsity metadata in "
                                            "a register, not " +
                                            operands[3].tok.text);
      if (operands[4].kind != ParsedOperand::Int)
        return p.error(operands[4].tok,
                       "'" + mnemonic +
                           "' takes an immediate sparsity selector, not " +
                           Parser::describe(operands[4].tok));
    }
  }
  if (mnemonic.starts_with("wgmma.mma_async"))
    for (const ParsedOperand &o :
         after(operands, mnemonic.ends_with(".sp") ? 6 : 4))
      if (o.kind != ParsedOperand::Int)
        return p.error(o.tok, "'" + mnemonic + "' takes immediates here, not " +
                                  Parser::describe(o.tok));
  if (mnemonic == "cp.reduce.async.bulk.tensor" && !operands.empty() &&
      operands[0].kind != ParsedOperand::Addr)
    return p.error(operands[0].tok, "'cp.reduce.async.bulk.tensor' writes an "
                                    "address [a], not " +
                                        Parser::describe(operands[0].tok));
  // ... a tensor map's [map, {coordinates}], one per dimension (ptxas:
  // "Arguments mismatch", "Argument vector size"; seed 49).
  if (mnemonic == "cp.reduce.async.bulk.tensor" && !operands.empty()) {
    const ParsedOperand &map = operands[0];
    unsigned dims = hasExtra(mods, "5d")                  ? 5
                    : hasExtra(mods, "4d")                ? 4
                    : mods.getGeometry() == Geometry::g3d ? 3
                    : mods.getGeometry() == Geometry::g2d ? 2
                                                          : 1;
    if (map.elems.size() != 2 || map.elems[1].kind != ParsedOperand::Vec ||
        map.elems[1].elems.size() != dims)
      return p.error(map.tok, "'cp.reduce.async.bulk.tensor' writes a tensor "
                              "map's [map, {coordinates}] with " +
                                  Twine(dims) + " coordinates");
  }
  if (mnemonic == "tensormap.replace" && operands.size() != 2)
    return p.error(opTok, "'tensormap.replace' takes [tensor map] and a "
                          "value, not " +
                              Twine(operands.size()) + " operands");
  if ((mnemonic == "suld" || mnemonic == "sust") && operands.size() == 2) {
    const ParsedOperand &values = operands[mnemonic == "suld" ? 0 : 1];
    size_t n = values.kind == ParsedOperand::Vec ? values.elems.size() : 1;
    unsigned want = std::max(1u, mods.getVec());
    if (n != want)
      return p.error(values.tok,
                     "'" + mnemonic +
                         (mods.getVec() ? ".v" + Twine(mods.getVec()) : "") +
                         "' moves " + Twine(want) + " value" +
                         (want == 1 ? "" : "s") + ", not " + Twine(n));
  }
  if (mnemonic == "tensormap.replace" && !operands.empty() &&
      operands[0].kind != ParsedOperand::Addr)
    return p.error(operands[0].tok,
                   "'tensormap.replace' writes an address [a], not " +
                       Parser::describe(operands[0].tok));
  // (Seed 55: a tensor map in .global or this CTA's .shared::cta, ptxas
  // "State space incorrect" for .shared and .shared::cluster.)
  if (mnemonic == "tensormap.replace" && mods.getSpace() &&
      *mods.getSpace() != StateSpace::global &&
      *mods.getSpace() != StateSpace::shared_cta)
    return p.error(opTok, "'tensormap.replace' writes a tensor map in "
                          ".global or .shared::cta memory, not ." +
                              stringifyStateSpace(*mods.getSpace()));
  // (Its mbarrier completes a copy into shared memory; a bulk group's
  // copies go to .global; seed 40.)
  if (mnemonic == "cp.async.bulk" && mods.getSpaces().size() == 1)
    return p.error(opTok, "'cp.async.bulk' names two state spaces "
                          "(destination, source)");
  if (mnemonic == "cp.async.bulk" && mods.getSpaces().size() == 2) {
    StateSpace dst = mods.getSpaces()[0], src = mods.getSpaces()[1];
    if (mods.has(Flag::mbarrier_complete_tx_bytes) ==
        (dst == StateSpace::global))
      return p.error(opTok, dst == StateSpace::global
                                ? "'cp.async.bulk' into .global completes "
                                  "as a .bulk_group"
                                : "'cp.async.bulk' into shared memory "
                                  "completes on an mbarrier "
                                  "(.mbarrier::complete_tx::bytes)");
    bool sharedDst =
        dst == StateSpace::shared_cluster || dst == StateSpace::shared_cta;
    bool fits =
        (sharedDst && src == StateSpace::global) ||
        (dst == StateSpace::shared_cluster && src == StateSpace::shared_cta) ||
        (dst == StateSpace::global && src == StateSpace::shared_cta);
    if (!fits)
      return p.error(opTok, "'cp.async.bulk' copies .global into "
                            ".shared::cta/.shared::cluster, .shared::cta into "
                            ".shared::cluster or .global; not ." +
                                stringifyStateSpace(src) + " into ." +
                                stringifyStateSpace(dst));
  }
  // match compares values, not predicates.
  if (mnemonic == "match" && operands.size() >= 2 &&
      declaredType(operands[1]) == TypeKind::pred)
    return p.error(operands[1].tok, "'match' compares values, not the "
                                    "predicate '" +
                                        operands[1].name + "'");
  // ldmatrix reads and stmatrix writes an address [a].
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") &&
      operands.size() == 2) {
    const ParsedOperand &a = operands[mnemonic == "ldmatrix" ? 1 : 0];
    if (a.kind != ParsedOperand::Addr)
      return p.error(a.tok, "'" + mnemonic +
                                "' takes an address [a] here, "
                                "not " +
                                Parser::describe(a.tok));
  }
  // Pairs of 16-bit integers are registers, of a 32-bit integer kind.
  if (types.size() == 1 &&
      (types[0] == TypeKind::s16x2 || types[0] == TypeKind::u16x2))
    for (const ParsedOperand &o : operands) {
      if (o.isLiteral() || not32(o))
        return p.error(o.tok, "'" + mnemonic + "' of ." +
                                  stringifyTypeKind(types[0]) +
                                  " takes 32-bit integer registers, not " +
                                  Parser::describe(o.tok));
    }
  // cp.async: a 32-bit source size; a fifth operand is the cache policy of
  // .L2::cache_hint.
  if (mnemonic == "cp.async") {
    if (operands.size() == 5 && !mods.has(Flag::L2_cache_hint))
      return p.error(operands[4].tok, "'cp.async' takes a fifth operand, a "
                                      "cache policy, with .L2::cache_hint "
                                      "only");
    size_t policy = mods.has(Flag::L2_cache_hint) ? operands.size() - 1 : 99;
    for (size_t i = 2; i < operands.size(); ++i) {
      if (i == policy)
        continue;
      if (std::optional<TypeKind> reg = not32(operands[i]))
        return refuseRegister(mnemonic, operands[i], *reg,
                              i == 2 ? "copy size" : "source size");
      // (Nor a float's bits: "Arguments mismatch"; seed 66.)
      if (operands[i].kind == ParsedOperand::Float)
        return p.error(operands[i].tok, "'cp.async' takes an integer " +
                                            Twine(i == 2 ? "copy" : "source") +
                                            " size, not " +
                                            operands[i].tok.text);
    }
  }
  if (mnemonic == "cp.async" && operands.size() >= 2 &&
      operands[1].kind != ParsedOperand::Addr)
    return p.error(operands[1].tok,
                   "'cp.async' reads an address [a] here, not " +
                       Parser::describe(operands[1].tok));
  if (mnemonic == "tex" && mods.getVec() && !operands.empty() &&
      operands[0].kind != ParsedOperand::Vec &&
      operands[0].kind != ParsedOperand::Pair)
    return p.error(operands[0].tok, "'tex.v" + Twine(mods.getVec()) +
                                        "' writes a vector {...}, not " +
                                        Parser::describe(operands[0].tok));
  // redux reduces integers but in its .f32 forms: no float register for
  // the others (.b32 included).
  if (mnemonic == "redux" && operands.size() >= 2 &&
      types != ArrayRef<TypeKind>{TypeKind::f32})
    if (std::optional<TypeKind> reg = declaredType(operands[1]);
        reg && typeClass(*reg) == 'f')
      return p.error(operands[1].tok, "'redux' reduces integers, not the ." +
                                          stringifyTypeKind(*reg) +
                                          " register '" + operands[1].name +
                                          "'");
  // isspacep tests an address, an integer, into a predicate.
  if (mnemonic == "isspacep" && operands.size() == 2) {
    if (failed(requirePredicate(mnemonic, operands[0], "writes")))
      return failure();
    TypeKind reg = declaredType(operands[1]).value_or(TypeKind::b64);
    char cls = typeClass(reg);
    if (operands[1].kind == ParsedOperand::Float || cls == 'f' || cls == 'p' ||
        reg == TypeKind::b128)
      return p.error(operands[1].tok, "'isspacep' tests an integer address, "
                                      "not " +
                                          Parser::describe(operands[1].tok));
  }
  // mma.sync's four fragments are each a {...} of registers: of D, A, B
  // and C, 32 bits of elements per lane a register (f64 one each; m8n8k4's
  // f16 quad pairs more).
  // (The block-scaled .kind:: forms name a scale's type and pack 6- and
  // 4-bit types.)
  bool kind =
      mods.getExtras() && llvm::any_of(mods.getExtras(), [](Attribute e) {
        return cast<StringAttr>(e).getValue().starts_with("kind::");
      });
  if (mnemonic == "mma") {
    for (const ParsedOperand &o : operands)
      if (o.kind != ParsedOperand::Vec)
        return p.error(o.tok, "'mma' takes fragments {...}, not " +
                                  Parser::describe(o.tok));
    ArrayRef<int64_t> shape = mods.getShape();
    // Four fragments, no comparison, cache operator or reduction, a
    // rounding for .f64 only (ptxas: "Arguments mismatch", "Comparison
    // qualifier is not allowed", "Illegal rounding modifier"; seeds 3, 32).
    if (operands.size() != 4)
      return p.error(opTok, "'mma' takes four fragments (D, A, B, C), not " +
                                Twine(operands.size()));
    // (Words it does not know are kept as extras: `.hs`, `.cg`, `.add`;
    // .and/.xor with .popc are its single-bit forms'.)
    if (ArrayAttr extras = mods.getExtras())
      for (Attribute e : extras)
        if (StringRef w = cast<StringAttr>(e).getValue();
            symbolizeCmpOp(w) || symbolizeCacheOp(w) ||
            llvm::is_contained(
                {"add", "min", "max", "inc", "dec", "cas", "exch"}, w))
          return p.error(opTok, "'mma' has no qualifier ." + w);
    if (mods.getRounding() && (types.empty() || types[0] != TypeKind::f64))
      return p.error(opTok, "'mma' rounds .f64 only");
    // D's, A's, B's and C's types (ptxas: "Unexpected instruction types
    // specified for 'mma'"; seed 25); block-scaled kinds add the scale's.
    if (!kind && types.size() != 4)
      return p.error(opTok, "'mma' names four types (D, A, B, C), not " +
                                Twine(types.size()));
    // (Of the matrix types only; seed 46.)
    if (!kind)
      for (TypeKind t : types)
        if (!isMatrixType(t))
          return p.error(opTok, "'mma' has no type ." + stringifyTypeKind(t));
    // A's and B's layouts, both written (ptxas: "'.blayout' modifier
    // required"; seed 40).
    if (ArrayAttr extras = mods.getExtras();
        !kind &&
        llvm::count_if(extras ? extras.getValue() : ArrayRef<Attribute>(),
                       [](Attribute e) {
                         StringRef w = cast<StringAttr>(e).getValue();
                         return w == "row" || w == "col";
                       }) != 2)
      return p.error(opTok, "'mma' needs A's and B's layouts (.row.col)");
    // ... A row-major and B column-major, but in .m8n8k4's .f16 (ptxas:
    // "Illegal alayout '.col' for instruction 'mma'"; seed 68).
    if (!kind && types.size() == 4 &&
        !(shape == ArrayRef<int64_t>{8, 8, 4} && types[1] == TypeKind::f16) &&
        failed(requireRowCol(opTok, mnemonic, mods)))
      return failure();
    // A and B of one float type (the 8-bit floats may differ; seed 38).
    if (types.size() == 4 &&
        llvm::is_contained(
            {TypeKind::f16, TypeKind::bf16, TypeKind::tf32, TypeKind::f64},
            types[1]) &&
        types[2] != types[1])
      return p.error(opTok, "'mma' multiplies ." + stringifyTypeKind(types[1]) +
                                " by ." + stringifyTypeKind(types[1]) +
                                ", not ." + stringifyTypeKind(types[2]));
    if (types.size() == 4 && shape.size() == 3 && !kind &&
        llvm::all_of(types, isMatrixType) &&
        failed(checkMmaTypes(opTok, mnemonic, types, shape)))
      return failure();
    if (operands.size() == 4 && types.size() == 4 && shape.size() == 3 &&
        !kind && llvm::all_of(types, isMatrixType) &&
        failed(checkMmaFragments(mnemonic, types, shape, operands)))
      return failure();
  }
  // mma.sp's four fragments: as mma's, A half as wide (the operand grid);
  // their four types (seed 64).
  if (mnemonic == "mma.sp" && !kind &&
      failed(requireRowCol(opTok, mnemonic, mods)))
    return failure();
  if (mnemonic == "mma.sp" && !kind && types.size() != 4)
    return p.error(opTok, "'mma.sp' names four types (D, A, B, C), not " +
                              Twine(types.size()));
  if (mnemonic == "mma.sp" && !kind)
    for (TypeKind t : types)
      if (!isMatrixType(t))
        return p.error(opTok, "'mma.sp' has no type ." + stringifyTypeKind(t));
  if (mnemonic == "mma.sp" && !kind && types.size() == 4 &&
      mods.getShape().size() == 3 && llvm::all_of(types, isMatrixType) &&
      failed(checkMmaTypes(opTok, mnemonic, types, mods.getShape())))
    return failure();
  if (mnemonic == "mma.sp" && !kind && operands.size() >= 4 &&
      types.size() == 4 && mods.getShape().size() == 3 &&
      llvm::all_of(operands.take_front(4),
                   [](const ParsedOperand &o) {
                     return o.kind == ParsedOperand::Vec;
                   }) &&
      failed(checkMmaFragments(mnemonic, types, mods.getShape(),
                               operands.take_front(4))))
    return failure();
  // Its sparsity selector picks the threads that hold the metadata: 0-3
  // for halves and .m16n8k8's .tf32, 0-1 for .m16n8k16's .tf32, 8-bit
  // types' .m16n8k32 and 4-bit types' .m16n8k64, 0 for the widest K (the
  // operand grid; each type and shape probed on sm_90a, ptxas "Arguments
  // mismatch").
  if (mnemonic == "mma.sp" && !kind && operands.size() == 6 &&
      types.size() == 4 && mods.getShape().size() == 3 &&
      operands[5].kind == ParsedOperand::Int) {
    TypeKind a = types[1];
    int64_t k = mods.getShape()[2];
    unsigned bits = a == TypeKind::tf32 ? 32 : getTypeBitWidth(a);
    // The narrower K of each element width admits more selectors.
    int64_t narrowK = bits == 32 ? 8 : bits == 8 ? 32 : 64;
    uint64_t most = bits == 16   ? 3
                    : bits == 32 ? (k == narrowK ? 3 : 1)
                                 : (k == narrowK ? 1 : 0);
    if (operands[5].intValue > most)
      return p.error(operands[5].tok,
                     "'mma.sp' of ." + stringifyTypeKind(a) + " and K " +
                         Twine(k) + " takes the sparsity selector 0" +
                         (most ? "-" + Twine(most) : Twine("")) + ", not " +
                         operands[5].tok.text);
  }
  // ldmatrix and stmatrix move .b16 (and sm_100's .b8) matrices.
  if ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") && types.size() == 1 &&
      (isHalfType(types[0]) || typeClass(types[0]) == 's' ||
       typeClass(types[0]) == 'u' || typeClass(types[0]) == 'f'))
    return p.error(opTok, "'" + mnemonic + "' has no type ." +
                              stringifyTypeKind(types[0]) + " (.b16)");
  // cp.async copies .global into .shared.
  if (mnemonic == "cp.async" && mods.getSpaces().size() == 2 &&
      (spaceFamily(mods.getSpaces()[0]) != StateSpace::shared ||
       mods.getSpaces()[1] != StateSpace::global))
    return p.error(opTok, "'cp.async' copies .global into .shared, not ." +
                              stringifyStateSpace(mods.getSpaces()[1]) +
                              " into ." +
                              stringifyStateSpace(mods.getSpaces()[0]));
  // vote and shfl without .sync are not PTX for sm_70 and later from PTX
  // ISA 6.4 on (ptxas: "Instruction 'vote' without '.sync' is not
  // supported on .target sm_70 and higher from PTX ISA version 6.4").
  if ((mnemonic == "vote" || mnemonic == "shfl") && !mods.has(Flag::sync) &&
      p.smTarget && p.smTarget->sm >= 70 && p.ptxVersion >= 64)
    return p.error(opTok, "'" + mnemonic +
                              "' without .sync is not PTX for sm_70 and "
                              "later from .version 6.4 on (write '" +
                              mnemonic + ".sync')");
  // The waits name how many groups may stay pending, as a literal; a
  // commit and wait_all take nothing (ptxas: "Arguments mismatch"; the
  // differential fuzzer, seed 16).
  bool groupWait = mnemonic == "cp.async.wait_group" ||
                   mnemonic == "cp.async.bulk.wait_group";
  if (groupWait && operands.size() != 1)
    return p.error(opTok, "'" + mnemonic +
                              "' takes one operand, the groups left pending, "
                              "not " +
                              Twine(operands.size()));
  if (groupWait && operands[0].kind != ParsedOperand::Int)
    return p.error(operands[0].tok, "'" + mnemonic +
                                        "' takes a literal group count, not " +
                                        Parser::describe(operands[0].tok));
  if (llvm::is_contained({"cp.async.commit_group", "cp.async.wait_all",
                          "cp.async.bulk.commit_group"},
                         mnemonic) &&
      !operands.empty())
    return p.error(operands[0].tok, "'" + mnemonic + "' takes no operands");
  // popc, clz and bfind count into a 32-bit integer whatever they read;
  // lop3 combines 32-bit registers (a float one will do) by a literal
  // table (ptxas: "Arguments mismatch"; the differential fuzzer, seed 16).
  if (llvm::is_contained({"popc", "clz", "bfind"}, mnemonic) &&
      !operands.empty())
    if (std::optional<TypeKind> reg = not32(operands[0]))
      return refuseRegister(mnemonic, operands[0], *reg, "count");
  if (mnemonic == "lop3") {
    for (size_t i = 0; i < std::min<size_t>(operands.size(), 4); ++i)
      if (std::optional<TypeKind> reg = not32(operands[i], /*floats=*/true);
          reg && *reg != TypeKind::pred)
        return refuseRegister(mnemonic, operands[i], *reg,
                              i ? "source" : "result");
    if (operands.size() >= 5 && operands[4].kind != ParsedOperand::Int)
      return p.error(operands[4].tok,
                     "'lop3' takes a literal lookup table, not " +
                         Parser::describe(operands[4].tok));
  }
  // Atomics on halves say they do not flush subnormals (.noftz), and only
  // they do (ptxas: "'.noftz' modifier required for instruction 'atom'
  // with type '.f16x2'", "Illegal modifier '.noftz'"; seed 16).
  if ((mnemonic == "atom" || mnemonic == "red") && types.size() == 1 &&
      isHalfType(types[0]) != mods.has(Flag::noftz))
    return p.error(
        opTok,
        "'" + mnemonic + "' of ." + stringifyTypeKind(types[0]) +
            (isHalfType(types[0]) ? " needs .noftz" : " takes no .noftz"));
  // atom and red are never .volatile (ptxas: "Illegal modifier").
  if ((mnemonic == "atom" || mnemonic == "red") && mods.has(Flag::volatile_))
    return p.error(opTok, "'" + mnemonic + "' takes no .volatile");
  // A non-coherent load caches as .ca, .cg or .cs (ptxas: "Illegal cache
  // operation for instruction 'ld.nc'").
  if (mnemonic == "ld" && mods.has(Flag::nc))
    if (std::optional<CacheOp> c = mods.getCache();
        c && *c != CacheOp::ca && *c != CacheOp::cg && *c != CacheOp::cs)
      return p.error(opTok, "'ld.nc' caches as .ca, .cg or .cs, not ." +
                                stringifyCacheOp(*c));
  // bfe's and bfi's position and length: an immediate is 0 to 255.
  if ((mnemonic == "bfe" || mnemonic == "bfi") && !operands.empty()) {
    size_t pos = mnemonic == "bfe" ? 2 : 3;
    for (size_t i = pos; i < std::min(operands.size(), pos + 2); ++i)
      if (operands[i].kind == ParsedOperand::Int && operands[i].intValue > 255)
        return p.error(operands[i].tok,
                       "'" + mnemonic + "' " +
                           (i == pos ? "position " : "length ") +
                           Twine(static_cast<int64_t>(operands[i].intValue)) +
                           " is out of range (0 to 255)");
  }
  // The barrier object's instructions are of type .b64 and the others'
  // operands have one order (ptxas: "Unexpected instruction types
  // specified", "Arguments mismatch"; the differential fuzzer, seeds 13 and
  // 15): init, expect_tx and complete_tx an address and a count, inval an
  // address, arrive and arrive_drop a state (or `_`), the address and a
  // count (which .expect_tx needs), pending_count a count and a state.
  if (mnemonic.starts_with("mbarrier.")) {
    ArrayRef<TypeKind> types = mods.getTypes();
    if (types.size() != 1 || types[0] != TypeKind::b64)
      return p.error(opTok, "'" + mnemonic + "' is of type .b64");
    bool expectTx = llvm::is_contained(spelledModifiers(mnemonic), "expect_tx");
    StringRef what = mnemonic.drop_front(strlen("mbarrier."));
    // 'A' an address, 'C' a 32-bit count, 'S' a 64-bit state, 'D' a state
    // written (or `_`).
    auto fits = [&](const ParsedOperand &o, char kind) {
      if (kind == 'A')
        return o.kind == ParsedOperand::Addr;
      if (kind == 'D' && o.kind == ParsedOperand::Sink)
        return true;
      // (ptxas takes an immediate state for pending_count: seed 48.)
      if ((kind == 'C' || kind == 'S') && o.kind == ParsedOperand::Int)
        return true;
      if (o.kind != ParsedOperand::Name)
        return false;
      std::optional<TypeKind> reg = declaredType(o);
      unsigned want = kind == 'C' ? 32 : 64;
      return !reg || (typeClass(*reg) && typeClass(*reg) != 'f' &&
                      typeClass(*reg) != 'p' && getTypeBitWidth(*reg) == want);
    };
    auto matches = [&](StringRef form) {
      return operands.size() == form.size() &&
             llvm::all_of(llvm::seq<size_t>(0, form.size()),
                          [&](size_t i) { return fits(operands[i], form[i]); });
    };
    auto refuse = [&](StringRef shape) {
      return p.error(opTok, "'" + mnemonic + (expectTx ? ".expect_tx" : "") +
                                "' takes " + shape);
    };
    if (llvm::is_contained({"init", "expect_tx", "complete_tx"}, what) &&
        !matches("AC"))
      return refuse("[address] and a 32-bit count");
    if (what == "inval" && !matches("A"))
      return refuse("[address] only");
    if ((what == "arrive" || what == "arrive_drop") && !matches("DAC") &&
        (expectTx || !matches("DA")))
      return refuse(expectTx ? "a 64-bit state (or _), [address] and a "
                               "32-bit transaction count"
                             : "a 64-bit state (or _), [address] and an "
                               "optional 32-bit count");
    if (what == "pending_count" && !matches("CS"))
      return refuse("a 32-bit count and a 64-bit state");
  }
  // The mbarrier waits: a predicate, the address and the phase, a .b64
  // state or a 32-bit parity; try_wait a 32-bit time limit besides.
  if (mnemonic == "mbarrier.test_wait" || mnemonic == "mbarrier.try_wait") {
    bool tryWait = mnemonic == "mbarrier.try_wait";
    bool parity = mods.has(Flag::parity);
    if (operands.size() < 3 || operands.size() > (tryWait ? 4u : 3u))
      return p.error(opTok,
                     "'" + mnemonic + "' takes a predicate, an " +
                         "address and a " + (parity ? "parity" : "state") +
                         (tryWait ? " (and a time limit)" : "") + ", not " +
                         Twine(operands.size()) + " operands");
    if (failed(requirePredicate(mnemonic, operands[0], "writes")))
      return failure();
    for (size_t i = 2; i < operands.size(); ++i) {
      unsigned want = i == 2 && !parity ? 64 : 32;
      if (std::optional<TypeKind> reg = declaredType(operands[i]);
          reg && (*reg == TypeKind::pred || typeClass(*reg) == 'f' ||
                  getTypeBitWidth(*reg) != want))
        return p.error(operands[i].tok,
                       "'" + mnemonic + "' takes a " + Twine(want) + "-bit " +
                           (i == 3   ? "time limit"
                            : parity ? "parity"
                                     : "state") +
                           ", not the ." + stringifyTypeKind(*reg) +
                           " register '" + operands[i].name + "'");
    }
  }
  return success();
}

LogicalResult
FunctionBuilder::emitInstruction(const Token &opTok, StringRef mnemonic,
                                 const InstSpec &spec, ModifiersAttr mods,
                                 MutableArrayRef<ParsedOperand> operands) {
  // Addresses, vectors, sinks, negations, variables only where the
  // instruction takes them.
  if (failed(checkOperandKinds(mnemonic, spec, mods, operands)))
    return failure();
  SmallVector<const ParsedOperand *> dests;
  size_t firstSrc = 0;
  if (spec.hasDest()) {
    if (operands.empty())
      return p.error(opTok, "'" + mnemonic + "' expects a destination operand");
    const ParsedOperand &d = operands.front();
    if (d.kind == ParsedOperand::Vec || d.kind == ParsedOperand::Pair)
      for (const ParsedOperand &e : d.elems)
        dests.push_back(&e);
    else
      dests.push_back(&d);
    firstSrc = 1;
  }
  // ld/ldu/st: one address, written `[a]`, where ptxas wants it (the
  // destination's or the value's place swapped, dropped or doubled is
  // refused), and besides it the value and an optional cache policy.
  bool load = mnemonic == "ld" || mnemonic == "ldu", store = mnemonic == "st";
  // atom/red: `[a]`, the operand, cas's second one, and a cache policy.
  bool atomic = mnemonic == "atom" || mnemonic == "red";
  if (load || store || atomic) {
    size_t addr = load || atomic ? firstSrc : 0;
    size_t values = atomic  ? (mods.getRedOp() == ReduceOp::cas ? 2 : 1)
                    : store ? 1
                            : 0;
    // (The cache policy of .L2::cache_hint is not optional: seeds 38 and
    // 46, --words; one without it is the verifier's to refuse.)
    bool policy = mods.has(Flag::L2_cache_hint);
    size_t minOperands = addr + 1 + values + (policy ? 1 : 0);
    size_t maxOperands = minOperands + (atomic || policy ? 0 : 1);
    if (failed(requireOneAddress(mnemonic, operands, addr)))
      return failure();
    if (operands.size() < minOperands || operands.size() > maxOperands)
      return p.error(opTok, "'" + mnemonic + "' takes " +
                                Twine(minOperands - firstSrc) +
                                (maxOperands > minOperands
                                     ? " or " + Twine(maxOperands - firstSrc)
                                     : Twine()) +
                                " source operands, not " +
                                Twine(operands.size() - firstSrc));
  }
  // Register operands of the instruction's own type, as ptxas checks them:
  // for each op, whether its destination and how many leading sources
  // (-1: all) have the instruction type.
  if (mods.getTypes().size() == 1 && mods.getMode() != Mode::wide) {
    TypeKind inst = mods.getTypes()[0];
    int sources = 0;
    bool dest = true;
    // (addc, subc: the differential fuzzer, seed 33.)
    // (cnot, bmsk, szext: seed 51 with --words.)
    if (llvm::is_contained(
            {"cnot", "bmsk",  "szext", "add",      "sub", "min", "max",
             "and",  "or",    "xor",   "not",      "neg", "abs", "addc",
             "subc", "div",   "rem",   "copysign", "fma", "mad", "mul",
             "sqrt", "rsqrt", "rcp",   "sin",      "cos", "lg2", "ex2",
             "tanh", "mov",   "mul24", "mad24",    "sad", "madc"},
            mnemonic))
      sources = -1;
    else if (mnemonic == "selp")
      sources = 2;
    else if (mnemonic == "setp")
      sources = 2, dest = false;
    else if (llvm::is_contained({"popc", "clz", "bfind", "testp"}, mnemonic))
      sources = 1, dest = false;
    else if (mnemonic == "redux")
      sources = 1;
    // (nanosleep's time: seed 47 with --words.)
    else if (mnemonic == "nanosleep")
      sources = 1;
    auto check = [&](const ParsedOperand &o) -> LogicalResult {
      // Literals: none of the other kind, none at all for 16-bit floats
      // and their pairs.
      if (o.isLiteral())
        return checkLiteral(o, mnemonic, inst, inst, /*noHalves=*/true);
      std::optional<TypeKind> reg = declaredType(o);
      if (!reg || registerFits(inst, *reg))
        return success();
      return p.error(o.tok, "'" + mnemonic + "' of type ." +
                                stringifyTypeKind(inst) + " cannot take the ." +
                                stringifyTypeKind(*reg) + " register '" +
                                o.name + "'");
    };
    if (sources && dest && firstSrc == 1 && failed(check(operands.front())))
      return failure();
    for (size_t i = firstSrc; i < operands.size(); ++i) {
      if (sources >= 0 && i - firstSrc >= static_cast<size_t>(sources))
        break;
      if (failed(check(operands[i])))
        return failure();
    }
  }
  // The other register operands ptxas types (its "Arguments mismatch",
  // found with ptxas on one register type an operand at a time): shifts'
  // value and amount (a 32-bit integer), .wide's doubled destination, the
  // values of atom/red and cvta's address, exactly; the values of ld/ldu/st
  // loosely (a wider register will do, of an integer kind for .s/.u, a
  // float of the same size or a .b for a float type).
  if (mods.getTypes().size() == 1) {
    TypeKind inst = mods.getTypes()[0];
    auto holds = [&](TypeKind reg) {
      char i = typeClass(inst), r = typeClass(reg);
      if (!i || !r)
        return true;
      if (r == 'p')
        return false;
      unsigned iw = getTypeBitWidth(inst), rw = getTypeBitWidth(reg);
      if (i == 'f')
        return (r == 'f' && rw == iw) || (r == 'b' && rw >= iw);
      if (i == 's' || i == 'u')
        return r != 'f' && rw >= iw;
      return rw >= iw;
    };
    // A predicate register in shl/shr/cvta/st/ld has its own message below
    // (and in the op's verifier).
    bool predLater =
        llvm::is_contained({"shl", "shr", "cvta", "st", "ld", "ldu"}, mnemonic);
    auto refuse = [&](const ParsedOperand &o, TypeKind reg) -> LogicalResult {
      if (predLater && reg == TypeKind::pred)
        return success();
      return p.error(o.tok, "'" + mnemonic + "' of type ." +
                                stringifyTypeKind(inst) + " cannot take the ." +
                                stringifyTypeKind(reg) + " register '" +
                                o.name + "'");
    };
    // `want` the type an exact operand has; loose: `holds`.
    auto checkOne = [&](const ParsedOperand &o, TypeKind want,
                        bool loose) -> LogicalResult {
      // A vector by its first element: ptxas takes `st.v2.u32 [a], {%r1,
      // %f1}` (the elements only need one size) but not `ld.v2.u8 {%f1,
      // %f2}`.
      if (o.kind == ParsedOperand::Vec) {
        if (o.elems.empty())
          return success();
        const ParsedOperand &e = o.elems.front();
        std::optional<TypeKind> reg = declaredType(e);
        if (reg && !(loose ? holds(*reg) : registerFits(want, *reg)))
          return refuse(e, *reg);
        return success();
      }
      // A literal value of the other kind (st.f32 of an integer, st.u32 of
      // a float; exactly typed operands: mul.wide's sources, a shift's
      // amount, atom's value, cvta's address, bfe/bfi's positions).
      if (o.isLiteral())
        return checkLiteral(o, mnemonic, inst, loose ? inst : want,
                            /*noHalves=*/false);
      std::optional<TypeKind> reg = declaredType(o);
      if (reg && !(loose ? holds(*reg) : registerFits(want, *reg)))
        return refuse(o, *reg);
      return success();
    };
    auto doubled = [&]() -> std::optional<TypeKind> {
      switch (inst) {
      case TypeKind::s16:
        return TypeKind::s32;
      case TypeKind::u16:
        return TypeKind::u32;
      case TypeKind::s32:
        return TypeKind::s64;
      case TypeKind::u32:
        return TypeKind::u64;
      default:
        return std::nullopt;
      }
    };
    auto check = [&](size_t i, TypeKind want, bool loose) {
      return i < operands.size() ? checkOne(operands[i], want, loose)
                                 : success();
    };
    LogicalResult ok = success();
    if (mnemonic == "shl" || mnemonic == "shr") {
      ok = check(0, inst, false);
      if (succeeded(ok))
        ok = check(1, inst, false);
      if (succeeded(ok))
        ok = check(2, TypeKind::u32, false);
    } else if ((mnemonic == "mul" || mnemonic == "mad") &&
               mods.getMode() == Mode::wide && doubled()) {
      ok = check(0, *doubled(), false);
      for (size_t i = 1; succeeded(ok) && i < 3; ++i)
        ok = check(i, inst, false);
      if (succeeded(ok) && mnemonic == "mad")
        ok = check(3, *doubled(), false);
    } else if (atomic) {
      for (size_t i = 0; succeeded(ok) && i < operands.size(); ++i)
        if (operands[i].kind != ParsedOperand::Addr &&
            !(i + 1 == operands.size() && mods.has(Flag::L2_cache_hint)))
          ok = check(i, inst, false);
    } else if (mnemonic == "cvta") {
      ok = check(0, inst, false);
      if (succeeded(ok))
        ok = check(1, inst, false);
    } else if (mnemonic == "bfe" || mnemonic == "bfi") {
      // bfe d, a, pos, len; bfi d, a, b, pos, len: positions are .u32.
      size_t values = mnemonic == "bfe" ? 2 : 3;
      for (size_t i = 0; succeeded(ok) && i < operands.size(); ++i)
        ok = check(i, i < values ? inst : TypeKind::u32, false);
    } else if (load || store) {
      ok = check(load ? 0 : 1, inst, true);
    }
    if (failed(ok))
      return failure();
  }
  // Operand shapes ptxas checks ("Arguments mismatch", "Result vector
  // expected", "Argument vector size mismatch", "Barrier number out of
  // range"; found by the ptxas differential fuzzer, each case and the valid
  // forms checked against ptxas, sm_90).
  if (failed(checkOperandShapes(opTok, mnemonic, mods, operands, load, store)))
    return failure();
  if (failed(checkOperandForms(opTok, mnemonic, mods, operands)) ||
      failed(checkTypeAndFlagRules(opTok, mnemonic, mods, operands)))
    return failure();
  if (mnemonic.starts_with("wmma.") &&
      failed(checkWmmaForms(opTok, mnemonic, mods, operands)))
    return failure();
  if (failed(checkModifiers(opTok, mnemonic, mods)))
    return failure();
  // The words kept verbatim and the memory barriers' forms (ptxas:
  // "Unknown modifier '.foo'", "Membar level required"; found probing the
  // instructions that keep words, after the differential fuzzer's seed 37).
  if (std::optional<std::string> why = checkExtraWords(mnemonic, mods))
    return p.error(opTok, *why);
  if (std::optional<std::string> why = checkBarrierForms(
          mnemonic, mods, spelledModifiers(mnemonic), p.ptxVersion))
    return p.error(opTok, *why);
  if (llvm::is_contained({"tex", "suld", "sust", "sured"}, mnemonic) &&
      failed(checkTextureSurface(opTok, mnemonic, mods, operands)))
    return failure();
  // Qualifiers ptxas pairs (found by the ptxas differential fuzzer): atom
  // and red need an operation ("Illegal operation"); .nc is for .global
  // loads only; .param takes no ordering or .volatile; a load's or store's
  // ordering needs a scope and a scope an ordering.
  if (atomic && !mods.getRedOp())
    return p.error(opTok, "'" + mnemonic +
                              "' needs an operation (.add, .exch, .cas...)");
  // (Seed 55: ptxas "Reduction operation is required", "Unexpected
  // instruction types specified" for a bulk reduction without its
  // operation or its type; "Not a name of any known instruction:
  // 'setmaxnreg'" without .inc or .dec, "Illegal reduction operation" with
  // both.)
  if (mnemonic.starts_with("cp.reduce.async.bulk") && !mods.getRedOp())
    return p.error(opTok, "'" + mnemonic +
                              "' needs its operation (.add, .min, .and...)");
  if (mnemonic == "cp.reduce.async.bulk" && mods.getTypes().empty())
    return p.error(opTok, "'cp.reduce.async.bulk' needs the type it reduces");
  if (mnemonic == "setmaxnreg" &&
      hasExtra(mods, "inc") == hasExtra(mods, "dec"))
    return p.error(opTok, "'setmaxnreg' takes one of .inc and .dec");
  if (load || store) {
    std::optional<StateSpace> space = mods.getSpace();
    bool param = space && spaceFamily(*space) == StateSpace::param;
    std::optional<MemSemantics> sem = mods.getSem();
    bool ordered = sem && *sem != MemSemantics::weak;
    if (mods.has(Flag::nc) && !(space && *space == StateSpace::global))
      return p.error(opTok, "'" + mnemonic + ".nc' reads .global memory only");
    if (mods.has(Flag::nc) && mods.has(Flag::volatile_))
      return p.error(opTok, "'" + mnemonic +
                                ".nc' reads memory that does not change: "
                                "not .volatile");
    // (ptxas: "Modifier '.relaxed' cannot be combined with modifier '.nc'",
    // .weak too; the flag grid's ld.relaxed row.)
    if (mods.has(Flag::nc) && sem)
      return p.error(opTok, "'" + mnemonic +
                                ".nc' reads memory that does not change: "
                                "no ordering (." +
                                stringifyMemSemantics(*sem) + ")");
    // (.local and .const: the differential fuzzer, seed 21; ptxas:
    // "Modifier '.acquire' cannot be applied to '.local' space".)
    bool unshared =
        space && (*space == StateSpace::local || *space == StateSpace::const_);
    if ((param || unshared) && (ordered || mods.has(Flag::volatile_)))
      return p.error(opTok,
                     "'" + mnemonic + "' of ." + stringifyStateSpace(*space) +
                         " takes no " +
                         (ordered ? "." + stringifyMemSemantics(*sem).str()
                                  : std::string(".volatile")));
    if (ordered && !mods.getScope())
      return p.error(opTok, "'" + mnemonic + "." + stringifyMemSemantics(*sem) +
                                "' needs a scope (.cta, .cluster, .gpu, .sys)");
    if (!ordered && mods.getScope())
      return p.error(opTok, "'" + mnemonic +
                                "' with a scope needs an "
                                "ordering (.relaxed, " +
                                (store ? ".release" : ".acquire") + ")");
    // (Found by the ptxas differential fuzzer, seed 3; checked against
    // ptxas, sm_80: "Modifier '.volatile' cannot be combined with modifier
    // '.cs'", "Modifier '.evict_last' cannot be applied to '.shared'
    // space", "State space incorrect for feature 'cache prefetching'",
    // "Illegal modifier '.L2::128B' for instruction 'st'".)
    if (std::optional<CacheOp> c = mods.getCache();
        c && (mods.has(Flag::volatile_) || ordered))
      return p.error(
          opTok,
          "'" + mnemonic + "." +
              (ordered ? stringifyMemSemantics(*sem) : StringRef("volatile")) +
              "' takes no cache operator (." + stringifyCacheOp(*c) + ")");
    bool globalOrGeneric = !space || *space == StateSpace::global;
    std::optional<Flag> l1 = firstFlag(mods, fl::L1Eviction);
    if (l1 && !globalOrGeneric)
      return p.error(opTok, "'." + stringifyFlag(*l1) + "' applies to ." +
                                "global or generic addresses, not ." +
                                stringifyStateSpace(*space));
    if (l1 && mods.has(Flag::volatile_))
      return p.error(opTok, "'" + mnemonic + ".volatile' takes no ." +
                                stringifyFlag(*l1));
    if (mods.has(Flag::L2_cache_hint) && !globalOrGeneric)
      return p.error(opTok, "'.L2::cache_hint' applies to .global or "
                            "generic addresses, not ." +
                                stringifyStateSpace(*space));
    // (ldu takes no cache policy: "Illegal modifier '.L2::cache_hint' for
    // instruction 'ldu'"; seed 73's neighbours.)
    if (mods.has(Flag::L2_cache_hint) && mnemonic == "ldu")
      return p.error(opTok, "'ldu' takes no .L2::cache_hint");
    std::optional<Flag> prefetch = firstFlag(mods, fl::PrefetchSize);
    if (prefetch && mnemonic != "ld")
      return p.error(opTok, "'" + mnemonic + "' takes no ." +
                                stringifyFlag(*prefetch) +
                                " (a load's prefetch size)");
    if (prefetch && !globalOrGeneric)
      return p.error(opTok, "'." + stringifyFlag(*prefetch) +
                                "' prefetches .global or generic addresses, "
                                "not ." +
                                stringifyStateSpace(*space));
  }
  // cvta converts a .u64 address (.u32 where addresses are 32-bit; ptxas:
  // "requires .u32 or .u64 type", "Program uses 32-bit address") into a
  // register, not a predicate.
  if (mnemonic == "cvta" && mods.getTypes().size() == 1) {
    TypeKind t = mods.getTypes()[0];
    TypeKind want = p.addressSize == 64 ? TypeKind::u64 : TypeKind::u32;
    if (t != want)
      return p.error(opTok, "'cvta' converts ." + stringifyTypeKind(want) +
                                " addresses here, not ." +
                                stringifyTypeKind(t));
    if (!operands.empty())
      if (std::optional<TypeKind> reg = declaredType(operands.front());
          reg && *reg == TypeKind::pred)
        return p.error(operands.front().tok,
                       "'cvta' cannot write the predicate register '" +
                           operands.front().name + "'");
  }
  // fma and mad: .sat not on .f64 nor on an integer mad but .hi.s32; .relu
  // on halves (ptxas: "Illegal modifier", "Unexpected instruction types").
  if ((mnemonic == "fma" || mnemonic == "mad") && mods.getTypes().size() == 1) {
    TypeKind t = mods.getTypes()[0];
    char cls = typeClass(t);
    bool integer = cls == 's' || cls == 'u';
    if (mods.has(Flag::sat) &&
        (t == TypeKind::f64 ||
         (integer && (t != TypeKind::s32 || mods.getMode() != Mode::hi))))
      return p.error(opTok, "'" + mnemonic + ".sat' applies to " +
                                (integer ? ".hi.s32" : ".f32 and halves") +
                                ", not ." + stringifyTypeKind(t));
    if (mods.has(Flag::relu) && !isHalfType(t))
      return p.error(opTok, "'" + mnemonic + ".relu' applies to halves, not ." +
                                stringifyTypeKind(t));
  }
  // bf16 arithmetic neither flushes nor saturates (ptxas: "Illegal modifier
  // '.ftz'", "'.sat'"; ex2.approx.ftz.bf16 is its own form; set's compared
  // type is its last: seed 79).
  if (!mods.getTypes().empty() &&
      llvm::is_contained({"add", "sub", "mul", "fma", "neg", "abs", "min",
                          "max", "setp", "cvt", "set"},
                         mnemonic)) {
    TypeKind t =
        mnemonic == "set" ? mods.getTypes().back() : mods.getTypes()[0];
    if (t == TypeKind::bf16 || t == TypeKind::bf16x2)
      for (Flag f : {Flag::ftz, Flag::sat})
        if (mods.has(f))
          return p.error(opTok, "'" + mnemonic + "' of ." +
                                    stringifyTypeKind(t) + " takes no ." +
                                    stringifyFlag(f));
  }
  // barrier.arrive counts threads, never 0 ("Instruction 'barrier.arrive'
  // requires a non-zero thread count argument"); st.async stores no .pred
  // ("Unexpected instruction types"); red.async names its operation
  // ("Reduction operation is required"); txq and suq make one query
  // ("Multiple query modifiers specified"). Seed 79.
  if ((mnemonic == "barrier.arrive" || mnemonic == "bar.arrive") &&
      operands.size() == 2 && operands[1].kind == ParsedOperand::Int &&
      operands[1].intValue == 0)
    return p.error(operands[1].tok,
                   "'" + mnemonic + "' counts a non-zero number of threads");
  if (mnemonic == "st.async" && mods.getTypes().size() == 1 &&
      mods.getTypes()[0] == TypeKind::pred)
    return p.error(opTok, "'st.async' stores no .pred");
  if (mnemonic == "red.async" && !mods.getRedOp())
    return p.error(opTok, "'red.async' needs its reduction (.add, ...)");
  if ((mnemonic == "txq" || mnemonic == "suq") && mods.getExtras() &&
      llvm::count_if(mods.getExtras(), [](Attribute e) {
        return cast<StringAttr>(e).getValue() != "level";
      }) > 1)
    return p.error(opTok, "'" + mnemonic + "' makes one query");
  // mul saturates floats but .f64 (ptxas: "Illegal modifier '.sat' for
  // instruction 'mul.hi'", "... 'mul'").
  if (mnemonic == "mul" && mods.has(Flag::sat) && mods.getTypes().size() == 1 &&
      (typeClass(mods.getTypes()[0]) != 'f' ||
       mods.getTypes()[0] == TypeKind::f64) &&
      !isHalfType(mods.getTypes()[0]))
    return p.error(opTok, "'mul.sat' applies to .f32 and halves, not ." +
                              stringifyTypeKind(mods.getTypes()[0]));
  // Integer add and sub saturate at .s32 only; integer arithmetic has no
  // rounding.
  if (std::optional<TypeKind> t = mods.getType();
      t && mods.getTypes().size() == 1) {
    char cls = typeClass(*t);
    bool integer = cls == 's' || cls == 'u' || cls == 'b';
    if (integer && mods.has(Flag::sat) && *t != TypeKind::s32 &&
        (mnemonic == "add" || mnemonic == "sub"))
      return p.error(opTok, "'" + mnemonic +
                                ".sat' applies to .s32 only, "
                                "not ." +
                                stringifyTypeKind(*t));
    if (*t == TypeKind::f64 && mods.has(Flag::sat) &&
        (mnemonic == "add" || mnemonic == "sub"))
      return p.error(opTok, "'" + mnemonic + ".sat' has no .f64 form");
    if (integer && mods.getRounding() &&
        llvm::is_contained(
            {"add", "sub", "mul", "mad", "div", "min", "max", "neg", "abs"},
            mnemonic))
      return p.error(opTok, "'" + mnemonic + "' of type ." +
                                stringifyTypeKind(*t) +
                                " takes no rounding modifier");
  }
  // One state space but for the copies that name two (ptxas: "Unexpected
  // number of state spaces specified"); `st.shared.global` was read as one
  // of them, and `mbarrier.init.shared.shared` (seed 55 with --words).
  bool twoSpaces = mnemonic == "cp.async" || mnemonic == "cp.async.bulk" ||
                   mnemonic == "cp.async.bulk.tensor" ||
                   mnemonic.starts_with("cp.reduce.async.bulk") ||
                   mnemonic == "tensormap.cp_fenceproxy";
  if (mods.getSpaces().size() > 1 && !twoSpaces)
    return p.error(opTok, "'" + mnemonic + "' takes one state space, not ." +
                              stringifyStateSpace(mods.getSpaces()[0]) +
                              " and ." +
                              stringifyStateSpace(mods.getSpaces()[1]));
  // The cache operators of loads and of stores (ptxas: "Illegal
  // modifier"): `st.lu` was accepted.
  if (std::optional<CacheOp> c = mods.getCache()) {
    bool store = mnemonic == "st";
    bool load = mnemonic == "ld" || mnemonic == "ldu";
    bool storeOp = *c == CacheOp::wb || *c == CacheOp::wt ||
                   *c == CacheOp::cg || *c == CacheOp::cs;
    bool loadOp = *c == CacheOp::ca || *c == CacheOp::cg || *c == CacheOp::cs ||
                  *c == CacheOp::lu || *c == CacheOp::cv;
    if ((store && !storeOp) || (load && !loadOp))
      return p.error(opTok, "'" + mnemonic + "' has no cache operator ." +
                                stringifyCacheOp(*c));
  }
  // Instructions of one type given two, and cvt given one (ptxas:
  // "Unexpected instruction types specified"); `mul.u64.s32` was read as
  // one of them. (ld, ldu and st: their op's verifier.)
  if (mods.getTypes().size() > 1 &&
      llvm::is_contained(
          {"add",        "sub",          "mul",
           "mad",        "div",          "rem",
           "abs",        "neg",          "min",
           "max",        "and",          "or",
           "xor",        "not",          "shl",
           "shr",        "mov",          "selp",
           "fma",        "bfe",          "bfi",
           "prmt",       "popc",         "clz",
           "brev",       "cvta",         "shf",
           "atom",       "red",          "sqrt",
           "rsqrt",      "rcp",          "sin",
           "cos",        "lg2",          "ex2",
           "tanh",       "bfind",        "testp",
           "copysign",   "mul24",        "mad24",
           "addc",       "subc",         "madc",
           "sad",        "lop3",         "bmsk",
           "szext",      "ldmatrix",     "stmatrix",
           "bar.red",    "vote",         "redux",
           "cnot",       "fns",          "barrier.red",
           "match",      "setp",         "shfl",
           "isspacep",   "txq",          "suq",
           "activemask", "createpolicy", "setmaxnreg",
           "mapa",       "getctarank",   "cp.reduce.async.bulk",
           "alloca",     "movmatrix",    "cp.async.mbarrier.arrive"},
          mnemonic))
    return p.error(opTok, "'" + mnemonic + "' takes one type, not ." +
                              stringifyTypeKind(mods.getTypes()[0]) + " and ." +
                              stringifyTypeKind(mods.getTypes()[1]));
  if (mnemonic == "cvt" && mods.getTypes().size() == 1)
    return p.error(opTok, "'cvt' needs a destination and a source type");
  // cp.async.mbarrier.arrive is .b64 ("Unexpected instruction types";
  // seed 74); setmaxnreg is written with its action first (ptxas: "Not a
  // name of any known instruction: 'setmaxnreg'" for `setmaxnreg.sync.dec`
  // and `setmaxnreg.aligned.inc`; seed 75).
  if (mnemonic == "cp.async.mbarrier.arrive")
    for (TypeKind t : mods.getTypes())
      if (t != TypeKind::b64)
        return p.error(opTok, "'cp.async.mbarrier.arrive' is .b64, not ." +
                                  stringifyTypeKind(t));
  if (mnemonic == "setmaxnreg") {
    SmallVector<StringRef> words = spelledModifiers(mnemonic);
    if (!words.empty() && words.front() != "inc" && words.front() != "dec")
      return p.error(opTok, "'setmaxnreg' is written with its action first "
                            "(setmaxnreg.inc..., setmaxnreg.dec...)");
  }
  // alloca gives a .u32 or .u64 address ("Unexpected instruction types
  // specified for 'alloca'"; seed 71).
  if (mnemonic == "alloca" && mods.getTypes().size() == 1 &&
      mods.getTypes()[0] != TypeKind::u32 &&
      mods.getTypes()[0] != TypeKind::u64)
    return p.error(opTok, "'alloca' is .u32 or .u64, not ." +
                              stringifyTypeKind(mods.getTypes()[0]));
  // A tensor names its dimensions (".dim modifier required for instruction
  // 'cp.async.bulk.tensor'"; seed 70).
  if (mnemonic.ends_with(".tensor") &&
      (mnemonic.starts_with("cp.async.bulk") ||
       mnemonic.starts_with("cp.reduce.async.bulk")) &&
      !llvm::is_contained({Geometry::g1d, Geometry::g2d, Geometry::g3d},
                          mods.getGeometry()) &&
      !hasExtra(mods, "4d") && !hasExtra(mods, "5d"))
    return p.error(opTok, "'" + mnemonic +
                              "' names the tensor's dimensions "
                              "(.1d to .5d)");
  // A copy to .global completes in a bulk group, one to shared memory on
  // an mbarrier (ptxas: ".completion_mechanism modifier required",
  // "Illegal modifier '.bulk_group'"); a reduction reads .shared::cta
  // into .global or, but for a tensor's, .shared::cluster ("State space
  // incorrect"). Seeds 56-57 with --words.
  bool bulk = mnemonic.starts_with("cp.async.bulk") ||
              mnemonic.starts_with("cp.reduce.async.bulk");
  bool tensor = mnemonic.ends_with(".tensor");
  ArrayRef<StateSpace> spaces = mods.getSpaces();
  bool reduce = mnemonic.starts_with("cp.reduce.async.bulk");
  if (reduce && spaces.size() != 2)
    return p.error(opTok, "'" + mnemonic + "' names two state spaces, not " +
                              Twine(spaces.size()));
  if (reduce && (spaces[1] != StateSpace::shared_cta ||
                 (spaces[0] != StateSpace::global &&
                  (tensor || spaces[0] != StateSpace::shared_cluster))))
    return p.error(opTok, "'" + mnemonic + "' reduces .shared::cta into " +
                              (tensor ? ".global"
                                      : ".global or "
                                        ".shared::cluster") +
                              ", not ." + stringifyStateSpace(spaces[1]) +
                              " into ." + stringifyStateSpace(spaces[0]));
  // (A copy into this CTA's .shared::cta is PTX 8.6's: "Feature
  // 'cp.async.bulk with destination state space as .shared::cta' requires
  // PTX ISA .version 8.6".)
  if (bulk && !reduce && spaces.size() == 2 &&
      spaces[0] == StateSpace::shared_cta && p.ptxVersion < 86)
    return p.error(opTok, "'" + mnemonic +
                              "' into .shared::cta needs .version 8.6 or "
                              "later");
  // (The bulk prefetches name one space: the rule above.)
  if (bulk && spaces.size() == 2) {
    bool toGlobal = spaces[0] == StateSpace::global;
    bool onMbarrier = mods.has(Flag::mbarrier_complete_tx_bytes);
    if (!onMbarrier && !mods.has(Flag::bulk_group))
      return p.error(opTok, "'" + mnemonic +
                                "' needs its completion (.bulk_group to "
                                ".global, .mbarrier::complete_tx::bytes "
                                "to shared memory)");
    // A tensor copy reads .global into shared memory or .shared::cta into
    // .global ("State space incorrect"; seed 60).
    if (tensor && !reduce &&
        spaces[1] != (toGlobal ? StateSpace::shared_cta : StateSpace::global))
      return p.error(opTok, "'" + mnemonic + "' to ." +
                                stringifyStateSpace(spaces[0]) + " reads ." +
                                (toGlobal ? "shared::cta" : "global") +
                                ", not ." + stringifyStateSpace(spaces[1]));
    // A tensor copy to shared memory: [to], [map, {...}], [mbarrier], the
    // CTA mask with .multicast::cluster; to .global: [map, {...}], [from];
    // a policy last with .L2::cache_hint ("Arguments mismatch"; seed 58).
    if (tensor && !reduce) {
      size_t want = (toGlobal ? 2 : 3) + mods.has(Flag::multicast_cluster) +
                    mods.has(Flag::L2_cache_hint);
      if (operands.size() != want)
        return p.error(opTok, "'" + mnemonic + "' to ." +
                                  stringifyStateSpace(spaces[0]) + " takes " +
                                  Twine(want) + " operands, not " +
                                  Twine(operands.size()));
    }
    // The CTA mask is 16 bits: a 16-bit integer register or an immediate
    // ("Arguments mismatch" for .b32, .b64, .b128, .f32 and predicate
    // registers; seed 65).
    size_t mask = tensor ? 3 : 4;
    // (Nor an address: seed 75.)
    if (!reduce && !toGlobal && mods.has(Flag::multicast_cluster) &&
        mask < operands.size()) {
      const ParsedOperand &m = operands[mask];
      std::optional<TypeKind> reg = declaredType(m);
      if (m.kind == ParsedOperand::Addr || m.kind == ParsedOperand::Vec ||
          m.kind == ParsedOperand::Float ||
          (reg && (*reg == TypeKind::pred || getTypeBitWidth(*reg) != 16 ||
                   typeClass(*reg) == 'f' || isHalfType(*reg))))
        return p.error(m.tok, "'" + mnemonic +
                                  "' takes a 16-bit CTA mask, not " +
                                  (m.kind == ParsedOperand::Addr
                                       ? std::string("an address [...]")
                                   : reg ? ("the ." + stringifyTypeKind(*reg) +
                                            " register '" + m.name + "'")
                                               .str()
                                         : Parser::describe(m.tok)));
    }
    if (onMbarrier == toGlobal)
      return p.error(opTok, "'" + mnemonic + "' to ." +
                                stringifyStateSpace(spaces[0]) +
                                (toGlobal ? " completes in a bulk group "
                                            "(.bulk_group)"
                                          : " completes on an mbarrier "
                                            "(.mbarrier::complete_tx::bytes)"));
  }
  // State spaces an instruction cannot reach (ptxas: "State space
  // incorrect", "State space modifier required"): st into .const, atom and
  // red outside .global and .shared; cvta names the space it converts,
  // isspacep the one it tests.
  {
    std::optional<StateSpace> space = mods.getSpace();
    auto refuseSpace = [&]() {
      return p.error(opTok, "'" + mnemonic + "' cannot reach ." +
                                stringifyStateSpace(*space) + " memory");
    };
    bool readOnly =
        space && (*space == StateSpace::const_ || *space == StateSpace::tex);
    if (store && readOnly)
      return refuseSpace();
    if (atomic && space &&
        !llvm::is_contained(
            {StateSpace::global, StateSpace::shared, StateSpace::generic},
            spaceFamily(*space)))
      return refuseSpace();
    // prefetch reaches .global and .local, prefetch.tensormap .const and
    // .param (ptxas: "State space incorrect", "Modifier '.tensormap' cannot
    // be applied to '.global' space"); an atomic's L2 cache policy applies
    // to .global (seed 47 with --words).
    if (mnemonic == "prefetch" && space) {
      StateSpace family = spaceFamily(*space);
      bool reaches =
          hasExtra(mods, "tensormap")
              ? family == StateSpace::const_ || family == StateSpace::param
              : family == StateSpace::global || family == StateSpace::local;
      if (!reaches)
        return refuseSpace();
    }
    if (atomic && space && mods.has(Flag::L2_cache_hint) &&
        spaceFamily(*space) != StateSpace::global)
      return p.error(opTok, "'.L2::cache_hint' applies to .global or "
                            "generic addresses, not ." +
                                stringifyStateSpace(*space));
    if (mnemonic == "cvta" && !space)
      return p.error(opTok,
                     "'cvta' needs the state space it converts (.global, "
                     ".shared, .local, .const, .param)");
    // ... and a variable it names is of that space (ptxas: "State space
    // mismatch between instruction and address in instruction 'cvta'";
    // seed 76).
    if (mnemonic == "cvta" && !mods.has(Flag::to))
      for (const ParsedOperand &o : after(operands, 0))
        if (std::optional<StateSpace> v = variableSpace(o);
            v && *v != StateSpace::generic &&
            spaceFamily(*v) != spaceFamily(*space))
          return p.error(o.tok,
                         "'cvta." + stringifyStateSpace(*space) +
                             "' converts a ." + stringifyStateSpace(*space) +
                             " address, not the ." + stringifyStateSpace(*v) +
                             " variable '" + o.name + "'");
    // (The differential fuzzer, seed 15.)
    if (mnemonic == "isspacep" && !space)
      return p.error(opTok,
                     "'isspacep' needs the state space it tests (.global, "
                     ".shared, .local, .const, .param)");
  }
  // A 32-bit register holds no .global or generic address where addresses
  // are 64-bit (ptxas: "Program uses 32-bit address ... conflicting with
  // .address_size 64", then "32-Bit compilation is no longer supported");
  // the other spaces' addresses are 32-bit.
  if (p.addressSize == 64 &&
      (llvm::is_contained({"ld", "ldu", "st", "atom", "red", "prefetch",
                           "prefetchu", "discard", "applypriority"},
                          mnemonic) ||
       mnemonic.starts_with("mbarrier.") ||
       mnemonic.starts_with("multimem."))) {
    std::optional<StateSpace> space = mods.getSpace();
    if (!space || *space == StateSpace::global || *space == StateSpace::generic)
      for (const ParsedOperand &o : operands)
        if (o.kind == ParsedOperand::Addr && !o.elems.empty())
          if (std::optional<TypeKind> reg = declaredType(o.elems.front());
              reg && getTypeBitWidth(*reg) != 64)
            return p.error(o.tok, "the " + Twine(getTypeBitWidth(*reg)) +
                                      "-bit register '" + o.elems.front().name +
                                      "' cannot hold a " +
                                      (space ? ".global" : "generic") +
                                      " address (addresses are 64-bit)");
  }
  // cvt converts between two value types (ptxas: "Unexpected instruction
  // types specified", "No state space qualifier expected"): no third type,
  // no .b or .pred type, no state space.
  if (mnemonic == "cvt") {
    ArrayRef<TypeKind> types = mods.getTypes();
    if (types.size() > 2)
      return p.error(opTok,
                     "'cvt' takes a destination and a source type, not " +
                         Twine(types.size()) + " types");
    for (TypeKind t : types)
      if (typeClass(t) == 'b' || typeClass(t) == 'p' || t == TypeKind::b128)
        return p.error(opTok, "'cvt' has no type ." + stringifyTypeKind(t));
    // (A state space after cvt is read as one of its extra qualifiers.)
    // Its qualifiers are its rounding, .ftz, .sat, .relu, .satfinite and
    // types; any other word is refused (ptxas: "Illegal modifier", also
    // for `::` words such as .mbarrier::complete_tx::bytes: seed 47).
    if (ArrayAttr extras = mods.getExtras())
      for (Attribute e : extras) {
        StringRef word = cast<StringAttr>(e).getValue();
        if (symbolizeStateSpace(word))
          return p.error(opTok, "'cvt' takes no state space (." + word + ")");
        return p.error(opTok, "'cvt' has no qualifier ." + word);
      }
  }
  // Instruction types the instruction does not have (ptxas: "Unexpected
  // instruction types specified"): mov/ld/st move halves as .b16/.b32, shl
  // is .b only, shr has no float type, an integer mul/mad names its half
  // and only an integer one has halves, st stores no .pred, shfl moves .b32,
  // shf shifts and prmt permutes .b32, brev reverses .b32/.b64, sad is of
  // integers, mul and mad have no .b type.
  if (mods.getTypes().size() == 1) {
    TypeKind t = mods.getTypes()[0];
    char cls = typeClass(t);
    bool halves = isHalfType(t);
    bool refused =
        (halves && llvm::is_contained({"mov", "ld", "ldu", "st"}, mnemonic)) ||
        (mnemonic == "shl" && cls != 'b') ||
        (mnemonic == "shr" && cls != 'b' && cls != 's' && cls != 'u') ||
        (llvm::is_contained({"ld", "ldu", "st"}, mnemonic) && cls == 'p') ||
        (mnemonic == "activemask" && t != TypeKind::b32) ||
        (mnemonic == "shfl" && t != TypeKind::b32) ||
        (mnemonic == "shf" && t != TypeKind::b32) ||
        (mnemonic == "prmt" && t != TypeKind::b32) ||
        (mnemonic == "brev" && t != TypeKind::b32 && t != TypeKind::b64) ||
        (mnemonic == "bfi" && t != TypeKind::b32 && t != TypeKind::b64) ||
        (mnemonic == "bfe" && cls != 's' && cls != 'u') ||
        (mnemonic == "rem" && cls != 's' && cls != 'u') ||
        // sin, cos and lg2 are .f32's; rcp, sqrt and rsqrt have no halves
        // (seed 32).
        (llvm::is_contained({"sin", "cos", "lg2"}, mnemonic) &&
         t != TypeKind::f32) ||
        (llvm::is_contained({"rcp", "sqrt", "rsqrt"}, mnemonic) && halves) ||
        // ... and the math functions take floats, ldmatrix/stmatrix .b16
        // (sm_100's .b8), istypep a handle type (seeds 60-61).
        (llvm::is_contained({"rcp", "sqrt", "rsqrt", "ex2", "tanh"},
                            mnemonic) &&
         cls != 'f' && !halves) ||
        ((mnemonic == "ldmatrix" || mnemonic == "stmatrix") &&
         t != TypeKind::b16 && t != TypeKind::b8) ||
        (mnemonic == "istypep" && t != TypeKind::texref &&
         t != TypeKind::samplerref && t != TypeKind::surfref) ||
        (llvm::is_contained({"clz", "popc"}, mnemonic) && t != TypeKind::b32 &&
         t != TypeKind::b64) ||
        (mnemonic == "bfind" && cls != 's' && cls != 'u') ||
        // The carry chain is of 32- and 64-bit integers (seed 27).
        ((llvm::is_contained({"addc", "subc", "madc"}, mnemonic) ||
          mods.has(Flag::cc)) &&
         (!llvm::is_contained({'s', 'u'}, cls) || getTypeBitWidth(t) < 32)) ||
        (mnemonic == "div" && cls != 's' && cls != 'u' && cls != 'f') ||
        (mnemonic == "sad" && cls != 's' && cls != 'u') ||
        ((mnemonic == "mul" || mnemonic == "mad") && cls == 'b') ||
        (llvm::is_contained({"and", "or", "xor", "not"}, mnemonic) &&
         cls != 'b' && cls != 'p') ||
        (mnemonic == "cnot" && cls != 'b');
    std::optional<Mode> mode = mods.getMode();
    bool namesHalf =
        mode && (*mode == Mode::lo || *mode == Mode::hi || *mode == Mode::wide);
    if ((mnemonic == "mul" || mnemonic == "mad") && namesHalf && cls != 's' &&
        cls != 'u')
      refused = true;
    if (refused)
      return p.error(opTok,
                     "'" + mnemonic + "' has no type ." + stringifyTypeKind(t));
    if ((mnemonic == "mul" || mnemonic == "mad") &&
        (cls == 's' || cls == 'u') && mods.getMode() != Mode::lo &&
        mods.getMode() != Mode::hi && mods.getMode() != Mode::wide)
      return p.error(opTok, "'" + mnemonic + "' of type ." +
                                stringifyTypeKind(t) +
                                " needs .lo, .hi or .wide");
  }
  // A predicate register where only data goes (ptxas: "Arguments
  // mismatch"); the instructions that read predicates (selp, vote, bar.red,
  // setp's boolean operand, lop3's) are not among these.
  if (llvm::is_contained({"shl", "shr", "brev", "prmt", "bfe", "bfi", "shf",
                          "cvta", "bmsk", "fns", "st"},
                         mnemonic))
    for (size_t i = firstSrc; i < operands.size(); ++i)
      if (declaredType(operands[i]) == TypeKind::pred)
        return p.error(operands[i].tok,
                       "'" + mnemonic +
                           "' cannot take the predicate register '" +
                           operands[i].name + "'");
  // cvt: registers at least as wide as their type (wider ones are PTX's
  // convenience), never a float register for an integer source.
  if (mnemonic == "cvt" && mods.getTypes().size() == 2) {
    auto fits = [&](const ParsedOperand &o, TypeKind t,
                    bool source) -> LogicalResult {
      std::optional<TypeKind> declared = declaredType(o);
      if (!declared)
        return success();
      TypeKind reg = *declared;
      char rc = typeClass(reg), tc = typeClass(t);
      bool narrow = getTypeBitWidth(reg) < getTypeBitWidth(t);
      bool floatReg = rc == 'f' || isHalfType(reg);
      bool floatForInt = floatReg && (tc == 's' || tc == 'u');
      // A float type takes a float register of its own type only and no
      // integer one; .bf16 and .bf16x2 a .b register of their width only
      // (ptxas, register type by register type; the differential fuzzer,
      // seeds 13 and 15).
      bool bf = t == TypeKind::bf16 || t == TypeKind::bf16x2;
      bool floatMismatch =
          (tc == 'f' || isHalfType(t)) &&
          ((floatReg && reg != t) || rc == 's' || rc == 'u' ||
           (bf && rc == 'b' && getTypeBitWidth(reg) != getTypeBitWidth(t)));
      // (A conversion to or from packed 8-bit floats takes registers of
      // the types' widths exactly, no wider: seed 61.)
      // (So does one to or from .bf16 or .bf16x2: `cvt.rn.bf16.f32 %rs1,
      // %rd1`, which ptxas takes for .f16; seed 74.)
      bool exact = llvm::any_of(mods.getTypes(), [](TypeKind k) {
        StringRef n = stringifyTypeKind(k);
        return ((n.starts_with("e") || n.starts_with("ue")) &&
                n.ends_with("x2")) ||
               k == TypeKind::bf16 || k == TypeKind::bf16x2;
      });
      bool wide = exact && getTypeBitWidth(reg) != getTypeBitWidth(t);
      if (!narrow && !floatForInt && !floatMismatch && !wide)
        return success();
      return p.error(o.tok, "'cvt' " + Twine(source ? "from" : "to") + " ." +
                                stringifyTypeKind(t) + " cannot take the ." +
                                stringifyTypeKind(reg) + " register '" +
                                o.name + "'");
    };
    if (!operands.empty() &&
        failed(fits(operands.front(), mods.getTypes()[0], false)))
      return failure();
    for (size_t i = firstSrc; i < operands.size(); ++i)
      if (failed(fits(operands[i], mods.getTypes()[1], true)))
        return failure();
  }
  // What the rules above leave of each operand's type.
  if (failed(checkOperandSignature(mnemonic, mods, operands)) ||
      failed(checkVectorWidths(operands)))
    return failure();
  // What the module's processor has (ptxas: "Feature 'min.relu' requires
  // .target sm_90 or higher"), once the instruction is valid PTX.
  for (const TargetNeed &need :
       instructionNeeds(mnemonic, mods, operands.size()))
    if (failed(p.checkTarget(opTok, need)))
      return failure();
  for (const ParsedOperand &o : operands) {
    auto sregNeed = [&](const ParsedOperand &x) -> LogicalResult {
      if (x.kind == ParsedOperand::SReg && x.sreg)
        if (std::optional<TargetNeed> need =
                specialRegisterNeed(x.sreg.getReg()))
          return p.checkTarget(x.tok, *need);
      return success();
    };
    if (failed(sregNeed(o)))
      return failure();
    for (const ParsedOperand &e : o.elems)
      if (failed(sregNeed(e)))
        return failure();
  }
  // (What a discarded `_` result would have been: setp's a predicate.)
  Type fallback =
      spec.has(p::PredResult) ? Type(builder.getI1Type())
      : mods.getTypes().empty() || getTypeBitWidth(mods.getTypes()[0]) < 8
          ? Type(builder.getIntegerType(32))
          : getRegisterType(p.ctx, mods.getTypes()[0]);
  SmallVector<Type> resultTypes;
  for (const ParsedOperand *d : dests) {
    auto t = destType(*d, fallback);
    if (failed(t))
      return failure();
    resultTypes.push_back(*t);
  }
  // A second destination of `setp`/`shfl`/`elect`... is a predicate.
  if (dests.size() == 2 && operands.front().kind == ParsedOperand::Pair &&
      dests[1]->kind == ParsedOperand::Sink)
    resultTypes[1] = builder.getI1Type();

  SmallVector<Value> args;
  SmallVector<int32_t> groups;
  bool grouped = false;
  // wgmma accumulates into its destination fragment: it reads it too (the
  // first operands, tied to the results in NVIDIA's spelling).
  size_t tiedInputs = 0;
  if (mnemonic.starts_with("wgmma.mma_async")) {
    tiedInputs = dests.size();
    for (const ParsedOperand *d : dests) {
      auto v = materialize(*d, Type());
      if (failed(v))
        return failure();
      args.push_back(*v);
    }
    groups.push_back(static_cast<int32_t>(args.size()));
    grouped = true;
  }
  for (size_t i = firstSrc; i < operands.size(); ++i) {
    const ParsedOperand &op = operands[i];
    Type immType =
        immediateType(mnemonic, mods, i - firstSrc, operands.size() - firstSrc,
                      op.kind == ParsedOperand::Float);
    size_t before = args.size();
    auto addOne = [&](const ParsedOperand &e) -> LogicalResult {
      if (e.kind == ParsedOperand::Vec) {
        for (const ParsedOperand &x : e.elems) {
          // `_` in a value mov packs: bits left unspecified, here 0.
          if (x.kind == ParsedOperand::Sink && mnemonic == "mov") {
            ParsedOperand zero = x;
            zero.kind = ParsedOperand::Int;
            auto v = makeConstant(zero, immType);
            if (failed(v))
              return failure();
            args.push_back(*v);
            continue;
          }
          auto v = materialize(x, immType);
          if (failed(v))
            return failure();
          args.push_back(*v);
        }
        return success();
      }
      auto v = materialize(e, immType);
      if (failed(v))
        return failure();
      args.push_back(*v);
      return success();
    };
    if (op.kind == ParsedOperand::Addr && op.elems.size() > 1) {
      ParsedOperand base = op;
      base.elems.resize(1);
      if (failed(addOne(base)))
        return failure();
      for (size_t k = 1; k < op.elems.size(); ++k)
        if (failed(addOne(op.elems[k])))
          return failure();
    } else if (failed(addOne(op))) {
      return failure();
    }
    groups.push_back(static_cast<int32_t>(args.size() - before));
    grouped |= groups.back() != 1;
  }

  SmallVector<Attribute> selectors;
  bool anySelector = false;
  for (const ParsedOperand &op : operands) {
    selectors.push_back(StringAttr::get(p.ctx, op.selector));
    anySelector |= !op.selector.empty();
  }
  bool isVideo = mnemonic.starts_with("v") && mnemonic != "vote";
  if (anySelector && !isVideo)
    return p.error(opTok, "operand selectors are only valid on video "
                          "instructions, not '" +
                              mnemonic + "'");

  // A phi read for an early operand may have been found trivial while later
  // operands were read.
  for (Value &a : args)
    a = resolve(a);
  auto nameIt = p.opNames.find(&spec);
  if (nameIt == p.opNames.end())
    nameIt =
        p.opNames
            .try_emplace(&spec, OperationName(("ptx." + mnemonic).str(), p.ctx))
            .first;
  OperationState st(here(opTok), nameIt->second);
  if (anySelector)
    st.addAttribute("selectors", ArrayAttr::get(p.ctx, selectors));
  if (p.options.nativeSpellings && isNativeOnlyFamily(mnemonic))
    if (std::optional<std::string> text = nativeTemplate(
            instSpelling, operands, firstSrc, resultTypes.size(), tiedInputs)) {
      st.addAttribute("native", StringAttr::get(p.ctx, *text));
      if (tiedInputs)
        st.addAttribute("native_tied", builder.getI32IntegerAttr(tiedInputs));
    }
  st.addOperands(args);
  st.addTypes(resultTypes);
  st.addAttribute("mods", mods);
  if (grouped)
    st.addAttribute("groups", DenseI32ArrayAttr::get(p.ctx, groups));
  Operation *op = builder.create(st);
  for (auto [d, r] : llvm::zip(dests, op->getResults()))
    if (failed(writeDest(*d, r)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions, branches and calls
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::parseInstruction(const Token &opTok,
                                                const Token *guardTok,
                                                bool guardNegated) {
  SmallVector<Token, 8> dots;
  while (p.peek().is(Token::DotWord) &&
         p.peek().text.data() ==
             (dots.empty() ? opTok.text.end() : dots.back().text.end()))
    dots.push_back(p.consume());

  // `bar.cta.sync`, `barrier.cta.arrive`: the scope sits inside the
  // mnemonic; it is kept as a modifier.
  SmallVector<Token, 2> inner;
  if ((opTok.text == "bar" || opTok.text == "barrier") && !dots.empty() &&
      dots.front().isDot("cta")) {
    inner.push_back(dots.front());
    dots.erase(dots.begin());
  }
  // The mnemonic is the longest known prefix: `cp.async.bulk.tensor`. A
  // last part may carry a qualifier after `::` (`tcgen05.wait::ld`).
  std::string name = opTok.text.str();
  std::string best;
  size_t used = 0;
  std::optional<Token> qualifier;
  const InstSpec *spec = nullptr;
  StringRef control[] = {"bra", "brx.idx", "call", "ret", "exit"};
  for (size_t k = 0; k <= std::min<size_t>(dots.size(), 4); ++k) {
    if (k > 0) {
      StringRef dot = dots[k - 1].text;
      size_t colons = dot.find("::");
      if (colons != StringRef::npos) {
        if (const InstSpec *s =
                lookupInstSpec(p.ctx, name + dot.take_front(colons).str())) {
          spec = s;
          best = name + dot.take_front(colons).str();
          used = k;
          // `::ld` as the modifier `ld` (its first `:` plays the dot).
          qualifier = dots[k - 1];
          qualifier->text = dot.drop_front(colons + 1);
        }
      }
      name += dot.str();
    }
    if (const InstSpec *s = lookupInstSpec(p.ctx, name)) {
      spec = s;
      best = name;
      used = k;
      qualifier.reset();
    } else if (llvm::is_contained(control, StringRef(name))) {
      spec = nullptr;
      best = name;
      used = k;
      qualifier.reset();
    }
  }
  if (best.empty())
    return p.error(opTok, "unknown instruction '" + opTok.text + "'");
  SmallVector<Token, 8> modToks(inner.begin(), inner.end());
  if (qualifier)
    modToks.push_back(*qualifier);
  modToks.append(dots.begin() + used, dots.end());

  ensureBlock();
  instLoc = p.opLoc(opTok);
  const char *spellingEnd =
      dots.empty() ? opTok.text.end() : dots.back().text.end();
  instSpelling = StringRef(opTok.text.data(), spellingEnd - opTok.text.data());
  llvm::scope_exit clearLoc([&] {
    instLoc.reset();
    instSpelling = StringRef();
  });
  if (!guardTok)
    return parseUnguarded(opTok, best, spec, modToks);

  auto guard = readName(*guardTok, guardTok->text);
  if (failed(guard))
    return failure();
  if (!guard->getType().isInteger(1))
    return p.error(*guardTok,
                   "guard '" + guardTok->text + "' is not a predicate");
  if (best == "bra") {
    // Only `.uni`, as unguarded (`@%p bra.cg` dropped its modifier).
    FailureOr<bool> uni = branchUniformity(best, modToks);
    if (failed(uni))
      return failure();
    return parseBranch(opTok, *uni, *guard, guardNegated);
  }

  // `@%p op`: cur -> (exec | cont); exec -> cont.
  Block *pre = cur;
  Block *exec = newBlock(/*sealed=*/false);
  Block *cont = newBlock(/*sealed=*/false);
  TerminatorIntent &t = state(pre).term;
  t.kind = TerminatorIntent::CondBra;
  t.loc = p.opLoc(*guardTok);
  t.value = *guard;
  t.dest = guardNegated ? cont : exec;
  t.falseDest = guardNegated ? exec : cont;
  addEdge(pre, exec);
  addEdge(pre, cont);
  sealBlock(exec);
  cur = exec;
  builder.setInsertionPointToEnd(exec);
  if (failed(parseUnguarded(opTok, best, spec, modToks)))
    return failure();
  if (cur) {
    TerminatorIntent &e = state(cur).term;
    e.kind = TerminatorIntent::Bra;
    e.loc = p.loc(opTok);
    e.dest = cont;
    addEdge(cur, cont);
  }
  sealBlock(cont);
  cur = cont;
  builder.setInsertionPointToEnd(cont);
  return success();
}

FailureOr<bool> FunctionBuilder::branchUniformity(StringRef mnemonic,
                                                  ArrayRef<Token> modToks) {
  bool uni = false;
  for (const Token &m : modToks) {
    if (!m.isDot("uni"))
      return p.error(m, "unknown modifier '" + m.text + "' for '" + mnemonic +
                            "'");
    uni = true;
  }
  return uni;
}

LogicalResult FunctionBuilder::parseUnguarded(const Token &opTok,
                                              StringRef mnemonic,
                                              const InstSpec *spec,
                                              ArrayRef<Token> modToks) {
  if (!spec) {
    FailureOr<bool> uniform = branchUniformity(mnemonic, modToks);
    if (failed(uniform))
      return failure();
    bool uni = *uniform;
    if (mnemonic == "bra")
      return parseBranch(opTok, uni, Value(), false);
    if (mnemonic == "call")
      return parseCall(opTok, uni);
    TerminatorIntent &t = state(cur).term;
    t.loc = p.opLoc(opTok);
    t.uni = uni;
    if (mnemonic == "ret" || mnemonic == "exit") {
      t.kind =
          mnemonic == "ret" ? TerminatorIntent::Ret : TerminatorIntent::Exit;
      if (mnemonic == "ret")
        for (unsigned var : returnVars)
          t.values.push_back(readVariable(var, cur));
      cur = nullptr;
      return p.expect(Token::Semi, "';' after " + mnemonic.str());
    }
    // brx.idx index, targets;
    ParsedOperand idx;
    Token listTok;
    if (failed(parseOperand(idx)) || failed(p.expect(Token::Comma, "','")) ||
        failed(p.expectIdent(listTok, "a .branchtargets label")))
      return failure();
    auto it = branchTargets.find(listTok.text);
    if (it == branchTargets.end())
      return p.error(listTok,
                     "'" + listTok.text + "' is not a .branchtargets list");
    auto idxVal = materialize(idx, builder.getI32Type());
    if (failed(idxVal))
      return failure();
    if (!isa<IntegerType>(idxVal->getType()))
      return p.error(idx.tok, "brx.idx index must be an integer");
    t.kind = TerminatorIntent::BrxIdx;
    t.value = *idxVal;
    Block *from = cur;
    for (const Token &target : it->second) {
      // One block per target so that the targets need no operands.
      Block *tramp = newBlock(/*sealed=*/true);
      addEdge(from, tramp);
      state(from).term.targets.push_back(tramp);
      TerminatorIntent &tt = state(tramp).term;
      tt.kind = TerminatorIntent::Bra;
      tt.loc = p.loc(target);
      tt.dest = labelBlock(target.text, target);
      addBranchEdge(tramp, tt.dest);
    }
    cur = nullptr;
    return p.expect(Token::Semi, "';' after brx.idx");
  }

  ModifierBuilder mb;
  for (const Token &m : modToks)
    if (auto err = mb.add(p.ctx, m.text.drop_front(), *spec))
      return p.error(m, *err + " for '" + mnemonic + "'");
  ModifiersAttr mods = mb.get(p.ctx);

  SmallVector<ParsedOperand, 4> operands;
  if (!p.peek().is(Token::Semi)) {
    do {
      ParsedOperand op;
      if (failed(parseOperand(op)))
        return failure();
      operands.push_back(std::move(op));
    } while (p.consumeIf(Token::Comma));
  }
  if (failed(p.expect(Token::Semi, "';' after the instruction")))
    return failure();
  return emitInstruction(opTok, mnemonic, *spec, mods, operands);
}

LogicalResult FunctionBuilder::parseBranch(const Token &opTok, bool uni,
                                           Value guard, bool guardNegated) {
  Token target;
  if (failed(p.expectIdent(target, "a branch target")) ||
      failed(p.expect(Token::Semi, "';' after bra")))
    return failure();
  if (lookup(target.text))
    return p.error(target, "indirect bra through a register is not supported; "
                           "use brx.idx");
  Block *dest = labelBlock(target.text, target);
  Block *from = cur;
  TerminatorIntent &t = state(from).term;
  t.loc = p.opLoc(opTok);
  t.uni = uni;
  if (!guard) {
    t.kind = TerminatorIntent::Bra;
    t.dest = dest;
    addBranchEdge(from, dest);
    cur = nullptr;
    return success();
  }
  Block *fall = newBlock(/*sealed=*/false);
  t.kind = TerminatorIntent::CondBra;
  t.value = guard;
  t.dest = guardNegated ? fall : dest;
  t.falseDest = guardNegated ? dest : fall;
  addBranchEdge(from, dest);
  addEdge(from, fall);
  sealBlock(fall);
  cur = fall;
  builder.setInsertionPointToEnd(fall);
  return success();
}

LogicalResult FunctionBuilder::parseCall(const Token &opTok, bool uni) {
  SmallVector<Token> rets, args;
  auto parseNameList = [&](SmallVectorImpl<Token> &out) -> LogicalResult {
    p.consume(); // (
    if (p.consumeIf(Token::RParen))
      return success();
    do {
      Token t;
      if (failed(p.expectIdent(t, "a parameter name")))
        return failure();
      out.push_back(t);
    } while (p.consumeIf(Token::Comma));
    return p.expect(Token::RParen, "')'");
  };
  if (p.peek().is(Token::LParen)) {
    if (failed(parseNameList(rets)) ||
        failed(p.expect(Token::Comma, "',' after the call's return list")))
      return failure();
  }
  Token target;
  if (failed(p.expectIdent(target, "a call target")))
    return failure();
  if (p.consumeIf(Token::Comma)) {
    if (p.peek().is(Token::LParen)) {
      if (failed(parseNameList(args)))
        return failure();
    }
  }
  std::optional<Token> protoTok;
  if (p.consumeIf(Token::Comma)) {
    Token t;
    if (failed(p.expectIdent(t, "a .callprototype or .calltargets label")))
      return failure();
    protoTok = t;
  }
  if (failed(p.expect(Token::Semi, "';' after call")))
    return failure();

  NamedAttrList attrs;
  SmallVector<Value> operands;
  int32_t targetCount = 0;
  const NameEntry *targetEntry = lookup(target.text);
  if (targetEntry) {
    auto v = readName(target, target.text);
    if (failed(v))
      return failure();
    operands.push_back(*v);
    targetCount = 1;
    if (!protoTok)
      return p.error(target, "indirect call needs a .callprototype or "
                             ".calltargets label");
  } else {
    if (!p.functions.count(target.text))
      return p.error(target,
                     "call to undeclared function '" + target.text + "'");
    attrs.append("callee", FlatSymbolRefAttr::get(p.ctx, target.text));
  }
  if (protoTok) {
    if (auto it = prototypes.find(protoTok->text); it != prototypes.end()) {
      attrs.append("prototype", paramArray(p.ctx, it->second.params));
      attrs.append("prototypeReturns", paramArray(p.ctx, it->second.rets));
    } else if (auto ct = callTargets.find(protoTok->text);
               ct != callTargets.end()) {
      attrs.append("targets", ArrayAttr::get(p.ctx, ct->second));
    } else {
      return p.error(*protoTok, "'" + protoTok->text +
                                    "' is neither a .callprototype nor a "
                                    ".calltargets label");
    }
  }
  if (uni)
    attrs.append("uni", UnitAttr::get(p.ctx));

  // Return parameters: `.param` addresses are operands; registers are
  // results written after the call.
  SmallVector<Type> resultTypes;
  SmallVector<unsigned> resultVars;
  int32_t retCount = 0;
  for (const Token &r : rets) {
    const NameEntry *e = lookup(r.text);
    if (!e)
      return p.error(r, "use of undeclared identifier '" + r.text + "'");
    if (e->kind == NameEntry::Reg) {
      resultTypes.push_back(varTypes[e->var]);
      resultVars.push_back(e->var);
    } else {
      operands.push_back(e->value);
      ++retCount;
    }
  }
  for (const Token &a : args) {
    auto v = readName(a, a.text);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  for (Value &v : operands)
    v = resolve(v);
  attrs.append(
      "operandSegmentSizes",
      DenseI32ArrayAttr::get(
          p.ctx, {targetCount, retCount, static_cast<int32_t>(args.size())}));
  Operation *call = CallOp::create(builder, here(opTok), resultTypes, operands,
                                   attrs.getAttrs());
  for (auto [var, res] : llvm::zip(resultVars, call->getResults()))
    writeVariable(var, cur, res);
  return success();
}

//===----------------------------------------------------------------------===//
// Finishing a body: seal, drop dead phis, create terminators
//===----------------------------------------------------------------------===//

LogicalResult FunctionBuilder::finish(const Token &endTok) {
  if (cur && state(cur).term.kind == TerminatorIntent::None) {
    TerminatorIntent &t = state(cur).term;
    t.kind = TerminatorIntent::Ret; // falling off the end
    t.loc = p.loc(endTok);
    for (unsigned var : returnVars)
      t.values.push_back(readVariable(var, cur));
  }
  for (auto &entryIt : labelUses)
    if (!definedLabels.count(entryIt.getKey()))
      return p.error(entryIt.getValue(),
                     "use of undefined label '" + entryIt.getKey() + "'");
  for (Block *b : allBlocks)
    sealBlock(b);

  // Drop the block arguments of removed phis.
  for (Block &b : body) {
    for (unsigned i = b.getNumArguments(); i-- > 0;) {
      BlockArgument arg = b.getArgument(i);
      if (replacement.count(arg)) {
        assert(arg.use_empty() && "replaced phi still in use");
        b.eraseArgument(i);
      }
    }
  }

  auto operandsFor = [&](Block *from, Block *to) {
    SmallVector<Value> vals;
    BlockState &s = state(to);
    auto it = llvm::find(s.preds, from);
    assert(it != s.preds.end() && "edge without predecessor entry");
    size_t idx = it - s.preds.begin();
    for (BlockArgument arg : to->getArguments())
      vals.push_back(resolve(phiOperands[arg][idx]));
    return vals;
  };
  for (Block &b : body) {
    TerminatorIntent &t = state(&b).term;
    builder.setInsertionPointToEnd(&b);
    Location l = t.loc ? Location(t.loc) : p.loc(endTok);
    switch (t.kind) {
    case TerminatorIntent::None: {
      // Unreachable code that runs into the end of the body.
      SmallVector<Value> values;
      for (unsigned var : returnVars)
        values.push_back(undef(varTypes[var]));
      RetOp::create(builder, l, values, false);
      break;
    }
    case TerminatorIntent::Bra:
      BraOp::create(builder, l, operandsFor(&b, t.dest), t.uni, t.dest);
      break;
    case TerminatorIntent::CondBra:
      CondBraOp::create(builder, l, resolve(t.value), operandsFor(&b, t.dest),
                        operandsFor(&b, t.falseDest), t.uni, t.dest,
                        t.falseDest);
      break;
    case TerminatorIntent::BrxIdx:
      BrxIdxOp::create(builder, l, resolve(t.value), t.uni, t.targets);
      break;
    case TerminatorIntent::Ret: {
      SmallVector<Value> values;
      for (Value v : t.values)
        values.push_back(resolve(v));
      RetOp::create(builder, l, values, t.uni);
      break;
    }
    case TerminatorIntent::Exit:
      ExitOp::create(builder, l);
      break;
    }
  }
  // Code no path reaches (after an unconditional branch, ret or exit with no
  // label, or a label no branch names) never runs: drop it, to a fixpoint.
  for (bool changed = true; changed;) {
    changed = false;
    for (Block &b : llvm::make_early_inc_range(llvm::drop_begin(body))) {
      if (!b.hasNoPredecessors())
        continue;
      b.dropAllDefinedValueUses();
      b.dropAllReferences();
      b.erase();
      changed = true;
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

void zluda::frontend::releaseMappedText(const llvm::MemoryBuffer &text,
                                        const char *upTo) {
  if (text.getBufferKind() != llvm::MemoryBuffer::MemoryBuffer_MMap)
    return;
  auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  auto begin = reinterpret_cast<uintptr_t>(text.getBufferStart());
  auto end = reinterpret_cast<uintptr_t>(upTo ? upTo : text.getBufferEnd());
  // Whole pages of the mapping (which starts at the file's first byte).
  begin = (begin + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

OwningOpRef<ModuleOp> zluda::frontend::parsePTX(llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context,
                                                const ParseOptions &options) {
  context->getOrLoadDialect<PTXDialect>();
  Parser parser(sourceMgr, context);
  parser.options = options;
  return parser.parseModule();
}
