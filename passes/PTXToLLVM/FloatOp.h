//===- FloatOp.h - The float operations the lowering names ------*- C++ -*-===//
//
// The PTX float operations that the target seam (TargetInfo's approximate
// math and contractible arithmetic) and the directed-rounding code are asked
// about, so that they are chosen by value rather than by mnemonic strings.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_FLOATOP_H
#define ZLUDA_PASSES_PTXTOLLVM_FLOATOP_H

#include "llvm/ADT/StringRef.h"

namespace zluda::ptx {

enum class FloatOp {
  add,
  sub,
  mul,
  mad,
  fma,
  div,
  rcp,
  sqrt,
  rsqrt,
  sin,
  cos,
  ex2,
  lg2,
  tanh
};

/// The PTX mnemonic (`add`, `rsqrt`, ...).
llvm::StringRef stringifyFloatOp(FloatOp op);

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PTXTOLLVM_FLOATOP_H
