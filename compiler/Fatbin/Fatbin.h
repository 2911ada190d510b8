//===- Fatbin.h - CUDA fatbin containers, without LLVM ----------*- C++ -*-===//
//
// Reads the fatbin formats nvcc embeds in binaries: the wrapper
// (`0x466243B1`, in `.nvFatBinSegment`), the container (`0xBA55ED50`) and its
// entries (PTX, ELF/cubin, others), and decompresses entry payloads (LZ4 raw
// blocks and ZSTD frames). Plain C++17 with liblz4 and libzstd: the runtime
// shim shares it and links no LLVM.
//
// Every offset is relative to the start of the byte range given to the
// reader, and every size is checked against that range before use.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_FATBIN_FATBIN_H
#define ZLUDA_COMPILER_FATBIN_FATBIN_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zluda::fatbin {

constexpr uint32_t kWrapperMagic = 0x466243B1;
constexpr uint32_t kContainerMagic = 0xBA55ED50;
constexpr uint64_t kFlagLZ4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
/// Largest decompressed payload accepted by default (a decompression bomb
/// claims more).
constexpr uint64_t kDefaultMaxPayload = uint64_t(1) << 30;

enum class EntryKind : uint16_t { PTX = 1, ELF = 2 };

/// A problem found at `offset` (relative to the range read).
struct Error {
  uint64_t offset = 0;
  std::string message;
};

struct Entry {
  uint64_t offset = 0; ///< of the entry header
  uint16_t kind = 0;
  uint16_t version = 0;
  uint32_t headerSize = 0;
  uint64_t paddedSize = 0;     ///< payload bytes in the container
  uint32_t compressedSize = 0; ///< 0 when not compressed
  uint32_t ptxMajor = 0, ptxMinor = 0;
  uint32_t arch = 0; ///< sm number: 80 for sm_80
  uint64_t flags = 0;
  uint64_t uncompressedSize = 0;
  std::string_view payload; ///< the stored bytes (compressed or not)
  std::string_view options; ///< compile options in the header, if any

  bool isPTX() const { return kind == uint16_t(EntryKind::PTX); }
  bool isELF() const { return kind == uint16_t(EntryKind::ELF); }
  bool isLZ4() const { return flags & kFlagLZ4; }
  bool isZstd() const { return flags & kFlagZstd; }
  bool isCompressed() const { return isLZ4() || isZstd(); }
  /// The payload's size once decompressed.
  uint64_t size() const {
    return isCompressed() ? uncompressedSize : payload.size();
  }
  const char *kindName() const;
  const char *compressionName() const;
};

struct Container {
  uint64_t offset = 0;
  uint16_t version = 0;
  uint16_t headerSize = 0;
  uint64_t size = 0; ///< bytes of entries after the header
  /// Every entry, in order; those of other kinds than PTX and ELF (e.g. 8,
  /// which cuFFT and cuSPARSE carry) are listed and never translated.
  std::vector<Entry> entries;

  uint64_t totalSize() const { return headerSize + size; }
  /// The PTX entry this toolchain translates (docs/binaries.md): the highest
  /// arch not above sm_89, else the lowest; ties go to the newer PTX ISA,
  /// then to the first. -1 when the container has no PTX.
  int selectedPTX() const;
};

/// Reads the container at `offset` of `data`.
std::optional<Error> readContainer(std::string_view data, uint64_t offset,
                                   Container &out);

/// Finds the containers of a fatbin section: each at an 8-byte aligned
/// offset, separated by padding. Containers found are appended to `out`;
/// errors (a container that does not fit...) stop the scan.
std::optional<Error> scanContainers(std::string_view data,
                                    std::vector<Container> &out);

/// Finds containers among other data (libraries that register fatbins
/// themselves keep them in `.rodata` or `.ldata`): a candidate is any
/// 4-byte aligned magic that reads as a whole version-1 container with at
/// least one entry; other bytes are not errors.
void searchContainers(std::string_view data, std::vector<Container> &out);

struct Wrapper {
  uint64_t offset = 0;
  uint32_t version = 0;
  uint64_t data = 0;       ///< address of the fatbin
  uint64_t prelinked = 0;  ///< v2: address of a NULL-terminated list
};

/// Reads the `0x466243B1` wrappers of a `.nvFatBinSegment` section.
std::optional<Error> readWrappers(std::string_view data,
                                  std::vector<Wrapper> &out);

/// Decompresses (or copies) an entry's payload into `out`, checking the
/// declared size and `maxSize`; PTX loses its trailing NULs.
std::optional<Error> extractPayload(const Entry &entry, std::string &out,
                                    uint64_t maxSize = kDefaultMaxPayload);

} // namespace zluda::fatbin

#endif // ZLUDA_COMPILER_FATBIN_FATBIN_H
