//===- MetadataNotes.h - One metadata note per code object ------*- C++ -*-===//

#ifndef ZLUDA_COMPILER_CODEGEN_METADATANOTES_H
#define ZLUDA_COMPILER_CODEGEN_METADATANOTES_H

#include "llvm/Support/Error.h"

#include <string>

namespace zluda::codegen {

/// Merges the NT_AMDGPU_METADATA notes of a linked code object (one a
/// partition) into one, in place: every kernel in one document, a filler
/// note ("ZLUDA", type 1) over the bytes left, no offset of the file moved.
/// A code object with one note is left as it is.
llvm::Error mergeMetadataNotes(std::string &elf);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_METADATANOTES_H
