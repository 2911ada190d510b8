//===- Cache.h - The content-addressed code-object cache --------*- C++ -*-===//
//
// LLVM-free: `zluda-precompile build` fills the cache, the runtime shim
// reads it, and both compute keys with this library. Layout (docs/cache.md):
//
//   DIR/v1/entries/<k0k1>/<key>.zce   one entry: header, metadata, object
//   DIR/v1/images/<k0k1>/<ikey>.zci   image index: an image's bytes -> key
//   DIR/v1/tmp/                       writes in progress
//   DIR/v1/manifest.json              what `build` last saw (for tools)
//
// An entry file is written to tmp/, fsynced and renamed into place, so a
// reader sees a whole entry or none, whatever kills the writer; concurrent
// writers of one key write the same bytes and the last rename wins.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CACHE_CACHE_H
#define ZLUDA_COMPILER_CACHE_CACHE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zluda::cache {

/// Everything that decides the bytes of a compiled module. No paths, times
/// or machine facts.
struct KeyInputs {
  std::string_view ptx;           // the exact PTX text
  std::string ptxSha256;          // its SHA-256 (hex), if already known
  std::string target = "amdgpu";  // or "nvptx"
  std::string chip;               // gfx1100, sm_90, ...
  std::string features;           // target features, "" for the default
  unsigned codeObjectVersion = 5; // AMDGPU only
  std::string compilerVersion;    // compilerVersion() unless testing
  std::string options;            // other code-changing options, canonical
};

/// The version string of this build of the compiler: the release and the
/// source revision, and the LLVM it was built with.
std::string_view compilerVersion();

/// The entry key: SHA-256 (hex) of a canonical, versioned text of `in`.
std::string computeKey(const KeyInputs &in);

/// Where a cache lives when none is named: $ZLUDA_CACHE_DIR, else
/// ~/.zluda/cache; "" without either (no HOME).
std::string defaultCacheDir();

/// The code object version used when none is asked for: 6 for AMDGPU's
/// generic processors (`gfx11-generic`...), 5 for the others.
unsigned defaultCodeObjectVersion(std::string_view chip);

/// The target IDs whose code objects run on a device reporting `targetId`
/// (`gfx942:sramecc+:xnack-`), best match first: the same settings, then
/// with each left to either mode, down to the bare processor.
std::vector<std::string> targetIdLookupOrder(std::string_view targetId);

/// The key of a module compiled with this build's default options: what
/// `zluda-precompile build` stores and what the runtime shim looks up.
/// `codeObjectVersion` 0 means the default for `chip`.
std::string moduleKey(std::string_view ptx, std::string_view target,
                      std::string_view chip, unsigned codeObjectVersion = 0);

/// What stands for the PTX hash in the key of a device-linked image (-rdc):
/// the image cudart loads is a fatbin container of linked cubins without
/// PTX; `build` compiles the binary's relocatable PTX modules linked
/// together and stores them under this, from the SHA-256 (hex) of that
/// container's bytes, and the shim computes the same from the image.
std::string linkedImageHash(std::string_view containerSha256);

/// moduleKey for a PTX text whose SHA-256 (hex) the caller already has
/// (build deduplicates by it, the shim logs it): the same key, without
/// hashing the text again.
std::string moduleKeyOfPtxHash(std::string_view ptxSha256,
                               std::string_view target, std::string_view chip,
                               unsigned codeObjectVersion = 0,
                               std::string_view options = "");

/// The key option of wave64 builds with one PTX warp a wave
/// (`--warps-per-wave 1`; the shim's ZLUDA_SHIM_WARPS_PER_WAVE=1).
inline constexpr const char *kOneWarpPerWave = "warps-per-wave=1";

/// What an entry records besides the code object.
struct EntryMeta {
  std::string key, target, chip, compilerVersion, ptxSha256;
  unsigned codeObjectVersion = 0;
  std::vector<std::string> kernels;        // compiled, in module order
  std::vector<std::string> missingKernels; // left out (unsupported)
  std::vector<std::string> sources;        // binaries the PTX was seen in
  /// A module that did not compile at all is cached too (no object), so
  /// that a second build does not try again: the first error, and per
  /// reason how often it occurred; per left-out kernel, why.
  std::string error;
  std::vector<std::pair<std::string, unsigned>> reasons;
  std::vector<std::pair<std::string, std::string>> whyMissing;
};

struct Entry {
  EntryMeta meta;
  std::string object;
};

/// Why a read failed.
enum class ReadStatus { ok, missing, corrupt };

/// The image index (docs/cache.md): from the bytes of an image a program
/// hands the driver (a fatbin container as the binary holds it, or PTX
/// text) to the hash its entries' keys are made of, so that the runtime
/// shim finds an entry without decompressing and hashing the PTX. `build`
/// writes a record for every image it reads; a record is only a shortcut:
/// without one the shim computes the same key the long way.
struct ImageRecord {
  std::string compilerVersion; ///< records of other compilers are ignored
  uint64_t imageBytes = 0;     ///< checked against the image's size
  /// A device-linked image (-rdc, machine code only): `moduleHash` is
  /// linkedImageHash of its SHA-256; else the SHA-256 of its PTX.
  bool linked = false;
  std::string moduleHash;
};

/// The index key of an image's bytes: XXH3-128 (hex), not a cryptographic
/// hash (FastHash.h): the record it finds only names a key, and the entry
/// under that key is checked as any other.
std::string imageIndexKey(std::string_view imageBytes);

/// Whether `key` is an index key (32 lowercase hex digits).
bool isValidImageKey(std::string_view key);

/// Record serialization (exposed for tests): a short text that checksums
/// itself, so that a torn or damaged record reads as corrupt.
std::string serializeImageRecord(const ImageRecord &record);
ReadStatus parseImageRecord(std::string_view bytes, ImageRecord &out,
                            std::string &error);

class Cache {
public:
  explicit Cache(std::string dir);

  /// Creates the layout if needed; false with `error` if it cannot.
  bool open(std::string &error);

  const std::string &root() const { return dir; }
  std::string entryPath(std::string_view key) const;

  /// Reads and verifies (magic, sizes, checksum, key) the entry of `key`.
  ReadStatus read(std::string_view key, Entry &out, std::string &error) const;

  /// Writes `entry` atomically (temporary file, fsync, rename, directory
  /// fsync). False with `error` on failure; nothing partial is left
  /// visible.
  bool write(const Entry &entry, std::string &error) const;

  /// Removes the entry of `key` (a corrupt one, before rebuilding it).
  void remove(std::string_view key) const;

  /// The image index: DIR/v1/images/<k0k1>/<index key>.zci.
  std::string imagePath(std::string_view indexKey) const;
  ReadStatus readImage(std::string_view indexKey, ImageRecord &out,
                       std::string &error) const;
  /// Writes the record unless the same one is there (records are small and
  /// rewritten by every build: no fsync; a torn one reads as corrupt and
  /// is only a missed shortcut). False with `error` on failure.
  bool writeImage(std::string_view indexKey, const ImageRecord &record,
                  std::string &error) const;
  void removeImage(std::string_view indexKey) const;
  /// The index keys of every record file present, sorted.
  std::vector<std::string> imageKeys() const;

  /// Marks the entry of `key` as just used (its file's modification time:
  /// one utimensat, no write), which `cache prune --max-size` evicts by,
  /// least recently used first. The runtime shim marks what it serves.
  void markUsed(std::string_view key) const;

  /// Waits for, then holds, the lock of `key` across processes (v1/locks,
  /// flock: released by the system if the holder dies, kill -9 included),
  /// so that concurrent builds compile each entry once: the holder checks
  /// the cache again, compiles only what is still missing, writes, unlocks.
  /// The lock only saves work (entries are written atomically either way);
  /// -1 when it cannot be taken, and the caller compiles unlocked.
  int lockKey(std::string_view key) const;
  void unlockKey(std::string_view key, int lock) const;

  /// The keys of every entry file present, sorted.
  std::vector<std::string> keys() const;

  /// Removes temporary files left by killed writers (older than
  /// `minAgeSeconds`, so that running writers are not disturbed).
  unsigned removeStaleTemporaries(unsigned minAgeSeconds) const;

  /// What under v1/ is not part of the layout (a stray file or directory
  /// among the entries, a name no key's, a manifest that is not a file),
  /// and the temporary files older than `staleSeconds`; sorted by path.
  struct LayoutProblem {
    std::string path, why;
  };
  std::vector<LayoutProblem> layoutProblems(unsigned staleSeconds) const;

private:
  std::string dir;
};

/// Whether `key` is an entry key (64 lowercase hex digits): nothing else is
/// ever made a file name, a URL or a Redis key.
bool isValidKey(std::string_view key);

/// Whether `file` is the name of an entry file in the bucket directory
/// `bucket`: `<key>.zce` with the key's first two digits the bucket's.
bool isEntryFileName(std::string_view bucket, std::string_view file);

/// Whether `file` is the name of an image record file in the bucket
/// directory `bucket`: `<index key>.zci`, the key's first two digits the
/// bucket's.
bool isImageFileName(std::string_view bucket, std::string_view file);

/// Entry serialization (exposed for tests).
std::string serializeEntry(const Entry &entry);
ReadStatus parseEntry(std::string_view bytes, Entry &out, std::string &error);

} // namespace zluda::cache

#endif // ZLUDA_COMPILER_CACHE_CACHE_H
