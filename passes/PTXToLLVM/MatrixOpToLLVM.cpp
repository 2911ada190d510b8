//===- MatrixOpToLLVM.cpp - Warp-level matrix instructions ----------------===//
//
// mma.sync, wmma.load/store/mma, ldmatrix, stmatrix and movmatrix on targets
// without NVIDIA's instructions, in software: each lane gathers the rows of
// A and the columns of B its accumulator elements need with lane shuffles
// and sums them as NVIDIA's tensor cores do, measured on the H200 (exact
// products aligned and truncated, summed exactly, rounded toward zero;
// alignedProductSum), integers and f64 exactly (docs/lowering.md, "Matrix
// instructions"). A target with NVIDIA's own instructions keeps them
// (NativeOpToLLVM.cpp).
//
// Every mma.sync fragment of the forms lowered here follows one pattern in
// the PTX ISA: with the lane's group g = lane >> 2 and its thread in the
// group t = lane & 3, a register of A holds row g of an 8-row block and kt
// consecutive k from t * kt (kt = 32 / element bits, 1 for f64), a register
// of B column g of an 8-column block and the same k, and the accumulator
// the columns 2t and 2t + 1 of row g of a block. wmma's fragments PTX
// leaves to the implementation: ours are the same blocks (wmma.load and
// wmma.store place them), repeated where PTX's fragment has more registers
// than elements.
//
//===----------------------------------------------------------------------===//

#include "passes/PTXToLLVM/PatternPTXToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

#include <limits>
#include <map>

using namespace mlir;
using namespace zluda::ptx;
using namespace zluda::ptx::lowering;

namespace {

/// How a matrix product lays out its fragments (see the file comment).
struct Geometry {
  unsigned m = 0, n = 0, k = 0;
  /// Width of an element of A and B (64, 32, 16 or 8) and of C and D.
  unsigned abBits = 0, cBits = 0;
  /// Elements of A and B in one register.
  unsigned kt() const { return abBits >= 32 ? 1 : 32 / abBits; }
  unsigned nM() const { return m / 8; }
  unsigned nN() const { return n / 8; }
  unsigned nK() const { return k / (4 * kt()); }
  unsigned aRegs() const { return nM() * nK(); }
  unsigned bRegs() const { return nN() * nK(); }
  /// Accumulator elements in one register: two halves, else one.
  unsigned cPerReg() const { return cBits == 16 ? 2 : 1; }
  unsigned cRegs() const { return nM() * nN() * 2 / cPerReg(); }
  bool valid() const {
    return m && n && k && m % 8 == 0 && n % 8 == 0 && abBits &&
           k % (4 * kt()) == 0 && nK() > 0;
  }
};

/// Where element `e` of register `r` of a fragment sits in its matrix, for
/// the lane (g, t): A is M x K, B is K x N, C and D are M x N.
struct Place {
  unsigned rowBlock, colBlock; ///< the 8-row / 8-column block
  unsigned k;                  ///< A, B: k less t * kt
  unsigned j;                  ///< C: the column less 2t
};

enum class Role { A, B, C };

Place place(const Geometry &g, Role role, unsigned r, unsigned e) {
  switch (role) {
  case Role::A:
    return {r % g.nM(), 0, e + 4 * g.kt() * (r / g.nM()), 0};
  case Role::B:
    return {0, r / g.nK(), e + 4 * g.kt() * (r % g.nK()), 0};
  case Role::C: {
    unsigned pair = g.cPerReg() == 2 ? r : r / 2;
    unsigned j = g.cPerReg() == 2 ? e : r % 2;
    return {pair % g.nM(), pair / g.nM(), 0, j};
  }
  }
  return {};
}

/// Registers of `role`'s fragment holding distinct elements.
unsigned uniqueRegs(const Geometry &g, Role role) {
  return role == Role::A ? g.aRegs() : role == Role::B ? g.bRegs() : g.cRegs();
}

/// The width of an element kind the products here take (f16, bf16, tf32,
/// f32, f64, s8, u8, s32); 0 for the others (FP8, sub-byte, packed).
unsigned typeBits(TypeKind k) {
  static constexpr TypeKind lowered[] = {
      TypeKind::f16, TypeKind::bf16, TypeKind::tf32, TypeKind::f32,
      TypeKind::f64, TypeKind::s8,   TypeKind::u8,   TypeKind::s32};
  return llvm::is_contained(lowered, k) ? getTypeBitWidth(k) : 0;
}

bool isIntegerKind(TypeKind k) {
  return k == TypeKind::s8 || k == TypeKind::u8 || k == TypeKind::s32;
}

/// The operand types of a product: D, A, B, C.
struct ProductTypes {
  TypeKind d, a, b, c;
};

/// mma.sync's and wmma.mma's types: four (D A B C), or wmma's two (D C)
/// with f16 A and B.
std::optional<ProductTypes> productTypes(ModifiersAttr mods) {
  ArrayRef<TypeKind> t = mods.getTypes();
  if (t.size() == 4)
    return ProductTypes{t[0], t[1], t[2], t[3]};
  if (t.size() == 2)
    return ProductTypes{t[0], TypeKind::f16, TypeKind::f16, t[1]};
  return std::nullopt;
}

/// The product's geometry, or none for a form this file does not lower
/// (sub-byte and single-bit types, FP8, m8n8k4 on halves: the quad-pair
/// layout of sm_70).
std::optional<Geometry> productGeometry(ModifiersAttr mods) {
  ArrayRef<int64_t> s = mods.getShape();
  std::optional<ProductTypes> t = productTypes(mods);
  if (s.size() != 3 || !t)
    return std::nullopt;
  bool intA = isIntegerKind(t->a), intB = isIntegerKind(t->b);
  if (intA != intB ||
      (intA && (t->c != TypeKind::s32 || t->d != TypeKind::s32)))
    return std::nullopt;
  if (t->a != t->b && !intA)
    return std::nullopt;
  bool floatAcc =
      t->c == TypeKind::f32 || t->c == TypeKind::f16 || t->c == TypeKind::f64;
  if (!intA && (!floatAcc || typeBits(t->c) != typeBits(t->d) ||
                (t->a == TypeKind::f64) != (t->c == TypeKind::f64)))
    return std::nullopt;
  if (t->a == TypeKind::bf16 || t->a == TypeKind::tf32)
    if (t->c != TypeKind::f32)
      return std::nullopt;
  Geometry g;
  g.m = s[0];
  g.n = s[1];
  g.k = s[2];
  g.abBits = typeBits(t->a);
  g.cBits = typeBits(t->c);
  if (!g.abBits || !g.valid())
    return std::nullopt;
  if (g.m == 8 && g.n == 8 && g.k == 4 && g.abBits == 16)
    return std::nullopt;
  return g;
}

/// The layout qualifier among the modifiers kept as words (`row`, `col`)
/// and the fragment (`a`, `b`, `c`, `d`) of wmma.load and wmma.store.
std::optional<StringRef> extraWord(ModifiersAttr mods,
                                   ArrayRef<StringRef> choices) {
  if (auto extras = mods.getExtras())
    for (Attribute e : extras)
      if (auto s = dyn_cast<StringAttr>(e))
        if (llvm::is_contained(choices, s.getValue()))
          return s.getValue();
  return std::nullopt;
}

/// wmma.load's and wmma.store's fragment, its element type and geometry.
struct WmmaFragment {
  Role role;
  TypeKind type;
  Geometry geometry;
  bool rowMajor;
};

std::optional<WmmaFragment> wmmaFragment(ModifiersAttr mods) {
  ArrayRef<int64_t> s = mods.getShape();
  std::optional<StringRef> frag = extraWord(mods, {"a", "b", "c", "d"});
  std::optional<StringRef> layout = extraWord(mods, {"row", "col"});
  std::optional<TypeKind> type = mods.getType();
  if (s.size() != 3 || !frag || !layout || !type || mods.getTypes().size() != 1)
    return std::nullopt;
  WmmaFragment f;
  f.role = *frag == "a" ? Role::A : *frag == "b" ? Role::B : Role::C;
  f.type = *type;
  f.rowMajor = *layout == "row";
  // A and B: halves, bf16, tf32, bytes, f64; C and D: f16, f32, s32, f64.
  static constexpr TypeKind abKinds[] = {TypeKind::f16,  TypeKind::bf16,
                                         TypeKind::tf32, TypeKind::s8,
                                         TypeKind::u8,   TypeKind::f64};
  static constexpr TypeKind cKinds[] = {TypeKind::f16, TypeKind::f32,
                                        TypeKind::s32, TypeKind::f64};
  if (f.role == Role::C ? !llvm::is_contained(cKinds, *type)
                        : !llvm::is_contained(abKinds, *type))
    return std::nullopt;
  unsigned bits = typeBits(*type);
  f.geometry.m = s[0];
  f.geometry.n = s[1];
  f.geometry.k = s[2];
  if (f.role == Role::C) {
    // The A/B width follows from the accumulator: f64 with f64, s32 with
    // bytes, f32 or f16 with halves (tf32 differs only in k).
    f.geometry.cBits = bits;
    f.geometry.abBits = bits == 64 ? 64 : *type == TypeKind::s32 ? 8 : 16;
    if (bits == 32 && *type == TypeKind::f32 && f.geometry.k == 8)
      f.geometry.abBits = 32;
  } else {
    f.geometry.abBits = bits;
    f.geometry.cBits = 32;
  }
  if (!f.geometry.valid())
    return std::nullopt;
  return f;
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

struct Builder {
  ConversionPatternRewriter &b;
  Location loc;
  const Lowering &l;
  Type i32;

  Builder(ConversionPatternRewriter &b, Location loc, const Lowering &l)
      : b(b), loc(loc), l(l), i32(b.getI32Type()) {}

  Value c32(int64_t v) { return constInt(b, loc, i32, v); }
  Value lane() {
    return l.target.getSpecialRegister(b, loc, SReg::laneid, 0, i32);
  }
  Value group() { return LLVM::LShrOp::create(b, loc, lane(), c32(2)); }
  Value thread() { return LLVM::AndOp::create(b, loc, lane(), c32(3)); }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return LLVM::MulOp::create(b, loc, x, y); }
  Value shl(Value x, int64_t s) {
    return LLVM::ShlOp::create(b, loc, x, c32(s));
  }
  Value or_(Value x, int64_t v) {
    return LLVM::OrOp::create(b, loc, x, c32(v));
  }

  /// `v` (32 or 64 bits) from lane `src` of the warp.
  Value shuffle(Value v, Value src) {
    Value all = c32(-1);
    if (bitWidth(v.getType()) == 32)
      return castTo(
          b, loc,
          l.target.createShuffle(b, loc, castTo(b, loc, v, i32), src, all),
          v.getType());
    Type i64 = b.getI64Type();
    Value x = castTo(b, loc, v, i64);
    Value lo = LLVM::TruncOp::create(b, loc, i32, x);
    Value hi = LLVM::TruncOp::create(
        b, loc, i32,
        LLVM::LShrOp::create(b, loc, x, constInt(b, loc, i64, 32)));
    lo = LLVM::ZExtOp::create(b, loc, i64,
                              l.target.createShuffle(b, loc, lo, src, all));
    hi = LLVM::ZExtOp::create(b, loc, i64,
                              l.target.createShuffle(b, loc, hi, src, all));
    Value w = LLVM::OrOp::create(
        b, loc, lo, LLVM::ShlOp::create(b, loc, hi, constInt(b, loc, i64, 32)));
    return castTo(b, loc, w, v.getType());
  }
  /// `v` from lane (lane & ~3) | t: the same group's thread t, as the
  /// target's fixed permute where it has one.
  Value fromGroupThread(Value v, unsigned t) {
    if (bitWidth(v.getType()) == 32)
      if (Value d = l.target.createFixedShuffle(b, loc, castTo(b, loc, v, i32),
                                                0x1c, t, 0))
        return castTo(b, loc, d, v.getType());
    return shuffle(v, or_(LLVM::AndOp::create(b, loc, lane(), c32(0x1c)), t));
  }

  /// Element `e` of kind `kind` of the register `reg`, as the value a
  /// product folds: f32 for the float kinds but f64, i32 for bytes.
  Value element(Value reg, TypeKind kind, unsigned e) {
    unsigned bits = typeBits(kind);
    if (bits == 64)
      return castTo(b, loc, reg, b.getF64Type());
    Value w = castTo(b, loc, reg, i32);
    if (kind == TypeKind::tf32) // the low 13 bits of the mantissa ignored
      return castTo(b, loc, LLVM::AndOp::create(b, loc, w, c32(~0x1fff)),
                    b.getF32Type());
    if (bits == 32)
      return castTo(b, loc, w, kind == TypeKind::f32 ? b.getF32Type() : i32);
    Value part = LLVM::LShrOp::create(b, loc, w, c32(e * bits));
    Value narrow = LLVM::TruncOp::create(b, loc, b.getIntegerType(bits), part);
    if (bits == 8)
      return kind == TypeKind::s8
                 ? Value(LLVM::SExtOp::create(b, loc, i32, narrow))
                 : Value(LLVM::ZExtOp::create(b, loc, i32, narrow));
    Type half = kind == TypeKind::bf16 ? Type(b.getBF16Type()) : b.getF16Type();
    return LLVM::FPExtOp::create(b, loc, b.getF32Type(),
                                 LLVM::BitcastOp::create(b, loc, half, narrow));
  }

  /// A value of type `t` at `ptr`.
  Value load(Type t, Value ptr, unsigned align) {
    return LLVM::LoadOp::create(b, loc, t, ptr, align);
  }
  Value offsetPtr(Value ptr, Value bytes) {
    return LLVM::GEPOp::create(b, loc, ptr.getType(), b.getI8Type(), ptr,
                               ValueRange{bytes});
  }
};

//===----------------------------------------------------------------------===//
// mma.sync and wmma.mma
//===----------------------------------------------------------------------===//

/// floor(log2 |x|) of an f32 `x` (its exponent, subnormals by their value)
/// as i32; `zeroExp` for a zero.
Value floatExponent(Builder &x, Value v, int64_t zeroExp) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  Value bits =
      LLVM::AndOp::create(b, loc, castTo(b, loc, v, x.i32), x.c32(0x7fffffff));
  Value field = LLVM::LShrOp::create(b, loc, bits, x.c32(23));
  Value normal = LLVM::SubOp::create(b, loc, field, x.c32(127));
  // A subnormal's mantissa m: 2^-149 * m, its top bit at 31 - clz(m).
  Value clz = LLVM::CountLeadingZerosOp::create(b, loc, x.i32, bits, false);
  Value sub = LLVM::SubOp::create(b, loc, x.c32(31 - 149), clz);
  using P = LLVM::ICmpPredicate;
  Value e = LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, field, x.c32(0)), sub,
      normal);
  return LLVM::SelectOp::create(
      b, loc, LLVM::ICmpOp::create(b, loc, P::eq, bits, x.c32(0)),
      x.c32(zeroExp), e);
}

/// An element of A or B as alignedProductSum takes it: its exponent
/// (floatExponent; `zeroExponent` for a zero) and its mantissa v * 2^-e:
/// in [1, 2) with the sign when finite (0 for a zero), exact; the element
/// itself when infinite or NaN.
struct Factor {
  Value exponent, mantissa;
};
constexpr int64_t zeroExponent = -900; // below every product's

Factor makeFactor(Builder &x, Value v) {
  Value e = floatExponent(x, v, zeroExponent);
  Value m =
      LLVM::LoadExpOp::create(x.b, x.loc, x.b.getF32Type(), v,
                              LLVM::SubOp::create(x.b, x.loc, x.c32(0), e));
  return {e, m};
}

/// NVIDIA's f32 accumulation of an f16, bf16 or tf32 product, measured on
/// the H200 (test/emu/matrix.py; every element of every recorded case
/// agrees): the products, exact, and C are aligned to the largest exponent
/// E among them (a product's taken as e(a) + e(b), before its mantissas'
/// carry), each truncated to a multiple of 2^(E - 25), summed exactly, and
/// the sum rounded toward zero to f32, overflowing to infinity. Infinities
/// and NaNs give what IEEE arithmetic on the exact products gives. An f16
/// accumulator is this f32 rounded to nearest f16.
///
/// In units of 2^(E - 25) a product is ma * mb * 2^(ea + eb + 25 - E)
/// (mantissas in [1, 2): their product exact in f32, below 4), under 2^27,
/// and C under 2^26: truncated to integers (a part below one unit, however
/// tiny, is 0) and summed in integers they give the sum exactly.
Value alignedProductSum(Builder &x, Value c,
                        ArrayRef<std::pair<Factor, Factor>> ab) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  Type f32 = b.getF32Type(), i64 = b.getI64Type();
  Value e = floatExponent(x, c, zeroExponent);
  SmallVector<Value> exps;
  for (auto &[fa, fb] : ab) {
    exps.push_back(x.add(fa.exponent, fb.exponent));
    e = LLVM::SMaxOp::create(b, loc, e, exps.back());
  }
  // E frozen: opaque to ScalarEvolution, which otherwise sees every later
  // shift by it as one expression over all 2k exponents, and the back
  // end's straight-line strength reduction spent 1.3 of wmma_gemm.sm_80's
  // 2.0 s checking those for poison (0.17 s frozen; the code objects of
  // the corpus have the same instruction and register counts).
  e = LLVM::FreezeOp::create(b, loc, e);
  // Up to 16 products (every form's k) sum below 2^31 in i32; C is added
  // in i64.
  Type acc = ab.size() <= 16 ? x.i32 : i64;
  auto units = [&](Value v, Value shift, Type t) -> Value {
    Value u = LLVM::FPToSIOp::create(
        b, loc, x.i32, LLVM::LoadExpOp::create(b, loc, f32, v, shift));
    return t == x.i32 ? u : Value(LLVM::SExtOp::create(b, loc, t, u));
  };
  Value up = LLVM::SubOp::create(b, loc, x.c32(25), e);
  Value products = constInt(b, loc, acc, 0);
  // The same sum over the mantissas (finite: below 2 each, their products
  // below 4) is infinite or NaN exactly when IEEE arithmetic on the exact
  // products is, and is then that result.
  Value special = makeFactor(x, c).mantissa;
  for (auto [k, pair] : llvm::enumerate(ab)) {
    auto &[fa, fb] = pair;
    Value m = LLVM::FMulOp::create(b, loc, fa.mantissa, fb.mantissa);
    products = LLVM::AddOp::create(b, loc, products,
                                   units(m, x.add(exps[k], up), acc));
    special = LLVM::FAddOp::create(b, loc, special, m);
  }
  Value sum = LLVM::AddOp::create(
      b, loc, units(c, up, i64),
      acc == i64 ? products
                 : Value(LLVM::SExtOp::create(b, loc, i64, products)));
  // Toward zero: the magnitude's top 24 bits, then scaled (exact unless it
  // overflows, to infinity as NVIDIA's does).
  Value neg = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, sum,
                                   constInt(b, loc, i64, 0));
  Value mag = LLVM::SelectOp::create(
      b, loc, neg, LLVM::SubOp::create(b, loc, constInt(b, loc, i64, 0), sum),
      sum);
  Value bits = LLVM::SubOp::create(
      b, loc, constInt(b, loc, i64, 64),
      LLVM::CountLeadingZerosOp::create(b, loc, i64, mag, false));
  Value drop = LLVM::SMaxOp::create(
      b, loc, LLVM::SubOp::create(b, loc, bits, constInt(b, loc, i64, 24)),
      constInt(b, loc, i64, 0));
  Value kept = LLVM::UIToFPOp::create(b, loc, f32,
                                      LLVM::LShrOp::create(b, loc, mag, drop));
  Value scale = x.add(LLVM::SubOp::create(b, loc, e, x.c32(25)),
                      LLVM::TruncOp::create(b, loc, x.i32, drop));
  Value r = LLVM::LoadExpOp::create(b, loc, f32, kept, scale);
  r = LLVM::SelectOp::create(b, loc, neg, LLVM::FNegOp::create(b, loc, r), r);
  Value nonFinite = LLVM::FCmpOp::create(
      b, loc, LLVM::FCmpPredicate::ueq, LLVM::FAbsOp::create(b, loc, special),
      constFloat(b, loc, f32, std::numeric_limits<float>::infinity()));
  return LLVM::SelectOp::create(b, loc, nonFinite, special, r);
}

/// D = A * B + C for the lane's accumulator elements, from the fragments'
/// registers `a`, `b`, `c` (each its distinct registers first). Float
/// products but f64 accumulate `chunk` k at a time (alignedProductSum).
SmallVector<Value> multiplyAccumulate(Builder &x, const Geometry &g,
                                      const ProductTypes &t, ValueRange a,
                                      ValueRange bregs, ValueRange c,
                                      bool satfinite, unsigned chunk,
                                      ArrayRef<Type> resultTypes) {
  OpBuilder &b = x.b;
  Location loc = x.loc;
  bool integer = isIntegerKind(t.a);
  bool f64 = t.c == TypeKind::f64;
  // .satfinite integer sums are kept in i64, clamped at the end.
  Type i64 = b.getI64Type();
  // A's registers of the lane's own group, from each of its four threads;
  // B's of the groups 2t and 2t + 1 (the lane's two accumulator columns).
  std::map<std::pair<unsigned, unsigned>, Value> aFrom;
  std::map<std::tuple<unsigned, unsigned, unsigned>, Value> bFrom;
  auto aReg = [&](unsigned r, unsigned tp) {
    auto &v = aFrom[{r, tp}];
    if (!v)
      v = x.fromGroupThread(a[r], tp);
    return v;
  };
  auto bReg = [&](unsigned r, unsigned tp, unsigned j) {
    auto &v = bFrom[{r, tp, j}];
    if (!v) {
      Value src = x.or_(x.shl(x.add(x.shl(x.thread(), 1), x.c32(j)), 2), tp);
      v = x.shuffle(bregs[r], src);
    }
    return v;
  };
  unsigned kt = g.kt();
  // Each element of A and B is a factor of two products (two accumulator
  // columns, two row blocks): its exponent and mantissa made once.
  DenseMap<std::pair<Value, unsigned>, Value> elements;
  auto element = [&](Value reg, TypeKind kind, unsigned e) -> Value {
    auto [it, inserted] = elements.try_emplace({reg, e});
    if (inserted)
      it->second = x.element(reg, kind, e);
    return it->second;
  };
  DenseMap<Value, Factor> factors;
  auto factor = [&](Value v) -> Factor {
    auto [it, inserted] = factors.try_emplace(v);
    if (inserted)
      it->second = makeFactor(x, v);
    return it->second;
  };
  SmallVector<Value> results;
  for (unsigned r = 0; r < g.cRegs(); ++r) {
    SmallVector<Value, 2> parts;
    for (unsigned e = 0; e < g.cPerReg(); ++e) {
      Place p = place(g, Role::C, r, e);
      Value sum;
      if (integer) {
        sum = x.element(c[r], TypeKind::s32, 0);
        if (satfinite)
          sum = LLVM::SExtOp::create(b, loc, i64, sum);
      } else {
        sum = x.element(c[r], t.c, e);
      }
      bool aligned = !integer && !f64;
      SmallVector<std::pair<Factor, Factor>> terms;
      for (unsigned kk = 0; kk < g.k; ++kk) {
        unsigned kb = kk / (4 * kt), tp = kk / kt % 4, ke = kk % kt;
        Value av = element(aReg(kb * g.nM() + p.rowBlock, tp), t.a, ke);
        Value bv = element(bReg(p.colBlock * g.nK() + kb, tp, p.j), t.b, ke);
        if (aligned) {
          terms.push_back({factor(av), factor(bv)});
          if (terms.size() == chunk || kk + 1 == g.k) {
            sum = alignedProductSum(x, sum, terms);
            terms.clear();
          }
        } else if (integer) {
          Value prod = x.mul(av, bv);
          if (satfinite)
            prod = LLVM::SExtOp::create(b, loc, i64, prod);
          sum = LLVM::AddOp::create(b, loc, sum, prod);
        } else {
          sum = LLVM::FMAOp::create(b, loc, av, bv, sum);
        }
      }
      if (integer && satfinite) {
        sum = LLVM::SMinOp::create(
            b, loc,
            LLVM::SMaxOp::create(b, loc, sum, constInt(b, loc, i64, INT32_MIN)),
            constInt(b, loc, i64, INT32_MAX));
        sum = LLVM::TruncOp::create(b, loc, x.i32, sum);
      } else if (!integer) {
        Value nan =
            LLVM::FCmpOp::create(b, loc, LLVM::FCmpPredicate::uno, sum, sum);
        if (t.d == TypeKind::f16)
          sum = LLVM::FPTruncOp::create(b, loc, b.getF16Type(), sum);
        if (satfinite) { // infinities become the largest finite value
          Type ft = sum.getType();
          double big = t.d == TypeKind::f16 ? 65504.0
                       : f64                ? std::numeric_limits<double>::max()
                                            : std::numeric_limits<float>::max();
          Value mx = constFloat(b, loc, ft, big);
          Value mn = constFloat(b, loc, ft, -big);
          sum = LLVM::MinNumOp::create(
              b, loc, LLVM::MaxNumOp::create(b, loc, sum, mn), mx);
        }
        if (!f64) // f64 products propagate NaNs as fma does (measured)
          sum = canonicalNaNIf(b, loc, nan, sum);
      }
      parts.push_back(sum);
    }
    Value reg = parts[0];
    if (parts.size() == 2) {
      Type i16 = b.getI16Type();
      Value lo = LLVM::ZExtOp::create(
          b, loc, x.i32, LLVM::BitcastOp::create(b, loc, i16, parts[0]));
      Value hi = LLVM::ZExtOp::create(
          b, loc, x.i32, LLVM::BitcastOp::create(b, loc, i16, parts[1]));
      reg = LLVM::OrOp::create(b, loc, lo, x.shl(hi, 16));
    }
    results.push_back(castTo(b, loc, reg, resultTypes[r]));
  }
  return results;
}

/// The sizes of an op's operand groups (`groups`), or one group per operand.
SmallVector<int32_t> operandGroups(Operation *op, size_t numArgs) {
  if (auto g = op->getAttrOfType<DenseI32ArrayAttr>("groups"))
    return SmallVector<int32_t>(g.asArrayRef());
  return SmallVector<int32_t>(numArgs, 1);
}

template <typename OpTy>
Results lowerMma(OpTy op, ValueRange args, ModifiersAttr mods,
                 ConversionPatternRewriter &b, const Lowering &l) {
  std::optional<Geometry> g = productGeometry(mods);
  std::optional<ProductTypes> t = productTypes(mods);
  SmallVector<int32_t> groups = operandGroups(op, args.size());
  if (!g || !t || groups.size() != 3)
    return failure();
  ValueRange a = args.take_front(groups[0]);
  ValueRange bregs = args.slice(groups[0], groups[1]);
  ValueRange c = args.slice(groups[0] + groups[1], groups[2]);
  if (a.size() < g->aRegs() || bregs.size() < g->bRegs() ||
      c.size() != g->cRegs() || op->getNumResults() != g->cRegs())
    return failure();
  // NVIDIA's wmma.mma on tf32 (m16n16k8) accumulates four k at a time, its
  // other products and mma.sync all of k at once (measured on the H200).
  unsigned chunk =
      std::is_same_v<OpTy, WmmaMmaOp> && t->a == TypeKind::tf32 ? 4 : g->k;
  bool satfinite = hasFlag(mods, Flag::satfinite);
  // One internal function per product form and module, called where the
  // instruction is: a product is hundreds of instructions, and a kernel may
  // hold a hundred of them (Triton's GEMMs).
  Location loc = op.getLoc();
  auto regType = [&](Value v) {
    return b.getIntegerType(bitWidth(v.getType()));
  };
  SmallVector<Value> inputs;
  SmallVector<Type> inputTypes, outputTypes;
  for (ValueRange group :
       {a.take_front(g->aRegs()), bregs.take_front(g->bRegs()), c})
    for (Value v : group) {
      inputTypes.push_back(regType(v));
      inputs.push_back(castTo(b, loc, v, inputTypes.back()));
    }
  for (Value r : op->getResults())
    outputTypes.push_back(regType(r));
  // Named by what the product depends on (not wmma's layouts, which only
  // its loads and stores see): one function for every instruction of it.
  std::string name = "__zluda_mma.m" + std::to_string(g->m) + "n" +
                     std::to_string(g->n) + "k" + std::to_string(g->k);
  for (TypeKind k : {t->d, t->a, t->b, t->c})
    name += "." + stringifyTypeKind(k).str();
  if (satfinite)
    name += ".satfinite";
  if (chunk != g->k)
    name += ".chunk" + std::to_string(chunk);
  auto module = op->template getParentOfType<ModuleOp>();
  auto resultStruct =
      LLVM::LLVMStructType::getLiteral(b.getContext(), outputTypes);
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fn = LLVM::LLVMFuncOp::create(
        b, loc, name, LLVM::LLVMFunctionType::get(resultStruct, inputTypes),
        LLVM::Linkage::Internal);
    // Its lanes exchange registers: every lane of the warp calls it, as the
    // instruction is `.sync.aligned`, and no pass may move a call where
    // fewer do.
    fn.setNoInline(true);
    fn.setConvergent(true);
    Block *entry = b.createBlock(&fn.getBody(), {}, inputTypes,
                                 SmallVector<Location>(inputTypes.size(), loc));
    b.setInsertionPointToStart(entry);
    ValueRange params = entry->getArguments();
    Builder x(b, loc, l);
    SmallVector<Value> d =
        multiplyAccumulate(x, *g, *t, params.take_front(g->aRegs()),
                           params.slice(g->aRegs(), g->bRegs()),
                           params.drop_front(g->aRegs() + g->bRegs()),
                           satfinite, chunk, outputTypes);
    Value packed = LLVM::PoisonOp::create(b, loc, resultStruct);
    for (auto [i, v] : llvm::enumerate(d))
      packed = LLVM::InsertValueOp::create(b, loc, packed, v,
                                           ArrayRef<int64_t>{int64_t(i)});
    LLVM::ReturnOp::create(b, loc, packed);
  }
  auto callOp =
      LLVM::CallOp::create(b, loc, TypeRange{resultStruct}, name, inputs);
  callOp.setConvergent(true);
  Value call = callOp.getResult();
  SmallVector<Value> results;
  for (auto [i, r] : llvm::enumerate(op->getResults()))
    results.push_back(castTo(b, loc,
                             LLVM::ExtractValueOp::create(
                                 b, loc, call, ArrayRef<int64_t>{int64_t(i)}),
                             r.getType()));
  return results;
}

/// mma.sync and wmma.mma: the forms productGeometry knows, with their
/// fragments' register counts (wmma's may repeat the distinct registers).
template <bool Wmma> std::string checkMma(Operation *op, const TargetInfo &) {
  ModifierPolicy policy;
  policy.extras = true;
  policy.tf32 = true;
  return checkModifiers(
      op, policy, [&](ModifiersAttr mods) -> std::optional<StringRef> {
        std::optional<Geometry> g = productGeometry(mods);
        if (!g ||
            (mods.getRounding() && *mods.getRounding() != RoundingMode::rn))
          return "";
        if (!Wmma && mods.getTypes().size() != 4)
          return "";
        SmallVector<int32_t> groups = operandGroups(op, op->getNumOperands());
        if (groups.size() != 3 ||
            static_cast<unsigned>(groups[0]) % g->aRegs() != 0 ||
            static_cast<unsigned>(groups[1]) % g->bRegs() != 0 ||
            static_cast<unsigned>(groups[2]) != g->cRegs() ||
            op->getNumResults() != g->cRegs())
          return "";
        if (!Wmma && (static_cast<unsigned>(groups[0]) != g->aRegs() ||
                      static_cast<unsigned>(groups[1]) != g->bRegs()))
          return "";
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// wmma.load and wmma.store
//===----------------------------------------------------------------------===//

/// The (row, column) in its matrix of element `e` of register `r` of the
/// lane's fragment, as i32 values.
std::pair<Value, Value> elementPosition(Builder &x, const WmmaFragment &f,
                                        unsigned r, unsigned e) {
  const Geometry &g = f.geometry;
  unsigned reg = r % uniqueRegs(g, f.role);
  Place p = place(g, f.role, reg, e);
  Value group = x.group(), thread = x.thread();
  switch (f.role) {
  case Role::A: // M x K
    return {x.add(group, x.c32(8 * p.rowBlock)),
            x.add(x.mul(thread, x.c32(g.kt())), x.c32(p.k))};
  case Role::B: // K x N
    return {x.add(x.mul(thread, x.c32(g.kt())), x.c32(p.k)),
            x.add(group, x.c32(8 * p.colBlock))};
  case Role::C:
    return {x.add(group, x.c32(8 * p.rowBlock)),
            x.add(x.shl(thread, 1), x.c32(p.j + 8 * p.colBlock))};
  }
  return {};
}

/// The matrix's columns (its row-major leading dimension).
unsigned matrixColumns(const WmmaFragment &f) {
  return f.role == Role::A ? f.geometry.k : f.geometry.n;
}
unsigned matrixRows(const WmmaFragment &f) {
  return f.role == Role::B ? f.geometry.k : f.geometry.m;
}

/// The element's byte offset: row-major (row * stride + col) or
/// column-major (col * stride + row) times its size.
Value elementOffset(Builder &x, const WmmaFragment &f, Value stride, unsigned r,
                    unsigned e) {
  auto [row, col] = elementPosition(x, f, r, e);
  Value index = f.rowMajor ? x.add(x.mul(row, stride), col)
                           : x.add(x.mul(col, stride), row);
  Value bytes = x.mul(index, x.c32(typeBits(f.type) / 8));
  return LLVM::SExtOp::create(x.b, x.loc, x.b.getI64Type(), bytes);
}

/// Elements of the fragment's type in one register.
unsigned elementsPerReg(const WmmaFragment &f) {
  unsigned bits = typeBits(f.type);
  return bits >= 32 ? 1 : 32 / bits;
}

Value wmmaStride(Builder &x, const WmmaFragment &f, ValueRange rest) {
  if (!rest.empty())
    return castTo(x.b, x.loc, rest.front(), x.i32);
  return x.c32(f.rowMajor ? matrixColumns(f) : matrixRows(f));
}

template <typename OpTy>
Results lowerWmmaLoad(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  std::optional<WmmaFragment> f = wmmaFragment(mods);
  if (!f)
    return failure();
  Builder x(b, op.getLoc(), l);
  Value base = l.pointer(b, op.getLoc(), args[0], mods.getSpace());
  Value stride = wmmaStride(x, *f, args.drop_front());
  unsigned bits = typeBits(f->type), per = elementsPerReg(*f);
  unsigned unique = uniqueRegs(f->geometry, f->role);
  SmallVector<Value> loaded;
  SmallVector<Value> results;
  for (unsigned r = 0; r < op->getNumResults(); ++r) {
    Type rt = op->getResult(r).getType();
    if (r >= unique) {
      results.push_back(castTo(b, op.getLoc(), loaded[r % unique], rt));
      continue;
    }
    Value word;
    Type wide = b.getIntegerType(std::max(32u, bits));
    for (unsigned e = 0; e < per; ++e) {
      Value p = x.offsetPtr(base, elementOffset(x, *f, stride, r, e));
      Value v = x.load(b.getIntegerType(bits), p, bits / 8);
      if (per == 1) {
        word = v;
        break;
      }
      v = LLVM::ShlOp::create(b, op.getLoc(),
                              LLVM::ZExtOp::create(b, op.getLoc(), wide, v),
                              x.c32(e * bits));
      word = word ? Value(LLVM::OrOp::create(b, op.getLoc(), word, v)) : v;
    }
    loaded.push_back(word);
    results.push_back(castTo(b, op.getLoc(), word, rt));
  }
  return results;
}

template <typename OpTy>
Results lowerWmmaStore(OpTy op, ValueRange args, ModifiersAttr mods,
                       ConversionPatternRewriter &b, const Lowering &l) {
  std::optional<WmmaFragment> f = wmmaFragment(mods);
  SmallVector<int32_t> groups = operandGroups(op, args.size());
  if (!f || groups.size() < 2)
    return failure();
  Builder x(b, op.getLoc(), l);
  Value base = l.pointer(b, op.getLoc(), args[0], mods.getSpace());
  ValueRange regs = args.slice(1, groups[1]);
  Value stride = wmmaStride(x, *f, args.drop_front(1 + groups[1]));
  unsigned bits = typeBits(f->type), per = elementsPerReg(*f);
  unsigned unique = uniqueRegs(f->geometry, f->role);
  for (unsigned r = 0; r < unique; ++r) {
    Value word =
        castTo(b, op.getLoc(), regs[r], b.getIntegerType(std::max(32u, bits)));
    for (unsigned e = 0; e < per; ++e) {
      Value v = word;
      if (per > 1)
        v = LLVM::TruncOp::create(
            b, op.getLoc(), b.getIntegerType(bits),
            LLVM::LShrOp::create(b, op.getLoc(), word, x.c32(e * bits)));
      Value p = x.offsetPtr(base, elementOffset(x, *f, stride, r, e));
      LLVM::StoreOp::create(b, op.getLoc(), v, p, bits / 8);
    }
  }
  return SmallVector<Value>{};
}

/// wmma.load and wmma.store: the fragments wmmaFragment knows, with as many
/// registers as ours or a multiple.
template <bool Store>
std::string checkWmmaMemory(Operation *op, const TargetInfo &) {
  ModifierPolicy policy;
  policy.extras = true;
  policy.tf32 = true;
  return checkModifiers(
      op, policy, [&](ModifiersAttr mods) -> std::optional<StringRef> {
        std::optional<WmmaFragment> f = wmmaFragment(mods);
        if (!f)
          return "";
        unsigned regs = Store ? operandGroups(op, op->getNumOperands())[1]
                              : op->getNumResults();
        unsigned unique = uniqueRegs(f->geometry, f->role);
        if (regs == 0 || regs % unique != 0 ||
            (f->role == Role::C && regs != unique))
          return "";
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// ldmatrix, stmatrix, movmatrix
//===----------------------------------------------------------------------===//

/// The space of ldmatrix's and stmatrix's address: .shared (a 32-bit LDS
/// offset) or generic.
bool sharedSpace(ModifiersAttr mods) {
  std::optional<StateSpace> s = mods.getSpace();
  return s == StateSpace::shared || s == StateSpace::shared_cta;
}

/// ldmatrix's and stmatrix's rows: each lane gives one row's address (as
/// an integer of its space's width), row r of matrix m that of lane
/// 8m + r.
struct RowAddresses {
  Builder &x;
  bool shared, trans;
  Value addr;

  RowAddresses(Builder &x, Value address, ModifiersAttr mods)
      : x(x), shared(sharedSpace(mods)), trans(hasFlag(mods, Flag::trans)) {
    Type t = shared ? x.i32 : x.b.getI64Type();
    addr = isa<LLVM::LLVMPointerType>(address.getType())
               ? Value(LLVM::PtrToIntOp::create(x.b, x.loc, t, address))
               : castTo(x.b, x.loc, address, t);
  }
  Value rowPointer(unsigned m, Value row) {
    Value a = x.shuffle(addr, x.add(row, x.c32(8 * m)));
    return x.l.pointer(x.b, x.loc, a,
                       shared ? std::optional<StateSpace>(StateSpace::shared)
                              : std::nullopt);
  }
  /// Where the lane's register of matrix `m` lives: row L >> 2 at byte
  /// 4(L & 3); transposed, its half `h` in row 2(L & 3) + h at byte
  /// 2(L >> 2).
  Value element(unsigned m, unsigned h) {
    if (!trans)
      return x.offsetPtr(rowPointer(m, x.group()), x.shl(x.thread(), 2));
    Value row = x.add(x.shl(x.thread(), 1), x.c32(h));
    return x.offsetPtr(rowPointer(m, row), x.shl(x.group(), 1));
  }
};

template <typename OpTy>
Results lowerLdmatrix(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  // Lane L's register m: row L >> 2 of matrix m, its columns 2(L & 3) and
  // 2(L & 3) + 1; transposed, column L >> 2 of rows 2(L & 3) and
  // 2(L & 3) + 1.
  Builder x(b, op.getLoc(), l);
  RowAddresses rows(x, args[0], mods);
  Type i16 = b.getI16Type();
  SmallVector<Value> results;
  for (unsigned m = 0; m < op->getNumResults(); ++m) {
    Value word;
    if (!rows.trans) {
      word = x.load(x.i32, rows.element(m, 0), 4);
    } else {
      Value halves[2];
      for (unsigned h = 0; h < 2; ++h)
        halves[h] = LLVM::ZExtOp::create(b, op.getLoc(), x.i32,
                                         x.load(i16, rows.element(m, h), 2));
      word =
          LLVM::OrOp::create(b, op.getLoc(), halves[0], x.shl(halves[1], 16));
    }
    results.push_back(castTo(b, op.getLoc(), word, op->getResult(m).getType()));
  }
  return results;
}

template <typename OpTy>
Results lowerStmatrix(OpTy op, ValueRange args, ModifiersAttr mods,
                      ConversionPatternRewriter &b, const Lowering &l) {
  // ldmatrix's inverse: each lane stores its word (or, transposed, its two
  // halves) where ldmatrix would have read them.
  Builder x(b, op.getLoc(), l);
  RowAddresses rows(x, args[0], mods);
  Type i16 = b.getI16Type();
  for (unsigned m = 0; m + 1 < args.size(); ++m) {
    Value word = castTo(b, op.getLoc(), args[m + 1], x.i32);
    if (!rows.trans) {
      LLVM::StoreOp::create(b, op.getLoc(), word, rows.element(m, 0), 4);
      continue;
    }
    for (unsigned h = 0; h < 2; ++h) {
      Value half = LLVM::TruncOp::create(
          b, op.getLoc(), i16,
          LLVM::LShrOp::create(b, op.getLoc(), word, x.c32(16 * h)));
      LLVM::StoreOp::create(b, op.getLoc(), half, rows.element(m, h), 2);
    }
  }
  return SmallVector<Value>{};
}

template <typename OpTy>
Results lowerMovmatrix(OpTy op, ValueRange args, ModifiersAttr,
                       ConversionPatternRewriter &b, const Lowering &l) {
  // Lane L's result holds row L >> 2, columns 2(L & 3) + h of the
  // transpose: the source's row 2(L & 3) + h, column L >> 2, which lane
  // (2(L & 3) + h) * 4 + (L >> 3) holds in half (L >> 2) & 1.
  Builder x(b, op.getLoc(), l);
  Location loc = op.getLoc();
  Value a = castTo(b, loc, args[0], x.i32);
  Value g = x.group();
  Value sel = x.shl(LLVM::AndOp::create(b, loc, g, x.c32(1)), 4);
  Value word;
  for (unsigned h = 0; h < 2; ++h) {
    Value src = LLVM::OrOp::create(
        b, loc, x.shl(x.add(x.shl(x.thread(), 1), x.c32(h)), 2),
        LLVM::LShrOp::create(b, loc, g, x.c32(1)));
    Value w = x.shuffle(a, src);
    Value half = LLVM::AndOp::create(
        b, loc, LLVM::LShrOp::create(b, loc, w, sel), x.c32(0xffff));
    half = x.shl(half, 16 * h);
    word = word ? Value(LLVM::OrOp::create(b, loc, word, half)) : half;
  }
  return one(castTo(b, loc, word, op->getResult(0).getType()));
}

/// ldmatrix, stmatrix, movmatrix: the m8n8 .b16 forms, .x1/.x2/.x4 (the
/// m16n16 / m8n16 byte forms of sm_100 are not lowered).
template <bool Move>
std::string checkMatrixMove(Operation *op, const TargetInfo &) {
  ModifierPolicy policy;
  return checkModifiers(
      op, policy, [&](ModifiersAttr mods) -> std::optional<StringRef> {
        ArrayRef<int64_t> s = mods.getShape();
        if (s.size() != 2 || s[0] != 8 || s[1] != 8 ||
            mods.getType() != TypeKind::b16 || mods.getTypes().size() != 1)
          return "";
        if (Move)
          return hasFlag(mods, Flag::trans) ? std::nullopt
                                            : std::optional<StringRef>("");
        unsigned count = mods.getCount();
        if (count != 1 && count != 2 && count != 4)
          return "";
        std::optional<StateSpace> sp = mods.getSpace();
        if (sp && sp != StateSpace::shared && sp != StateSpace::shared_cta)
          return "";
        return std::nullopt;
      });
}

} // namespace

void zluda::ptx::lowering::populateMatrixPatterns(TypeConverter &converter,
                                                  RewritePatternSet &patterns,
                                                  const TargetInfo &target,
                                                  LoweringState &state) {
  InstPatterns add(converter, patterns, target, state);
  add(lowerMma<MmaOp>, checkMma<false>);
  add(lowerMma<WmmaMmaOp>, checkMma<true>);
  add(lowerWmmaLoad<WmmaLoadOp>, checkWmmaMemory<false>);
  add(lowerWmmaStore<WmmaStoreOp>, checkWmmaMemory<true>);
  add(lowerLdmatrix<LdmatrixOp>, checkMatrixMove<false>);
  add(lowerStmatrix<StmatrixOp>, checkMatrixMove<false>);
  add(lowerMovmatrix<MovmatrixOp>, checkMatrixMove<true>);
}
