//===- Diagnostics.h - Diagnostics in PTX's terms ---------------*- C++ -*-===//
//
// What users read: messages name PTX instructions and directives, never the
// dialects' op names, and an error of the lowering's own invariants says it
// is internal.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_FRONTEND_DIAGNOSTICS_H
#define ZLUDA_COMPILER_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace zluda {

/// A diagnostic's text as users read it: MLIR's `'ptx.add' op ` prefix
/// becomes the PTX spelling (`add: `, `.global: `), and one from another
/// dialect (an internal invariant of the lowering, never valid PTX's
/// doing) says it is an internal error.
std::string userDiagnostic(llvm::StringRef message);

} // namespace zluda

#endif // ZLUDA_COMPILER_FRONTEND_DIAGNOSTICS_H
