//===- Archive.h - The ustar format of packed caches ------------*- C++ -*-===//
//
// LLVM-free. `cache pack` writes a cache's entries (and its image index) as a
// ustar archive (then
// compressed with zstd); `cache unpack` walks one it did not write, so the
// walk trusts nothing: every header is checked (checksum, size within the
// archive) before its data is handed out.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CACHE_ARCHIVE_H
#define ZLUDA_COMPILER_CACHE_ARCHIVE_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace zluda::cache {

inline constexpr size_t kTarBlock = 512;

/// The ustar header of a regular file (mode 0644, owner 0, time 0).
std::string tarHeader(const std::string &name, uint64_t size);

/// Whether `name` is exactly `v1/entries/<2 hex>/<64 hex>.zce` whose
/// directory is its key's first two digits; the key in `key`.
bool archiveEntryName(std::string_view name, std::string &key);

/// Whether `name` is exactly `v1/images/<2 hex>/<32 hex>.zci` (an image
/// index record, docs/cache.md) in its key's bucket; the key in `indexKey`.
bool archiveImageName(std::string_view name, std::string &indexKey);

/// One member of an archive: its name, its type flag ('0' or '\0' a
/// regular file, '5' a directory, ...) and its bytes (inside the archive).
struct ArchiveMember {
  std::string name;
  char type = '\0';
  std::string_view data;
};

/// Calls `visit` for each member of the ustar archive `tar`, in order, up to
/// the end blocks (or the end of the bytes). False with `error` at the first
/// damaged header (checksum) or member running past the end; the members
/// before it were visited.
bool walkArchive(std::string_view tar,
                 const std::function<void(const ArchiveMember &)> &visit,
                 std::string &error);

} // namespace zluda::cache

#endif // ZLUDA_COMPILER_CACHE_ARCHIVE_H
