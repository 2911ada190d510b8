//===- PTXOps.h - Operations of the ptx dialect -----------------*- C++ -*-===//

#ifndef ZLUDA_DIALECTS_PTX_PTXOPS_H
#define ZLUDA_DIALECTS_PTX_PTXOPS_H

#include "dialects/ptx/PTXDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace zluda::ptx {
mlir::ParseResult parseInstOp(mlir::OpAsmParser &parser,
                              mlir::OperationState &result,
                              const InstSpec &spec);
void printInstOp(mlir::Operation *op, ModifiersAttr mods,
                 mlir::OpAsmPrinter &printer);
llvm::LogicalResult verifyInstOp(mlir::Operation *op, ModifiersAttr mods,
                                 const InstSpec &spec);
/// The state space family of `s`: shared and param with their
/// sub-qualifiers (.shared::cta, .shared::cluster, .param::entry,
/// .param::func) are one.
StateSpace spaceFamily(StateSpace s);
/// Whether `k` is a 16-bit float or a pair of them (.f16, .bf16, .f16x2,
/// .bf16x2).
bool isHalfType(TypeKind k);
} // namespace zluda::ptx

#define GET_OP_CLASSES
#include "dialects/ptx/PTXOps.h.inc"

namespace zluda::ptx {
/// The parameters of a kernel or function in entry-block order: return
/// parameters first, then parameters.
llvm::SmallVector<ParamAttr> getDeclaredParams(mlir::Operation *fn);
} // namespace zluda::ptx

#endif // ZLUDA_DIALECTS_PTX_PTXOPS_H
