//===- TranslateInParts.h - LLVM dialect to LLVM IR, a part at a time -*- C++
//-*-===//

#ifndef ZLUDA_COMPILER_CODEGEN_TRANSLATEINPARTS_H
#define ZLUDA_COMPILER_CODEGEN_TRANSLATEINPARTS_H

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace zluda::codegen {

/// translateModuleToLLVMIR for a large module with a bounded peak: the
/// functions are translated a part at a time (parts of about
/// `-zluda-translate-part-ops` operations, in module order) and each
/// part's bodies are erased from `module` once translated, so the LLVM
/// dialect and LLVM IR forms of a function never coexist for long. The
/// result is the module translateModuleToLLVMIR makes: the same functions
/// and variables, in the same order, with the same linkage. `module` is
/// left as declarations and variables; null on a failure (diagnosed by the
/// translation).
std::unique_ptr<llvm::Module> translateInParts(mlir::ModuleOp module,
                                               llvm::LLVMContext &ctx);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_TRANSLATEINPARTS_H
