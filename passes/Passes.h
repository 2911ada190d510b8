//===- Passes.h - Passes over the ptx dialect -------------------*- C++ -*-===//

#ifndef ZLUDA_PASSES_PASSES_H
#define ZLUDA_PASSES_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

namespace zluda::ptx {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PASSES_H
