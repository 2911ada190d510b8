// libFuzzer target over the binary and fatbin readers: any bytes, read as an
// input file, then every entry decompressed with a small limit. The reader
// must report problems, never crash or hang.
#include "compiler/Binary/BinaryReader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(reinterpret_cast<const char *>(data), size), "fuzz");
  zluda::binary::Input in =
      zluda::binary::readBuffer(std::move(buffer), "fuzz");
  std::string out;
  for (const auto &fc : in.containers) {
    (void)fc.container.selectedPTX();
    for (const auto &e : fc.container.entries)
      (void)zluda::fatbin::extractPayload(e, out, /*maxSize=*/16 << 20);
  }
  return 0;
}
