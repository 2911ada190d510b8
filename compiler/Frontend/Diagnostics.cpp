//===- Diagnostics.cpp - Diagnostics in PTX's terms -----------------------===//

#include "compiler/Frontend/Diagnostics.h"

#include "llvm/ADT/Twine.h"

std::string zluda::userDiagnostic(llvm::StringRef message) {
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
