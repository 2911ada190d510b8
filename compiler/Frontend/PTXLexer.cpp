//===- PTXLexer.cpp - Tokens of PTX text ----------------------------------===//

#include "compiler/Frontend/PTXLexer.h"

#include "llvm/ADT/StringExtras.h"

using namespace zluda::frontend;

static bool isIdentStart(char c) {
  return llvm::isAlpha(c) || c == '_' || c == '$' || c == '%';
}
static bool isIdentChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == '$';
}

void Lexer::advance() {
  // Columns are derived from the start of the line when a token is made;
  // only newlines need bookkeeping.
  if (buf[pos] == '\n') {
    ++line;
    lineStart = pos + 1;
  }
  ++pos;
}

void Lexer::skipSpaceAndComments() {
  while (pos < buf.size()) {
    char c = buf[pos];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++pos;
    } else if (c == '\n') {
      advance();
    } else if (c == '/' && peek(1) == '/') {
      size_t eol = buf.find('\n', pos);
      pos = eol == llvm::StringRef::npos ? buf.size() : eol;
    } else if (c == '/' && peek(1) == '*') {
      // Unterminated: left where it starts, for next() to report.
      size_t end = buf.find("*/", pos + 2);
      if (end == llvm::StringRef::npos)
        return;
      while (pos < end + 2)
        advance();
    } else {
      return;
    }
  }
}

Token Lexer::make(Token::Kind kind, size_t start, unsigned tokLine,
                  unsigned tokCol) {
  Token t;
  t.kind = kind;
  t.text = buf.slice(start, pos);
  t.line = tokLine;
  t.col = tokCol;
  return t;
}

Token Lexer::next() {
  skipSpaceAndComments();
  size_t start = pos;
  unsigned tokLine = line, tokCol = static_cast<unsigned>(pos - lineStart) + 1;
  if (pos >= buf.size())
    return make(Token::Eof, start, tokLine, tokCol);
  char c = buf[pos];
  if (c == '/' && peek(1) == '*') { // a comment without its `*/`
    pos += 2;
    Token t = make(Token::Error, start, tokLine, tokCol);
    pos = buf.size();
    return t;
  }

  // `.word` and `.word::word` (state spaces, cache levels, modifiers).
  if (c == '.' && (isIdentStart(peek(1)) && peek(1) != '%')) {
    ++pos;
    while (pos < buf.size()) {
      if (isIdentChar(buf[pos]))
        ++pos;
      else if (buf[pos] == ':' && peek(1) == ':' && isIdentChar(peek(2)))
        pos += 2;
      else
        break;
    }
    return make(Token::DotWord, start, tokLine, tokCol);
  }
  // Modifiers that start with a digit: `.2d`, `.16x64b`, `.1d`.
  if (c == '.' && llvm::isDigit(peek(1)) && pos > 0 &&
      isIdentChar(buf[pos - 1])) {
    advance();
    while (pos < buf.size() &&
           (isIdentChar(buf[pos]) || (buf[pos] == ':' && peek(1) == ':'))) {
      if (buf[pos] == ':')
        advance();
      advance();
    }
    return make(Token::DotWord, start, tokLine, tokCol);
  }

  if (isIdentStart(c)) {
    ++pos;
    while (pos < buf.size() && isIdentChar(buf[pos]))
      ++pos;
    return make(Token::Ident, start, tokLine, tokCol);
  }

  if (llvm::isDigit(c) || (c == '.' && llvm::isDigit(peek(1)))) {
    // Hex floats 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX.
    if (c == '0' && (peek(1) == 'f' || peek(1) == 'F' || peek(1) == 'd' ||
                     peek(1) == 'D')) {
      size_t digits = (peek(1) == 'f' || peek(1) == 'F') ? 8 : 16;
      ++pos;
      ++pos;
      size_t n = 0;
      while (pos < buf.size() && llvm::isHexDigit(buf[pos])) {
        ++pos;
        ++n;
      }
      return make(n == digits ? Token::Float : Token::Error, start, tokLine,
                  tokCol);
    }
    if (c == '0' && (peek(1) == 'x' || peek(1) == 'X')) {
      ++pos;
      ++pos;
      while (pos < buf.size() && llvm::isHexDigit(buf[pos]))
        ++pos;
    } else if (c == '0' && (peek(1) == 'b' || peek(1) == 'B') &&
               (peek(2) == '0' || peek(2) == '1')) {
      ++pos;
      ++pos;
      while (pos < buf.size() && (buf[pos] == '0' || buf[pos] == '1'))
        ++pos;
    } else {
      bool isFloat = false;
      while (pos < buf.size() && llvm::isDigit(buf[pos]))
        ++pos;
      if (peek() == '.' && !isIdentStart(peek(1))) {
        isFloat = true;
        ++pos;
        while (pos < buf.size() && llvm::isDigit(buf[pos]))
          ++pos;
      }
      if ((peek() == 'e' || peek() == 'E') &&
          (llvm::isDigit(peek(1)) ||
           ((peek(1) == '-' || peek(1) == '+') && llvm::isDigit(peek(2))))) {
        isFloat = true;
        ++pos;
        if (buf[pos] == '-' || buf[pos] == '+')
          ++pos;
        while (pos < buf.size() && llvm::isDigit(buf[pos]))
          ++pos;
      }
      if (isFloat)
        return make(Token::Float, start, tokLine, tokCol);
    }
    if (peek() == 'U' || peek() == 'u')
      ++pos;
    if (pos < buf.size() && isIdentChar(buf[pos])) {
      while (pos < buf.size() && isIdentChar(buf[pos]))
        ++pos;
      return make(Token::Error, start, tokLine, tokCol);
    }
    return make(Token::Integer, start, tokLine, tokCol);
  }

  if (c == '"') {
    advance();
    while (pos < buf.size() && buf[pos] != '"' && buf[pos] != '\n') {
      if (buf[pos] == '\\' && pos + 1 < buf.size())
        advance();
      advance();
    }
    if (pos >= buf.size() || buf[pos] != '"')
      return make(Token::Error, start, tokLine, tokCol);
    advance();
    return make(Token::String, start, tokLine, tokCol);
  }

  Token::Kind kind;
  switch (c) {
  case ',':
    kind = Token::Comma;
    break;
  case ';':
    kind = Token::Semi;
    break;
  case ':':
    kind = Token::Colon;
    break;
  case '{':
    kind = Token::LBrace;
    break;
  case '}':
    kind = Token::RBrace;
    break;
  case '[':
    kind = Token::LBracket;
    break;
  case ']':
    kind = Token::RBracket;
    break;
  case '(':
    kind = Token::LParen;
    break;
  case ')':
    kind = Token::RParen;
    break;
  case '<':
    kind = Token::LAngle;
    break;
  case '>':
    kind = Token::RAngle;
    break;
  case '+':
    kind = Token::Plus;
    break;
  case '-':
    kind = Token::Minus;
    break;
  case '!':
    kind = Token::Bang;
    break;
  case '@':
    kind = Token::At;
    break;
  case '|':
    kind = Token::Pipe;
    break;
  case '=':
    kind = Token::Equal;
    break;
  case '~':
    kind = Token::Tilde;
    break;
  default:
    kind = Token::Error;
    break;
  }
  advance();
  return make(kind, start, tokLine, tokCol);
}
