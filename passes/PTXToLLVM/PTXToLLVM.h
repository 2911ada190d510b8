//===- PTXToLLVM.h - Lowering of the ptx dialect to LLVM --------*- C++ -*-===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H
#define ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H

#include "passes/PTXToLLVM/TargetInfo.h"

#include "mlir/Transforms/DialectConversion.h"

namespace zluda::ptx {

/// Types of the ptx dialect in the LLVM dialect: registers keep their type,
/// `!ptx.ptr<space>` becomes a pointer in the space's address space.
void populatePTXToLLVMTypeConversion(mlir::TypeConverter &converter,
                                     const TargetInfo &target);

/// The patterns lowering every supported ptx op.
void populatePTXToLLVMPatterns(mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns,
                               const TargetInfo &target);

/// Reports, as `unsupported: <instruction>` errors with their location and
/// kernel, the ptx ops the lowering does not handle yet. Fails if any.
/// `target` ("amdgpu", "nvptx"): a few registers exist on one target only.
llvm::LogicalResult checkSupported(mlir::ModuleOp module,
                                   llvm::StringRef target = "amdgpu");

/// `--keep-going`: reports like checkSupported, then removes each kernel or
/// function that holds an unsupported op or calls one that does, so that
/// the rest can be compiled. Returns the names of the kernels removed; fails
/// only when something outside functions (a variable) is unsupported.
llvm::FailureOr<llvm::SmallVector<std::string>>
removeUnsupportedKernels(mlir::ModuleOp module,
                         llvm::StringRef target = "amdgpu");

/// Whether `name` is one of the CUDA runtime's device functions (malloc,
/// free, vprintf, __assertfail) that modules declare `.extern` and the
/// target provides.
bool isRuntimeFunction(llvm::StringRef name);

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H
