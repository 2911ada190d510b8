//===- PTXToLLVM.h - Lowering of the ptx dialect to LLVM --------*- C++ -*-===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H
#define ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H

#include "passes/PTXToLLVM/TargetInfo.h"

#include "dialects/ptx/PTXOps.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace zluda::ptx {

/// Why the lowering cannot handle `op` on `target` ("" when it can): the
/// check of the family whose pattern lowers the op.
using UnsupportedCheck = std::string (*)(mlir::Operation *op,
                                         const TargetInfo &target);

/// What the patterns of one conversion share, owned by whoever runs it (the
/// pass) and passed to every family's populate function by reference.
struct LoweringState {
  /// One of a lowered function's results in declaration order: `.reg`
  /// returns come from the `ret`'s operands, `.param` returns from their
  /// stack slot.
  struct ReturnPart {
    mlir::Value slot; ///< null for a `.reg` return
    mlir::Type type;
  };
  /// Each function's CC.CF register, made on first use.
  llvm::DenseMap<mlir::Operation *, mlir::Value> carrySlots;
  /// Each lowered function's results.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<ReturnPart>> returnParts;
  /// Each function's declared returns and parameters, by name, recorded when
  /// it is lowered (calls may be converted before or after their callee).
  llvm::StringMap<std::pair<llvm::SmallVector<ParamAttr>, size_t>> signatures;
  /// The families' support checks, by the op their pattern lowers.
  llvm::DenseMap<mlir::OperationName, UnsupportedCheck> checks;
  /// Whether an op carrying NVIDIA's own spelling (the parser's `native`
  /// attribute) is lowered as written (the NVPTX target).
  bool nativeInstructions = false;
  /// The `mov`s that take the address of a device function's parameter,
  /// found before the conversion (their operands change during it): that
  /// address is a `.local` one (the PTX ISA, `mov`).
  llvm::DenseSet<mlir::Operation *> localParamAddresses;
};

/// Types of the ptx dialect in the LLVM dialect: registers keep their type,
/// `!ptx.ptr<space>` becomes a pointer in the space's address space.
void populatePTXToLLVMTypeConversion(mlir::TypeConverter &converter,
                                     const TargetInfo &target);

/// The patterns lowering every supported ptx op, and their support checks
/// (into `state`, which must outlive the patterns).
void populatePTXToLLVMPatterns(mlir::TypeConverter &converter,
                               mlir::RewritePatternSet &patterns,
                               const TargetInfo &target, LoweringState &state);

/// Reports, as `unsupported: <instruction>` errors with their location and
/// kernel, the ptx ops the lowering does not handle on `target`: those no
/// pattern lowers, and those their family's check refuses. Fails if any.
llvm::LogicalResult checkSupported(mlir::ModuleOp module,
                                   const TargetInfo &target);

/// `--keep-going`: reports like checkSupported, then removes each kernel or
/// function that holds an unsupported op or calls one that does, so that
/// the rest can be compiled. Returns the names of the kernels removed; fails
/// only when something outside functions (a variable) is unsupported.
llvm::FailureOr<llvm::SmallVector<std::string>>
removeUnsupportedKernels(mlir::ModuleOp module, const TargetInfo &target);

/// Whether `name` is one of the CUDA runtime's device functions (malloc,
/// free, vprintf, __assertfail) that modules declare `.extern` and the
/// target provides.
bool isRuntimeFunction(llvm::StringRef name);

/// What a function of the CUDA device runtime (libcudadevrt, `-rdc` with
/// `-lcudadevrt`) that no target here provides does, for its diagnostic
/// ("dynamic parallelism: device-side launch", ...), or null for any other
/// name. Calls to them are reported as unsupported in the calling kernel,
/// and their `.extern` declarations need no definition in a device link.
const char *deviceRuntimeFunctionKind(llvm::StringRef name);

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PTXTOLLVM_PTXTOLLVM_H
