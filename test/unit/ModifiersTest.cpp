// Tests of modifier classification: the same spelling lands in the class the
// opcode accepts, and unknown or duplicate modifiers are reported.
#include "dialects/ptx/PTXDialect.h"
#include "dialects/ptx/PTXOps.h"

#include "mlir/IR/MLIRContext.h"

#include <catch2/catch.hpp>

using namespace zluda::ptx;

namespace {
struct Fixture {
  Fixture() { ctx.loadDialect<PTXDialect>(); }
  const InstSpec &spec(llvm::StringRef mnemonic) {
    const InstSpec *s = lookupInstSpec(&ctx, mnemonic);
    REQUIRE(s != nullptr);
    return *s;
  }
  mlir::MLIRContext ctx;
};
} // namespace

TEST_CASE_METHOD(Fixture, "every instruction op has a spec") {
  CHECK(lookupInstSpec(&ctx, "add") != nullptr);
  CHECK(lookupInstSpec(&ctx, "cp.async.bulk.tensor") != nullptr);
  CHECK(lookupInstSpec(&ctx, "tcgen05.mma.ws") != nullptr);
  CHECK(lookupInstSpec(&ctx, "vabsdiff4") != nullptr);
  CHECK(lookupInstSpec(&ctx, "global") == nullptr); // a structure op
  CHECK(lookupInstSpec(&ctx, "no.such.op") == nullptr);
}

TEST_CASE_METHOD(Fixture, ".lo is a comparison on setp and a mode on mul") {
  ModifierBuilder setp, mul;
  REQUIRE_FALSE(setp.add(&ctx, "lo", spec("setp")));
  REQUIRE_FALSE(mul.add(&ctx, "lo", spec("mul")));
  CHECK(setp.cmp == CmpOp::lo);
  CHECK_FALSE(setp.mode.has_value());
  CHECK(mul.mode == Mode::lo);
  CHECK_FALSE(mul.cmp.has_value());
}

TEST_CASE_METHOD(Fixture, ".and is a boolean op on setp and a reduction on atom") {
  ModifierBuilder setp, atom;
  REQUIRE_FALSE(setp.add(&ctx, "and", spec("setp")));
  REQUIRE_FALSE(atom.add(&ctx, "and", spec("atom")));
  CHECK(setp.boolOp == BoolOp::and_);
  CHECK(atom.redOp == ReduceOp::and_);
}

TEST_CASE_METHOD(Fixture, "types keep their order") {
  ModifierBuilder b;
  for (llvm::StringRef t : {"rn", "f32", "s32"})
    REQUIRE_FALSE(b.add(&ctx, t, spec("cvt")));
  REQUIRE(b.types.size() == 2);
  CHECK(b.types[0] == TypeKind::f32);
  CHECK(b.types[1] == TypeKind::s32);
  CHECK(b.rounding == RoundingMode::rn);
}

TEST_CASE_METHOD(Fixture, "shapes, counts and vectors are parsed") {
  ModifierBuilder b;
  for (llvm::StringRef t : {"sync", "aligned", "m8n8", "x4", "trans", "shared", "b16"})
    REQUIRE_FALSE(b.add(&ctx, t, spec("ldmatrix")));
  CHECK(b.shape == llvm::SmallVector<int64_t, 3>{8, 8});
  CHECK(b.count == 4);
  ModifierBuilder v;
  REQUIRE_FALSE(v.add(&ctx, "v4", spec("ld")));
  CHECK(v.vec == 4);
}

TEST_CASE_METHOD(Fixture, "unknown and duplicate modifiers are errors") {
  ModifierBuilder b;
  auto err = b.add(&ctx, "bogus", spec("add"));
  REQUIRE(err);
  CHECK(*err == "unknown modifier '.bogus'");
  REQUIRE_FALSE(b.add(&ctx, "rn", spec("add")));
  auto dup = b.add(&ctx, "rz", spec("add"));
  REQUIRE(dup);
  CHECK(*dup == "duplicate rounding modifier '.rz'");
  // A flag the opcode does not take is unknown for it.
  CHECK(b.add(&ctx, "trans", spec("add")));
}

TEST_CASE_METHOD(Fixture, "modifiers print back in PTX dot syntax") {
  ModifierBuilder b;
  for (llvm::StringRef t : {"global", "nc", "v4", "f32"})
    REQUIRE_FALSE(b.add(&ctx, t, spec("ld")));
  std::string s;
  llvm::raw_string_ostream os(s);
  printModifiers(os, b.get(&ctx));
  CHECK(s == "global.v4.nc.f32");
}
