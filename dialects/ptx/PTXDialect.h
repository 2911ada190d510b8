//===- PTXDialect.h - The ptx dialect ---------------------------*- C++ -*-===//

#ifndef ZLUDA_DIALECTS_PTX_PTXDIALECT_H
#define ZLUDA_DIALECTS_PTX_PTXDIALECT_H

#include "dialects/ptx/PTXInstSpec.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "llvm/ADT/StringMap.h"

#include "dialects/ptx/PTXDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/ptx/PTXTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/ptx/PTXAttrs.h.inc"

namespace zluda::ptx {

/// Looks up the spec of the instruction op `ptx.<mnemonic>`; null when
/// `mnemonic` names no instruction.
const InstSpec *lookupInstSpec(mlir::MLIRContext *ctx, llvm::StringRef mnemonic);

/// The width in bits of a PTX type (1 for .pred, 0 for opaque handles).
unsigned getTypeBitWidth(TypeKind kind);
bool isFloatType(TypeKind kind);
bool isSignedIntType(TypeKind kind);

/// The MLIR type a register of PTX type `kind` holds (i1 for .pred, f32 for
/// .f32, i32 for .b32/.u32/.s32/.f16x2...).
mlir::Type getRegisterType(mlir::MLIRContext *ctx, TypeKind kind);

/// Mutable form of `#ptx.mods`, filled modifier by modifier.
struct ModifierBuilder {
  llvm::SmallVector<TypeKind, 3> types;
  llvm::SmallVector<StateSpace, 2> spaces;
  std::optional<RoundingMode> rounding;
  std::optional<CmpOp> cmp;
  std::optional<BoolOp> boolOp;
  std::optional<CacheOp> cache;
  std::optional<MemSemantics> sem;
  std::optional<MemScope> scope;
  std::optional<ReduceOp> redOp;
  std::optional<Mode> mode;
  std::optional<Geometry> geometry;
  unsigned vec = 0;
  uint64_t flags = 0;
  llvm::SmallVector<int64_t, 3> shape;
  unsigned count = 0;
  llvm::SmallVector<mlir::Attribute, 2> extras;

  ModifiersAttr get(mlir::MLIRContext *ctx) const;

  /// Classifies one dot-separated modifier (without the dot) for an
  /// instruction of `spec`. On failure returns an error message.
  std::optional<std::string> add(mlir::MLIRContext *ctx, llvm::StringRef tok,
                                 const InstSpec &spec);
  /// Adds `tok` as a modifier of class `cls` (one of `mc::*`).
  std::optional<std::string> addAs(mlir::MLIRContext *ctx, uint32_t cls,
                                   llvm::StringRef tok);
};

/// Calls `fn` on each modifier of `mods` in canonical order (types last).
void forEachModifier(ModifiersAttr mods,
                     llvm::function_ref<void(uint32_t cls, llvm::StringRef tok)> fn);
/// Prints `mods` in PTX's dot syntax without the leading dot.
void printModifiers(llvm::raw_ostream &os, ModifiersAttr mods);

/// Parses a special register name without `%` (`tid.x`, `envreg3`,
/// `pm0_64`, `WARP_SZ`); null if it names none.
SpecialRegAttr parseSpecialRegName(mlir::MLIRContext *ctx, llvm::StringRef name);
void printSpecialReg(llvm::raw_ostream &os, SpecialRegAttr reg);

} // namespace zluda::ptx

#endif // ZLUDA_DIALECTS_PTX_PTXDIALECT_H
