//===- FatbinBuilder.h - Crafted fatbin containers for tests ----*- C++ -*-===//
//
// Builds fatbin containers and entries byte by byte (the layout the reader
// expects), with LZ4 and ZSTD payloads: shared by the fatbin reader's and the
// runtime shim's tests.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_TEST_UNIT_FATBINBUILDER_H
#define ZLUDA_TEST_UNIT_FATBINBUILDER_H

#include "compiler/Fatbin/Fatbin.h"

#include <lz4.h>
#include <zstd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace zluda::fatbin::testing {

template <typename T> void put(std::string &buf, size_t at, T v) {
  if (buf.size() < at + sizeof(T))
    buf.resize(at + sizeof(T));
  std::memcpy(&buf[at], &v, sizeof(T));
}

struct EntrySpec {
  uint16_t kind = 1;
  uint32_t arch = 80;
  uint32_t headerSize = 64;
  std::string payload = ".version 8.0\n.target sm_80\n";
  uint64_t flags = 0x11;
  std::string stored; ///< bytes to store; `payload` when empty
  uint64_t uncompressed = 0;
};

inline std::string entry(const EntrySpec &e) {
  std::string stored = e.stored.empty() ? e.payload : e.stored;
  size_t padded = (stored.size() + 7) & ~size_t(7);
  std::string buf(e.headerSize, '\0');
  put<uint16_t>(buf, 0, e.kind);
  put<uint16_t>(buf, 2, 0x101);
  put<uint32_t>(buf, 4, e.headerSize);
  put<uint64_t>(buf, 8, padded);
  put<uint32_t>(buf, 16, e.stored.empty() ? 0 : uint32_t(stored.size()));
  put<uint32_t>(buf, 24, (8u << 16) | 0);
  put<uint32_t>(buf, 28, e.arch);
  put<uint64_t>(buf, 40, e.flags);
  put<uint64_t>(buf, 56, e.uncompressed);
  buf += stored;
  buf.resize(e.headerSize + padded, '\0');
  return buf;
}

inline std::string container(const std::vector<std::string> &entries) {
  std::string body;
  for (auto &e : entries)
    body += e;
  std::string buf(16, '\0');
  put<uint32_t>(buf, 0, kContainerMagic);
  put<uint16_t>(buf, 4, 1);
  put<uint16_t>(buf, 6, 16);
  put<uint64_t>(buf, 8, body.size());
  return buf + body;
}

inline std::string lz4(const std::string &s) {
  std::string out(LZ4_compressBound(int(s.size())), '\0');
  int n = LZ4_compress_default(s.data(), out.data(), int(s.size()),
                               int(out.size()));
  out.resize(n);
  return out;
}

inline std::string zstd(const std::string &s) {
  std::string out(ZSTD_compressBound(s.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), s.data(), s.size(), 3);
  out.resize(n);
  return out;
}

} // namespace zluda::fatbin::testing

#endif // ZLUDA_TEST_UNIT_FATBINBUILDER_H
