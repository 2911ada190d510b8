//===- Diagnostics.cpp - Diagnostics in PTX's terms -----------------------===//

#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/Twine.h"

namespace {

/// A quoted token (no space in it) longer than this is cut.
constexpr size_t kMaxQuoted = 64;
constexpr size_t kKeptOfQuoted = 60;

/// `message` with each long quoted token cut: its first characters, `...`,
/// and its length (a 5,000-character identifier is not repeated whole).
std::string cutLongTokens(llvm::StringRef message) {
  std::string out;
  size_t at = 0;
  while (at < message.size()) {
    size_t open = message.find('\'', at);
    size_t close = open == llvm::StringRef::npos ? llvm::StringRef::npos
                                                 : message.find('\'', open + 1);
    if (close == llvm::StringRef::npos) {
      out += message.drop_front(at).str();
      break;
    }
    llvm::StringRef token = message.slice(open + 1, close);
    out += message.slice(at, open + 1).str();
    if (token.size() > kMaxQuoted && !token.contains(' ')) {
      out += token.take_front(kKeptOfQuoted).str() + "...'";
      // ... and how long it was.
      out += " (" + std::to_string(token.size()) + " characters)";
    } else {
      out += token.str() + "'";
    }
    at = close + 1;
  }
  return out;
}

std::string rewriteOpName(llvm::StringRef message) {
  // "'dialect.name' op rest"
  if (!message.starts_with("'"))
    return message.str();
  size_t close = message.find("' op ", 1);
  if (close == llvm::StringRef::npos)
    return message.str();
  llvm::StringRef name = message.slice(1, close);
  llvm::StringRef rest = message.drop_front(close + 5);
  auto [dialect, op] = name.split('.');
  if (dialect != "ptx")
    return (llvm::Twine("internal compiler error (") + name + "): " + rest)
        .str();
  // Declarations are PTX directives; instructions their mnemonics.
  bool directive = op == "global" || op == "entry" || op == "func" ||
                   op == "shared" || op == "const";
  if (op == "local_var")
    op = "local", directive = true;
  return (llvm::Twine(directive ? "." : "") + op + ": " + rest).str();
}

} // namespace

std::string zluda::userDiagnostic(llvm::StringRef message) {
  return cutLongTokens(rewriteOpName(message));
}
