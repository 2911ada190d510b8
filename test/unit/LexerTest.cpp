// Tests of the PTX lexer: token kinds, spellings and positions.
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/PTXLexer.h"

#include <catch2/catch.hpp>

#include <vector>

using zluda::frontend::Lexer;
using zluda::frontend::Token;

static std::vector<Token> lexAll(llvm::StringRef text) {
  Lexer lexer(text);
  std::vector<Token> out;
  while (true) {
    Token t = lexer.next();
    if (t.is(Token::Eof))
      break;
    out.push_back(t);
  }
  return out;
}

TEST_CASE("opcode and modifiers split into an identifier and dot-words") {
  auto toks = lexAll("ld.global.nc.L2::256B.v4.f32");
  REQUIRE(toks.size() == 6);
  CHECK(toks[0].is(Token::Ident));
  CHECK(toks[0].text == "ld");
  CHECK(toks[3].is(Token::DotWord));
  CHECK(toks[3].text == ".L2::256B");
  CHECK(toks[5].text == ".f32");
}

TEST_CASE("modifiers starting with a digit stay dot-words") {
  auto toks = lexAll("tex.2d.v4 cp.async.bulk.tensor.1d");
  REQUIRE(toks.size() == 8);
  CHECK(toks[1].is(Token::DotWord));
  CHECK(toks[1].text == ".2d");
  CHECK(toks[7].text == ".1d");
}

TEST_CASE("numeric literals of every PTX form") {
  auto toks = lexAll("42 0x1F 017 0b101 42U 1.5 1e-3 0f3F800000 "
                     "0d3FF0000000000000 .5");
  REQUIRE(toks.size() == 10);
  for (int i : {0, 1, 2, 3, 4})
    CHECK(toks[i].is(Token::Integer));
  for (int i : {5, 6, 7, 8, 9})
    CHECK(toks[i].is(Token::Float));
}

TEST_CASE("malformed literals are error tokens") {
  CHECK(lexAll("0f3F80")[0].is(Token::Error)); // too few hex digits
  CHECK(lexAll("12abc")[0].is(Token::Error));  // junk after digits
  CHECK(lexAll("\"unterminated")[0].is(Token::Error));
  CHECK(lexAll("#")[0].is(Token::Error));
}

TEST_CASE("registers, labels and punctuation") {
  auto toks = lexAll("@!%p1 bra $L__BB0_2; %r<100> [%rd1+-4] {a|b}");
  std::vector<Token::Kind> kinds;
  for (auto &t : toks)
    kinds.push_back(t.kind);
  std::vector<Token::Kind> expected = {
      Token::At,      Token::Bang,   Token::Ident,    Token::Ident,
      Token::Ident,   Token::Semi,   Token::Ident,    Token::LAngle,
      Token::Integer, Token::RAngle, Token::LBracket, Token::Ident,
      Token::Plus,    Token::Minus,  Token::Integer,  Token::RBracket,
      Token::LBrace,  Token::Ident,  Token::Pipe,     Token::Ident,
      Token::RBrace};
  CHECK(kinds == expected);
  CHECK(toks[4].text == "$L__BB0_2");
}

TEST_CASE("comments are skipped and positions are 1-based") {
  auto toks = lexAll("// line comment\n  /* block\n comment */ add;");
  REQUIRE(toks.size() == 2);
  CHECK(toks[0].text == "add");
  CHECK(toks[0].line == 3);
  CHECK(toks[0].col == 13);
}

TEST_CASE("diagnostics speak PTX: op names become mnemonics and directives") {
  using zluda::userDiagnostic;
  CHECK(userDiagnostic("'ptx.add' op result of 64 bits") ==
        "add: result of 64 bits");
  CHECK(userDiagnostic("'ptx.global' op alignment 3 is not a power of two") ==
        ".global: alignment 3 is not a power of two");
  CHECK(userDiagnostic("'ptx.local_var' op alignment 3") ==
        ".local: alignment 3");
  // Another dialect's verifier failing is the lowering's fault, not the
  // input's: said so.
  CHECK(userDiagnostic("'llvm.cmpxchg' op operand #1 must be signless") ==
        "internal compiler error (llvm.cmpxchg): operand #1 must be signless");
  CHECK(userDiagnostic("unsupported: tex.1d") == "unsupported: tex.1d");
  CHECK(userDiagnostic("'quoted' but not an op") == "'quoted' but not an op");
}

TEST_CASE("diagnostics cut long quoted tokens") {
  using zluda::userDiagnostic;
  std::string longName = "frob" + std::string(5000, 'x');
  std::string cut = userDiagnostic("unknown instruction '" + longName + "'");
  CHECK(cut == "unknown instruction '" + longName.substr(0, 60) +
                   "...' (5004 characters)");
  // Through the op-name rewrite too; short tokens and quoted text with
  // spaces stay as they are.
  CHECK(userDiagnostic("'ptx.call' op callee '" + longName +
                       "' is not a function")
            .size() < 120);
  std::string sentence = "'" + std::string(100, 'a') + " b'";
  CHECK(userDiagnostic(sentence) == sentence);
  CHECK(userDiagnostic("register '%r1' undefined") ==
        "register '%r1' undefined");
}
