//===- PTXParser.h - PTX text to the ptx dialect ----------------*- C++ -*-===//
//
// A hand-written recursive-descent parser from PTX text straight into the
// `ptx` dialect, in SSA form: registers are promoted while parsing (Braun et
// al., "Simple and Efficient Construction of SSA Form", CC 2013) and each
// predicated instruction gets a guarded block of its own. Every construct the
// parser does not understand is an error with its location; nothing is
// skipped silently.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_FRONTEND_PTXPARSER_H
#define ZLUDA_COMPILER_FRONTEND_PTXPARSER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace llvm {
class MemoryBuffer;
class SourceMgr;
} // namespace llvm

namespace zluda::frontend {

/// What the parser records besides the dialect's own meaning.
struct ParseOptions {
  /// Instructions of the families only NVIDIA's GPUs have (textures,
  /// surfaces, matrix instructions, barrier objects, bulk copies) keep their
  /// spelling with operand placeholders (a `native` attribute), for the
  /// NVPTX target to emit them as written.
  bool nativeSpellings = false;
};

/// Parses the main buffer of `sourceMgr` as a PTX module. Diagnostics go to
/// the context's handler; returns null on any error. The resident pages of
/// the text already parsed are given back as it goes (releaseMappedText).
mlir::OwningOpRef<mlir::ModuleOp> parsePTX(llvm::SourceMgr &sourceMgr,
                                           mlir::MLIRContext *context,
                                           const ParseOptions &options = {});

/// Gives back the resident pages of `text` before `upTo` (all of them
/// without it) when it maps a file: read again, for a diagnostic's source
/// line, they come back from the file (bounded memory, docs/benchmarks.md).
/// glibc's posix_madvise, which MemoryBuffer::dontNeedIfMmap calls, does
/// nothing; a buffer in memory stays as it is.
void releaseMappedText(const llvm::MemoryBuffer &text,
                       const char *upTo = nullptr);

} // namespace zluda::frontend

#endif // ZLUDA_COMPILER_FRONTEND_PTXPARSER_H
