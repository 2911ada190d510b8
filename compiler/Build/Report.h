//===- Report.h - The compatibility report of a build -----------*- C++ -*-===//

#ifndef ZLUDA_COMPILER_BUILD_REPORT_H
#define ZLUDA_COMPILER_BUILD_REPORT_H

#include "compiler/Build/BuildResults.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace zluda::build {

/// `s` with the characters HTML gives a meaning escaped.
std::string escapeHTML(llvm::StringRef s);

/// The compatibility report (HTML): per binary, its modules and kernels, one
/// column per processor with the kernel's status and, for a kernel left
/// out, the instruction and its location; `summary` on top.
std::string renderReport(const std::vector<Module> &modules,
                         const std::vector<Job> &jobs,
                         llvm::ArrayRef<llvm::StringRef> chips,
                         const std::string &summary);

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_REPORT_H
