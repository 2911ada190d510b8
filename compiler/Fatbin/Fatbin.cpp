//===- Fatbin.cpp - CUDA fatbin containers, without LLVM ------------------===//

#include "compiler/Fatbin/Fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <cstring>

using namespace zluda::fatbin;

namespace {

template <typename T> T load(std::string_view data, uint64_t offset) {
  T value;
  std::memcpy(&value, data.data() + offset, sizeof(T));
  return value;
}

bool fits(std::string_view data, uint64_t offset, uint64_t size) {
  return offset <= data.size() && size <= data.size() - offset;
}

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// Entry header layout (little endian; 64 bytes, more with options: up to
// 144 seen in cuDNN, accepted up to 1024):
//   0 kind u16, 2 version u16, 4 header size u32, 8 padded payload size u64,
//  16 compressed size u32, 20 (unknown) u32, 24 PTX/ELF version u32
//  (major << 16 | minor), 28 arch u32, 32 options offset u32, 36 options
//  size u32, 40 flags u64, 48 (unknown) u64, 56 uncompressed size u64.
constexpr uint32_t kMinEntryHeader = 64;
constexpr uint32_t kMaxEntryHeader = 1024;

} // namespace

const char *Entry::kindName() const {
  switch (kind) {
  case uint16_t(EntryKind::PTX):
    return "ptx";
  case uint16_t(EntryKind::ELF):
    return "elf";
  default:
    return "other";
  }
}

const char *Entry::compressionName() const {
  if (isZstd())
    return "zstd";
  if (isLZ4())
    return "lz4";
  return "none";
}

int Container::selectedPTX() const {
  int best = -1;
  auto better = [&](const Entry &a, const Entry &b) {
    bool aLow = a.arch <= 89, bLow = b.arch <= 89;
    if (aLow != bLow)
      return aLow;
    if (a.arch != b.arch)
      return aLow ? a.arch > b.arch : a.arch < b.arch;
    return (a.ptxMajor << 16 | a.ptxMinor) > (b.ptxMajor << 16 | b.ptxMinor);
  };
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].isPTX() && (best < 0 || better(entries[i], entries[best])))
      best = static_cast<int>(i);
  return best;
}

std::optional<Error> zluda::fatbin::readContainer(std::string_view data,
                                                  uint64_t offset,
                                                  Container &out) {
  if (!fits(data, offset, 16))
    return Error{offset, "truncated fatbin container header"};
  if (load<uint32_t>(data, offset) != kContainerMagic)
    return Error{offset, "not a fatbin container (magic " +
                             hex(load<uint32_t>(data, offset)) + ")"};
  out = Container();
  out.offset = offset;
  out.version = load<uint16_t>(data, offset + 4);
  out.headerSize = load<uint16_t>(data, offset + 6);
  out.size = load<uint64_t>(data, offset + 8);
  if (out.headerSize < 16)
    return Error{offset, "fatbin container header size " +
                             std::to_string(out.headerSize) + " is too small"};
  if (!fits(data, offset, uint64_t(out.headerSize)) ||
      !fits(data, offset + out.headerSize, out.size))
    return Error{offset, "fatbin container of " + std::to_string(out.size) +
                             " bytes extends past the end of the data"};
  uint64_t pos = offset + out.headerSize;
  uint64_t end = pos + out.size;
  while (pos < end) {
    if (end - pos < kMinEntryHeader) {
      // Trailing padding inside the container.
      bool zeros = true;
      for (uint64_t i = pos; i < end; ++i)
        zeros &= data[i] == 0;
      if (zeros)
        break;
      return Error{pos, "truncated fatbin entry header"};
    }
    Entry e;
    e.offset = pos;
    e.kind = load<uint16_t>(data, pos);
    e.version = load<uint16_t>(data, pos + 2);
    e.headerSize = load<uint32_t>(data, pos + 4);
    e.paddedSize = load<uint64_t>(data, pos + 8);
    e.compressedSize = load<uint32_t>(data, pos + 16);
    uint32_t version = load<uint32_t>(data, pos + 24);
    e.ptxMajor = version >> 16;
    e.ptxMinor = version & 0xffff;
    e.arch = load<uint32_t>(data, pos + 28);
    uint32_t optOffset = load<uint32_t>(data, pos + 32);
    uint32_t optSize = load<uint32_t>(data, pos + 36);
    e.flags = load<uint64_t>(data, pos + 40);
    e.uncompressedSize = load<uint64_t>(data, pos + 56);
    if (e.headerSize < kMinEntryHeader || e.headerSize > kMaxEntryHeader)
      return Error{pos, "fatbin entry header size " +
                            std::to_string(e.headerSize) +
                            " is outside 64..1024"};
    if (e.headerSize > end - pos)
      return Error{pos, "fatbin entry header of " +
                            std::to_string(e.headerSize) +
                            " bytes extends past its container"};
    if (e.paddedSize > end - pos - e.headerSize)
      return Error{pos, "fatbin entry payload of " +
                            std::to_string(e.paddedSize) +
                            " bytes extends past its container"};
    uint64_t stored = e.isCompressed() && e.compressedSize ? e.compressedSize
                                                           : e.paddedSize;
    if (stored > e.paddedSize)
      return Error{pos, "fatbin entry compressed size " +
                            std::to_string(stored) + " exceeds its payload"};
    e.payload = data.substr(pos + e.headerSize, stored);
    if (optSize && optOffset >= kMinEntryHeader &&
        uint64_t(optOffset) + optSize <= e.headerSize) {
      std::string_view opts = data.substr(pos + optOffset, optSize);
      e.options = opts.substr(0, opts.find('\0'));
    }
    out.entries.push_back(e); // unknown kinds too: listed, never translated
    pos += e.headerSize + e.paddedSize; // header size + payload size, always
  }
  return std::nullopt;
}

std::optional<Error>
zluda::fatbin::scanContainers(std::string_view data,
                              std::vector<Container> &out) {
  uint64_t pos = 0;
  while (pos + 16 <= data.size()) {
    if (load<uint32_t>(data, pos) != kContainerMagic) {
      pos += 8; // padding between containers keeps 8-byte alignment
      continue;
    }
    Container c;
    if (auto err = readContainer(data, pos, c))
      return err;
    pos += (c.totalSize() + 7) & ~uint64_t(7);
    out.push_back(std::move(c));
  }
  return std::nullopt;
}

void zluda::fatbin::searchContainers(std::string_view data,
                                     std::vector<Container> &out) {
  // The section itself need not be 8-byte aligned in the file (`.ldata` of
  // cuFFT is not), so every 4-byte position is a candidate.
  const char magic[4] = {char(kContainerMagic & 0xff),
                         char((kContainerMagic >> 8) & 0xff),
                         char((kContainerMagic >> 16) & 0xff),
                         char(kContainerMagic >> 24)};
  uint64_t pos = 0;
  while (pos + 16 <= data.size()) {
    size_t found = data.find(std::string_view(magic, 4), pos);
    if (found == std::string_view::npos)
      return;
    if (found % 4 != 0) {
      pos = (found + 3) & ~uint64_t(3);
      continue;
    }
    pos = found;
    Container c;
    if (readContainer(data, pos, c) || c.version != 1 || c.entries.empty()) {
      pos += 4;
      continue;
    }
    pos += (c.totalSize() + 3) & ~uint64_t(3);
    out.push_back(std::move(c));
  }
}

std::optional<Error> zluda::fatbin::readWrappers(std::string_view data,
                                                 std::vector<Wrapper> &out) {
  for (uint64_t pos = 0; pos + 24 <= data.size(); pos += 8) {
    if (load<uint32_t>(data, pos) != kWrapperMagic)
      continue;
    Wrapper w;
    w.offset = pos;
    w.version = load<uint32_t>(data, pos + 4);
    w.data = load<uint64_t>(data, pos + 8);
    w.prelinked = load<uint64_t>(data, pos + 16);
    if (w.version != 1 && w.version != 2)
      return Error{pos, "unsupported fatbin wrapper version " +
                            std::to_string(w.version)};
    out.push_back(w);
    pos += 16;
  }
  return std::nullopt;
}

std::optional<Error> zluda::fatbin::extractPayload(const Entry &entry,
                                                   std::string &out,
                                                   uint64_t maxSize) {
  uint64_t size = entry.size();
  if (size > maxSize)
    return Error{entry.offset, "fatbin entry claims " + std::to_string(size) +
                                   " bytes, over the limit of " +
                                   std::to_string(maxSize)};
  if (!entry.isCompressed()) {
    out.assign(entry.payload.data(), entry.payload.size());
  } else if (entry.isZstd()) {
    unsigned long long frame =
        ZSTD_getFrameContentSize(entry.payload.data(), entry.payload.size());
    if (frame == ZSTD_CONTENTSIZE_ERROR)
      return Error{entry.offset, "corrupt ZSTD frame"};
    if (frame != ZSTD_CONTENTSIZE_UNKNOWN && frame != size)
      return Error{entry.offset, "ZSTD frame holds " + std::to_string(frame) +
                                     " bytes, the header says " +
                                     std::to_string(size)};
    out.resize(size);
    size_t n = ZSTD_decompress(out.data(), out.size(), entry.payload.data(),
                               entry.payload.size());
    if (ZSTD_isError(n))
      return Error{entry.offset, std::string("corrupt ZSTD frame: ") +
                                     ZSTD_getErrorName(n)};
    if (n != size)
      return Error{entry.offset, "ZSTD frame decompressed to " +
                                     std::to_string(n) + " bytes, not " +
                                     std::to_string(size)};
  } else {
    if (size > uint64_t(LZ4_MAX_INPUT_SIZE) ||
        entry.payload.size() > uint64_t(LZ4_MAX_INPUT_SIZE))
      return Error{entry.offset, "LZ4 block too large"};
    out.resize(size);
    int n = LZ4_decompress_safe(entry.payload.data(), out.data(),
                                static_cast<int>(entry.payload.size()),
                                static_cast<int>(size));
    if (n < 0)
      return Error{entry.offset, "corrupt LZ4 block"};
    if (static_cast<uint64_t>(n) != size)
      return Error{entry.offset, "LZ4 block decompressed to " +
                                     std::to_string(n) + " bytes, not " +
                                     std::to_string(size)};
  }
  if (entry.isPTX())
    while (!out.empty() && out.back() == '\0')
      out.pop_back();
  return std::nullopt;
}
