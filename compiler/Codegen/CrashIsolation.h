//===- CrashIsolation.h - One job's crash is that job's failure -*- C++ -*-===//
//
// `build` compiles many modules in one process. A crash of LLVM on one of
// them (a fatal error such as "Cannot select", or a signal) must fail that
// job, not the build: each job runs in an llvm::CrashRecoveryContext, as
// clang runs its in-process compilations. What the crashed job held is
// leaked, and a crash while a lock is held elsewhere is not recoverable;
// it is the same best effort clang makes.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CODEGEN_CRASHISOLATION_H
#define ZLUDA_COMPILER_CODEGEN_CRASHISOLATION_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace zluda::codegen {

/// How a crash's message begins wherever it is reported: a job's error,
/// never cached (not the PTX's doing).
inline constexpr llvm::StringLiteral kCrashPrefix = "internal compiler error: ";

/// Installs, once per process, the signal handlers and the fatal-error
/// handler that let runIsolated recover. Outside runIsolated a fatal error
/// still ends the process, with an `internal compiler error` message.
void enableCrashIsolation();

/// Runs `fn` on this thread; false when it crashed, with what happened in
/// `what` (LLVM's fatal error message, or the signal).
bool runIsolated(llvm::function_ref<void()> fn, std::string &what);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_CRASHISOLATION_H
