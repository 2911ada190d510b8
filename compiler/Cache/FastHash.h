//===- FastHash.h - XXH3-128 for checksums and the image index --*- C++ -*-===//
//
// LLVM-free, shared by the compiler and the runtime shim. XXH3's 128-bit
// hash (xxHash, from the system's libxxhash-dev, compiled inline: no
// run-time dependency) runs at memory speed, where SHA-256 is an order of
// magnitude slower. It is not a cryptographic hash: the cache uses it where
// only accidental collisions matter (an entry's checksum, the index from an
// image's bytes to the SHA-256 its key is made of). Keys stay SHA-256.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CACHE_FASTHASH_H
#define ZLUDA_COMPILER_CACHE_FASTHASH_H

#include <string>
#include <string_view>

namespace zluda::cache {

/// XXH3-128 (seed 0) of `first` followed by `second`, as 32 lower-case hex
/// digits (the canonical, big-endian form xxhsum -H2 prints).
std::string xxh128Hex(std::string_view first, std::string_view second = {});

} // namespace zluda::cache

#endif // ZLUDA_COMPILER_CACHE_FASTHASH_H
