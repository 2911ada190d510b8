//===- BinaryReader.h - Fatbins of executables, libraries, archives -*- C++
//-*-===//
//
// Finds every fatbin container in an input: ELF executables, shared objects
// and relocatable objects (sections `.nv_fatbin` and `__nv_relfatbin`, and
// containers elsewhere that a `.nvFatBinSegment` wrapper points to), PE/COFF
// executables, DLLs and objects of Windows (`.nv_fatb` and the other data
// sections), `ar`
// archives member by member, plain fatbin files and PTX text. The kind is
// detected from the content, not the name. Problems are diagnostics with the
// byte offset; a bad input never stops the others.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_BINARY_BINARYREADER_H
#define ZLUDA_COMPILER_BINARY_BINARYREADER_H

#include "compiler/Fatbin/Fatbin.h"

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace zluda::binary {

enum class InputKind { ELF, PE, Archive, Fatbin, PTX, Unknown };
const char *inputKindName(InputKind kind);

/// One fatbin container found in an input.
struct FoundContainer {
  std::string member;  ///< archive member, empty otherwise
  std::string section; ///< the ELF section it lies in, empty for a fatbin file
  uint64_t fileOffset = 0;  ///< of the container in the input file
  bool relocatable = false; ///< from `__nv_relfatbin` (-rdc): to be linked
  fatbin::Container container;
};

/// PTX text embedded in a binary's data as a NUL-terminated string (a
/// program that passes it to cuModuleLoadData or cuLinkAddData itself).
struct EmbeddedPTX {
  std::string member;  ///< archive member, empty otherwise
  std::string section; ///< the ELF section it lies in
  uint64_t fileOffset = 0;
  std::string text;
};

struct Diagnostic {
  uint64_t offset = 0; ///< in the input file
  std::string message;
  bool isError = true; ///< false: a note (e.g. an unknown entry kind)
};

struct Input {
  std::string path;
  InputKind kind = InputKind::Unknown;
  std::string kindDetail; ///< e.g. "ELF shared object"
  std::unique_ptr<llvm::MemoryBuffer> buffer;
  std::vector<FoundContainer> containers;
  std::vector<EmbeddedPTX> embeddedPTX;
  std::vector<Diagnostic> diagnostics;
  /// Not an ELF binary, archive, fatbin or PTX file: files met while walking
  /// a directory are then skipped rather than reported.
  bool unrecognized = false;

  /// Aligned copies of archive members (LLVM's ELF reader needs aligned
  /// data); containers of members point into them.
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> memberBuffers;

  bool hasErrors() const;
};

/// Reads one file. Never fails as a call: problems are in `diagnostics`.
Input readInput(const std::string &path);
/// Reads an input already in memory (`path` names it in diagnostics).
Input readBuffer(std::unique_ptr<llvm::MemoryBuffer> buffer,
                 const std::string &path);

struct InputPath {
  std::string path;
  bool fromDirectory = false; ///< found by walking a directory argument
};

/// Expands directories (recursively, following each symlink once, no loops)
/// into files; other paths are kept as given, in order.
std::vector<InputPath> expandPaths(const std::vector<std::string> &paths,
                                   std::vector<std::string> &errors);

/// The `.entry` names of a PTX text, in order (a scan, not a parse).
std::vector<std::string> listKernels(std::string_view ptx);

/// The functions a PTX module declares with `linkage` (".extern": defined
/// in another module; ".visible": defined here for other modules), by a
/// text scan like listKernels.
std::vector<std::string> listFunctions(std::string_view ptx,
                                       std::string_view linkage);

/// The kernels of a cubin (an ELF entry's payload): its function symbols
/// marked as entries (st_other 0x10). Empty if `elf` is not an ELF object.
std::vector<std::string> listCubinKernels(std::string_view elf);

} // namespace zluda::binary

#endif // ZLUDA_COMPILER_BINARY_BINARYREADER_H
