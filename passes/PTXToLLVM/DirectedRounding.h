//===- DirectedRounding.h - PTX .rz/.rm/.rp float rounding ------*- C++ -*-===//
//
// Correctly rounded float arithmetic and conversions in the directed rounding
// modes, built from round-to-nearest operations only, so that the result
// does not depend on a target's rounding-mode register. Each operation
// computes its round-to-nearest result c and, exactly, on which side of c
// the true result lies; c is then moved one step (one unit in the last
// place) when the mode asks for the neighbour on that side. The reasoning
// per operation is in docs/lowering.md ("Directed rounding").
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_DIRECTEDROUNDING_H
#define ZLUDA_PASSES_PTXTOLLVM_DIRECTEDROUNDING_H

#include "passes/PTXToLLVM/FloatOp.h"

#include "mlir/IR/Builders.h"

namespace zluda::ptx {

enum class Directed { towardZero, down, up };

/// Whether `op` (add sub mul fma mad div rcp sqrt) on `type` (f32 or f64)
/// is lowered in a directed mode.
bool hasDirectedArith(FloatOp op, mlir::Type type);

/// `op` on `in` (already flushed for .ftz) rounded in `mode`; with `ftz`,
/// a result that is tiny before rounding becomes a zero of its sign.
mlir::Value directedArith(mlir::OpBuilder &b, mlir::Location loc, FloatOp op,
                          mlir::ValueRange in, Directed mode, bool ftz);

/// Whether a conversion from `from` to the float type `to` is lowered in a
/// directed mode (integers up to 64 bits or a wider float to f16, bf16, f32
/// or f64).
bool hasDirectedConvert(mlir::Type from, mlir::Type to);

/// Converts `x` (an integer, signed if `isSigned`, or a wider float) to the
/// float type `to`, rounded in `mode`.
mlir::Value directedConvert(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value x, bool isSigned, mlir::Type to,
                            Directed mode);

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PTXTOLLVM_DIRECTEDROUNDING_H
