//===- ModifierWords.h - The words instructions keep verbatim ---*- C++ -*-===//
//
// Most modifiers have a class (type, state space, rounding, flag...); the
// rest are kept as written ("extras": membar's .gl, txq's .width, mma's
// .row/.col). ptxas knows each instruction's words and refuses any other
// ("Unknown modifier '.foo'"); so does this table. The memory barriers
// (membar, fence) have their forms checked here as well: the level or
// scope each needs, the proxy kinds, what each form takes.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_FRONTEND_MODIFIERWORDS_H
#define ZLUDA_COMPILER_FRONTEND_MODIFIERWORDS_H

#include "dialects/ptx/PTXDialect.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace zluda::frontend {

/// Whether `mods` keeps the word `word` verbatim (`range` of
/// createpolicy.range).
bool hasExtra(ptx::ModifiersAttr mods, llvm::StringRef word);

/// What is wrong with the words instruction `mnemonic` keeps verbatim in
/// `mods`, if anything: one it does not know ("'membar' has no modifier
/// .foo"). Instructions whose words are checked with their forms (tex,
/// suld, sust, cvt, wmma, cp.async.bulk) and tcgen05's (not lowered:
/// refused by name as unsupported) are not in the table and pass.
std::optional<std::string> checkExtraWords(llvm::StringRef mnemonic,
                                           ptx::ModifiersAttr mods);

/// membar's and fence's forms (ptxas: "Membar level required", "Scope
/// modifier required for instruction 'fence'", ".proxykind modifier
/// required"): `spelled` is the modifiers as written, in order;
/// `ptxVersion` the module's .version as major * 10 + minor.
std::optional<std::string>
checkBarrierForms(llvm::StringRef mnemonic, ptx::ModifiersAttr mods,
                  llvm::ArrayRef<llvm::StringRef> spelled, unsigned ptxVersion);

} // namespace zluda::frontend

#endif // ZLUDA_COMPILER_FRONTEND_MODIFIERWORDS_H
