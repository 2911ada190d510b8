//===- CacheCommands.h - `cache verify|list|prune` --------------*- C++ -*-===//

#ifndef ZLUDA_DRIVER_CACHECOMMANDS_H
#define ZLUDA_DRIVER_CACHECOMMANDS_H

#include <cstdint>
#include <string>
#include <vector>

namespace zluda::driver {

/// `zluda-precompile cache verify DIR`: reads every entry and checks it
/// (checksum, key); with `removeCorrupt`, deletes the bad ones. Exit code 1
/// if any was corrupt.
int runCacheVerify(const std::string &dir, bool removeCorrupt);

/// `zluda-precompile cache list DIR`: one line per entry.
int runCacheList(const std::string &dir);

/// `zluda-precompile cache prune DIR`: removes the entries no key of this
/// compiler can reach (other compiler versions), the corrupt ones and left-
/// over temporary files.
/// With `maxBytes` (non-zero), then the least recently used entries (by
/// modification time: written, or served by the runtime shim) until the
/// entries take at most that many bytes.
int runCachePrune(const std::string &dir, uint64_t maxBytes = 0);

/// `cache merge SRC... --into DST`: the union of the sources' entries into
/// DST (created if missing), each verified; the same bytes whatever the
/// order of the sources. A key with two different valid entries is a
/// conflict: reported, the smaller serialization kept (order-independent),
/// exit 1; so is a corrupt source entry (skipped).
int runCacheMerge(const std::vector<std::string> &sources,
                  const std::string &into);

/// `cache pack DIR -o FILE.tar.zst`: the cache's entries as a reproducible
/// zstd-compressed tar (sorted, owner 0, time 0: the same cache gives the
/// same bytes). `cache unpack FILE --into DIR`: every entry verified
/// against its name and written atomically; anything that is not a regular
/// file named like an entry (absolute paths, `..`, links, devices) is
/// refused (CacheArchive.cpp).
/// `zluda-precompile cache push DIR --remote URL`: uploads every entry of
/// the cache (each read and verified first) that the remote does not have.
int runCachePush(const std::string &dir, const std::string &remoteUrl,
                 const std::string &token);

int runCachePack(const std::string &dir, const std::string &output);
int runCacheUnpack(const std::string &archive, const std::string &into);

} // namespace zluda::driver

#endif // ZLUDA_DRIVER_CACHECOMMANDS_H
