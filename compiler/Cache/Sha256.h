//===- Sha256.h - SHA-256 (FIPS 180-4) --------------------------*- C++ -*-===//
//
// LLVM-free, for the cache keys and entry checksums that the compiler and
// the runtime shim compute alike.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CACHE_SHA256_H
#define ZLUDA_COMPILER_CACHE_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zluda::cache {

class Sha256 {
public:
  Sha256();
  void update(std::string_view data);
  /// The digest; the object must not be updated afterwards.
  std::array<uint8_t, 32> finish();

  /// Lower-case hex digest of `data`.
  static std::string hex(std::string_view data);
  static std::string toHex(const std::array<uint8_t, 32> &digest);
  /// Whether the processor's SHA instructions are used (x86 SHA
  /// extensions); `portableOnly` turns them off (for the tests, which check
  /// both).
  static bool accelerated();
  static void setPortableOnly(bool portableOnly);

private:
  void block(const uint8_t *p);
  /// `n` consecutive 64-byte blocks (the x86 SHA extensions when the
  /// processor has them).
  void blocks(const uint8_t *p, size_t n);
  void portableBlock(const uint8_t *p);
  std::array<uint32_t, 8> h;
  std::array<uint8_t, 64> buffer{};
  size_t buffered = 0;
  uint64_t length = 0;
};

} // namespace zluda::cache

#endif // ZLUDA_COMPILER_CACHE_SHA256_H
