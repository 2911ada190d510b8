//===- PTXLexer.h - Tokens of PTX text --------------------------*- C++ -*-===//

#ifndef ZLUDA_COMPILER_FRONTEND_PTXLEXER_H
#define ZLUDA_COMPILER_FRONTEND_PTXLEXER_H

#include "llvm/ADT/StringRef.h"

namespace zluda::frontend {

struct Token {
  enum Kind {
    Eof,
    Error,      ///< a character or literal the lexer cannot read
    Ident,      ///< `add`, `%r1`, `$L__BB0_1`, `_Z3fooi`, `_`
    DotWord,    ///< `.global`, `.shared::cta`, `.L2::cache_hint` (with dot)
    Integer,    ///< `42`, `0x1F`, `017`, `0b101`, `42U`
    Float,      ///< `1.5`, `1e-3`, `0f3F800000`, `0d3FF0000000000000`
    String,     ///< `"text"` (with quotes)
    Comma,
    Semi,
    Colon,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    LAngle,
    RAngle,
    Plus,
    Minus,
    Bang,
    At,
    Pipe,
    Equal,
    Tilde,
  };
  Kind kind = Eof;
  llvm::StringRef text;
  unsigned line = 0;
  unsigned col = 0;

  bool is(Kind k) const { return kind == k; }
  bool isDot(llvm::StringRef word) const {
    return kind == DotWord && text.drop_front() == word;
  }
};

/// Splits PTX source into tokens, skipping whitespace and comments and
/// tracking 1-based line and column numbers.
class Lexer {
public:
  explicit Lexer(llvm::StringRef buffer) : buf(buffer) {}
  Token next();
  /// Current position (for skipping raw text such as DWARF sections).
  const char *position() const { return buf.data() + pos; }

private:
  void skipSpaceAndComments();
  Token make(Token::Kind kind, size_t start, unsigned line, unsigned col);
  char peek(size_t ahead = 0) const {
    return pos + ahead < buf.size() ? buf[pos + ahead] : '\0';
  }
  void advance();

  llvm::StringRef buf;
  size_t pos = 0;
  unsigned line = 1;
  size_t lineStart = 0;
};

} // namespace zluda::frontend

#endif // ZLUDA_COMPILER_FRONTEND_PTXLEXER_H
