//===- Remote.h - A cache shared through an HTTP server or Redis -*- C++
//-*-===//
//
// The second level of the cache, as ccache and sccache share theirs: build
// looks in the local cache, then in the remote one (an entry found there is
// verified and copied into the local cache), and writes what it compiles to
// both. Back-ends (docs/cache.md):
//
//   http://host[:port]/path, https://...   GET/HEAD/PUT URL/v1/<k0k1>/<key>
//                                          (libcurl; a WebDAV-enabled web
//                                          server, or a cache server with
//                                          that layout); bearer token
//   redis://[:password@]host[:port][/db]   GET/SET zluda:v1:<key> (hiredis)
//
// Nothing from the network is trusted: every entry is parsed and checked
// (magic, sizes, checksum, key, compiler version, target, processor) before
// it is stored or used; keys are validated hex before they reach a URL; a
// server that cannot be reached or refuses us turns the remote off for the
// rest of the run, with one warning, and the build goes on locally.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CACHE_REMOTE_H
#define ZLUDA_COMPILER_CACHE_REMOTE_H

#include "compiler/Cache/Cache.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace zluda::cache {

struct RemoteOptions {
  std::string url;
  bool readOnly = false; ///< never upload (builds of untrusted changes)
  std::string token;     ///< HTTP bearer token, "" for none
  unsigned connectTimeoutMs = 3000;
  unsigned transferTimeoutMs = 60000;
};

/// The outcome of one request.
enum class RemoteStatus {
  ok,
  missing,     ///< no such entry
  unavailable, ///< cannot connect, timed out, server error
  denied,      ///< 401/403, or Redis refused the password
};

/// One connection to a store (not thread-safe: RemoteCache gives each
/// thread its own).
class RemoteBackend {
public:
  virtual ~RemoteBackend();
  virtual RemoteStatus get(std::string_view key, std::string &bytes,
                           std::string &error) = 0;
  virtual RemoteStatus exists(std::string_view key, std::string &error) = 0;
  /// Stores `bytes` under `key` so that a reader sees all of them or none.
  virtual RemoteStatus put(std::string_view key, std::string_view bytes,
                           std::string &error) = 0;
};

/// Checks a downloaded entry: it parses and verifies, and it is the entry
/// of `key` compiled by this compiler for `target`/`chip` ("" accepts any,
/// for `cache push`/`pull` of whole caches). Sets `error` on failure.
bool verifyRemoteEntry(std::string_view bytes, std::string_view key,
                       std::string_view target, std::string_view chip,
                       Entry &out, std::string &error);

/// `bytes` for people: "512 B", "12.3 kB", "4.5 MB", "1.2 GB".
std::string humanBytes(uint64_t bytes);

/// A remote cache shared by a run's threads.
class RemoteCache {
public:
  /// Checks the URL (scheme, host, port, database); nullptr with `error`
  /// for a malformed one. Connects lazily.
  static std::unique_ptr<RemoteCache> open(const RemoteOptions &options,
                                           std::string &error);
  ~RemoteCache();

  enum class Fetch { hit, miss, rejected, unavailable };
  /// Looks up `key`; a hit is verified (verifyRemoteEntry) and returned in
  /// `out`, a rejected entry is reported once on stderr and not used.
  Fetch fetch(std::string_view key, std::string_view target,
              std::string_view chip, Entry &out);
  /// Uploads `entry` unless read-only or the remote is off; true when
  /// stored (or already there with `skipExisting`).
  bool store(const Entry &entry, bool skipExisting = false);

  bool readOnly() const { return options.readOnly; }
  bool available() const { return !off.load(); }
  /// The URL as printed: a password in it replaced by `***`.
  const std::string &url() const { return shownUrl; }

  struct Counters {
    std::atomic<unsigned> hits{0}, misses{0}, rejected{0}, uploaded{0},
        alreadyThere{0};
    std::atomic<uint64_t> bytesDown{0}, bytesUp{0};
  };
  const Counters &counters() const { return count; }

private:
  explicit RemoteCache(RemoteOptions options);
  std::unique_ptr<RemoteBackend> connect();
  std::unique_ptr<RemoteBackend> acquire();
  void release(std::unique_ptr<RemoteBackend> backend);
  /// Turns the remote off after `status` (unavailable or denied), warning
  /// once.
  void turnOff(RemoteStatus status, const std::string &error);

  RemoteOptions options;
  std::string shownUrl;
  std::mutex mutex;
  std::vector<std::unique_ptr<RemoteBackend>> idle;
  std::atomic<bool> off{false};
  std::atomic<bool> warned{false};
  std::atomic<bool> noUploads{false}, warnedUpload{false};
  Counters count;
};

} // namespace zluda::cache

#endif // ZLUDA_COMPILER_CACHE_REMOTE_H
