// libFuzzer target over the code-object metadata reader: any bytes as a
// linked AMDGPU code object whose NT_AMDGPU_METADATA notes are merged in
// place. Malformed ELF, notes or MessagePack must be an error; a merge must
// leave the file's size as it was.
#include "compiler/Codegen/MetadataNotes.h"

#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string elf(reinterpret_cast<const char *>(data), size);
  if (llvm::Error err = zluda::codegen::mergeMetadataNotes(elf))
    llvm::consumeError(std::move(err));
  else if (elf.size() != size)
    std::abort();
  return 0;
}
