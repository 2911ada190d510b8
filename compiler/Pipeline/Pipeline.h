//===- Pipeline.h - The toolchain's pipeline, shared by every tool -*- C++
//-*-===//

#ifndef ZLUDA_COMPILER_PIPELINE_PIPELINE_H
#define ZLUDA_COMPILER_PIPELINE_PIPELINE_H

#include "compiler/Frontend/Diagnostics.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace zluda {

/// Registers the dialects every tool of the toolchain uses.
void registerDialects(mlir::DialectRegistry &registry);
/// Registers the toolchain's passes and pipelines (for `zluda-opt`).
void registerPasses();

/// Parses the main buffer of `sourceMgr` as PTX and verifies the result.
/// Diagnostics go to the context's handler; null on any error. `target`
/// ("amdgpu", "nvptx") decides what the parser records for the lowering
/// (frontend::ParseOptions).
mlir::OwningOpRef<mlir::ModuleOp> loadPTX(llvm::SourceMgr &sourceMgr,
                                          mlir::MLIRContext &context,
                                          llvm::StringRef target = "amdgpu");

} // namespace zluda

#endif // ZLUDA_COMPILER_PIPELINE_PIPELINE_H
