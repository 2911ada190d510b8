//===- Printf.h - CUDA vprintf and __assertfail on AMDGPU -------*- C++ -*-===//

#ifndef ZLUDA_COMPILER_CODEGEN_PRINTF_H
#define ZLUDA_COMPILER_CODEGEN_PRINTF_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace zluda::codegen {

/// Expands the AMDGPU lowering's `__zluda_vprintf` and `__zluda_assertfail`
/// calls into the device library's printf calls (which the caller then
/// links). Fails on a format string that is not a constant or that uses a
/// conversion CUDA's printf does not have.
llvm::Error expandPrintf(llvm::Module &m);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_PRINTF_H
