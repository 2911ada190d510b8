//===- CacheCommands.cpp - `cache verify|list|prune` ----------------------===//

#include "CacheCommands.h"

#include "compiler/Build/Build.h"
#include "compiler/Cache/Cache.h"
#include "compiler/Cache/Remote.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

using namespace zluda;

namespace {

/// Whether `dir` is a cache (a directory with v1/entries); says why not.
bool isCache(const std::string &dir, const char *command) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const char *why = nullptr;
  if (!fs::exists(dir, ec))
    why = "no such directory";
  else if (!fs::is_directory(dir, ec))
    why = "not a directory";
  else if (!fs::is_directory(fs::path(dir) / "v1" / "entries", ec))
    why = "not a zluda-precompile cache (no v1/entries)";
  if (why)
    fmt::print(stderr, "zluda-precompile: error: cache {}: {}: {}\n", command,
               dir, why);
  return !why;
}

} // namespace

int driver::runCacheVerify(const std::string &dir, bool removeCorrupt) {
  if (!isCache(dir, "verify"))
    return 1;
  cache::Cache store(dir);
  unsigned ok = 0, bad = 0;
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    if (store.read(key, e, error) == cache::ReadStatus::ok) {
      ++ok;
      continue;
    }
    ++bad;
    fmt::print("corrupt: {}: {}\n", store.entryPath(key), error);
    if (removeCorrupt)
      store.remove(key);
  }
  // The image index: each record readable (a torn or damaged one is only a
  // missed shortcut for the shim, but it is reported and removed alike).
  unsigned images = 0, badImages = 0;
  for (const std::string &indexKey : store.imageKeys()) {
    cache::ImageRecord r;
    std::string error;
    if (store.readImage(indexKey, r, error) == cache::ReadStatus::ok) {
      ++images;
      continue;
    }
    ++badImages;
    fmt::print("corrupt: {}: {}\n", store.imagePath(indexKey), error);
    if (removeCorrupt)
      store.removeImage(indexKey);
  }
  // The layout: what is not the cache's, and what killed writers left
  // (older than an hour, as build removes them: not a running write).
  std::vector<cache::Cache::LayoutProblem> layout = store.layoutProblems(3600);
  for (const auto &problem : layout) {
    bool stale = problem.path.find("/v1/tmp/") != std::string::npos;
    fmt::print("{}: {}: {}\n", stale ? "stale" : "stray", problem.path,
               problem.why);
  }
  std::string repaired;
  if (removeCorrupt && !layout.empty()) {
    for (const auto &problem : layout) {
      std::error_code ec;
      std::filesystem::remove_all(problem.path, ec);
      if (ec)
        fmt::print(stderr, "zluda-precompile: error: cannot remove {}: {}\n",
                   problem.path, ec.message());
    }
    std::string error;
    repaired = build::writeManifest(store, error) ? "; manifest written" : "";
    if (!error.empty())
      fmt::print(stderr, "zluda-precompile: error: {}\n", error);
  }
  std::string layoutText =
      layout.empty()
          ? ""
          : fmt::format(", {} layout problems{}", layout.size(),
                        removeCorrupt ? " (removed" + repaired + ")" : "");
  std::string imageText =
      images + badImages
          ? fmt::format(", {} image records, {} corrupt{}", images + badImages,
                        badImages,
                        badImages && removeCorrupt ? " (removed)" : "")
          : "";
  fmt::print("{} entries verified, {} corrupt{}{}{}\n", ok, bad,
             bad && removeCorrupt ? " (removed)" : "", imageText, layoutText);
  return bad || badImages || !layout.empty() ? 1 : 0;
}

int driver::runCacheList(const std::string &dir) {
  if (!isCache(dir, "list"))
    return 1;
  cache::Cache store(dir);
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    if (store.read(key, e, error) != cache::ReadStatus::ok) {
      fmt::print("{} corrupt ({})\n", key, error);
      continue;
    }
    fmt::print("{} {} {} {} bytes, {} kernels, {} missing\n", key,
               e.meta.target, e.meta.chip, e.object.size(),
               e.meta.kernels.size(), e.meta.missingKernels.size());
  }
  return 0;
}

int driver::runCachePrune(const std::string &dir, uint64_t maxBytes) {
  if (!isCache(dir, "prune"))
    return 1;
  cache::Cache store(dir);
  std::string current(cache::compilerVersion());
  unsigned kept = 0, removed = 0;
  uint64_t freed = 0;
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    cache::ReadStatus rs = store.read(key, e, error);
    if (rs == cache::ReadStatus::ok && e.meta.compilerVersion == current) {
      ++kept;
      continue;
    }
    // Another compiler's entry (no key of this one can reach it) or a
    // corrupt one.
    std::error_code ec;
    uint64_t size = std::filesystem::file_size(store.entryPath(key), ec);
    store.remove(key);
    ++removed;
    freed += ec ? 0 : size;
  }
  // Image records of other compilers (the shim ignores them) or corrupt.
  unsigned imagesRemoved = 0;
  for (const std::string &indexKey : store.imageKeys()) {
    cache::ImageRecord r;
    std::string error;
    if (store.readImage(indexKey, r, error) == cache::ReadStatus::ok &&
        r.compilerVersion == current)
      continue;
    store.removeImage(indexKey);
    ++imagesRemoved;
  }
  store.removeStaleTemporaries(3600); // as build does: not a running write
  fmt::print("{} entries kept, {} removed ({:.1f} MB): entries of other "
             "compiler versions and corrupt ones{}\n",
             kept, removed, double(freed) / (1 << 20),
             imagesRemoved ? fmt::format("; {} image records of other "
                                         "compilers or corrupt removed",
                                         imagesRemoved)
                           : "");
  if (!maxBytes)
    return 0;
  // Least recently used first (modification time, then key: a stable
  // order), until the rest fits.
  namespace fs = std::filesystem;
  struct Use {
    fs::file_time_type time;
    std::string key;
    uint64_t size;
  };
  std::vector<Use> uses;
  uint64_t total = 0;
  for (const std::string &key : store.keys()) {
    std::error_code ec;
    fs::path p = store.entryPath(key);
    uint64_t size = fs::file_size(p, ec);
    if (ec)
      continue;
    uses.push_back({fs::last_write_time(p, ec), key, size});
    total += size;
  }
  std::sort(uses.begin(), uses.end(), [](const Use &a, const Use &b) {
    return a.time != b.time ? a.time < b.time : a.key < b.key;
  });
  unsigned evicted = 0;
  uint64_t evictedBytes = 0;
  for (const Use &u : uses) {
    if (total <= maxBytes)
      break;
    store.remove(u.key);
    total -= u.size;
    evictedBytes += u.size;
    ++evicted;
  }
  std::string error;
  if (evicted && !build::writeManifest(store, error))
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
  fmt::print("{} least recently used entries evicted ({:.1f} MB): {:.1f} MB "
             "left, at most {:.1f} MB\n",
             evicted, double(evictedBytes) / (1 << 20),
             double(total) / (1 << 20), double(maxBytes) / (1 << 20));
  return 0;
}

int driver::runCacheMerge(const std::vector<std::string> &sources,
                          const std::string &into) {
  for (const std::string &src : sources)
    if (!isCache(src, "merge"))
      return 1;
  cache::Cache dst(into);
  std::string error;
  if (!dst.open(error)) {
    fmt::print(stderr, "zluda-precompile: error: cache merge: {}\n", error);
    return 1;
  }
  unsigned added = 0, same = 0, conflicts = 0, corrupt = 0, failed = 0;
  for (const std::string &src : sources) {
    cache::Cache from(src);
    for (const std::string &key : from.keys()) {
      cache::Entry e;
      if (from.read(key, e, error) != cache::ReadStatus::ok) {
        fmt::print(stderr,
                   "zluda-precompile: error: {}: corrupt, not merged "
                   "({})\n",
                   from.entryPath(key), error);
        ++corrupt;
        continue;
      }
      cache::Entry have;
      std::string ignored;
      bool write = true, conflict = false;
      if (dst.read(key, have, ignored) == cache::ReadStatus::ok) {
        std::string a = cache::serializeEntry(have),
                    b = cache::serializeEntry(e);
        if (a == b) {
          ++same;
          continue;
        }
        ++conflicts;
        conflict = true;
        fmt::print(stderr,
                   "zluda-precompile: error: {}: two different entries for "
                   "key {} (compilers '{}' and '{}'); keeping one\n",
                   src, key, have.meta.compilerVersion, e.meta.compilerVersion);
        write = b < a; // the same choice whatever the order
      }
      if (write && !dst.write(e, error)) {
        fmt::print(stderr, "zluda-precompile: error: {}\n", error);
        ++failed;
        continue;
      }
      added += write && !conflict;
    }
    // The image index: a record the destination lacks (or has from another
    // compiler) is copied.
    std::string current(cache::compilerVersion());
    for (const std::string &indexKey : from.imageKeys()) {
      cache::ImageRecord r, have;
      std::string ignored;
      if (from.readImage(indexKey, r, ignored) != cache::ReadStatus::ok)
        continue;
      if (dst.readImage(indexKey, have, ignored) == cache::ReadStatus::ok &&
          (have.compilerVersion == current || r.compilerVersion != current))
        continue;
      if (!dst.writeImage(indexKey, r, error)) {
        fmt::print(stderr, "zluda-precompile: error: {}\n", error);
        ++failed;
      }
    }
  }
  if (!build::writeManifest(dst, error)) {
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
    ++failed;
  }
  fmt::print("{} entries merged into {}: {} added, {} already there, {} "
             "conflicting, {} corrupt skipped\n",
             added + same + conflicts, into, added, same, conflicts, corrupt);
  return conflicts || corrupt || failed ? 1 : 0;
}

int driver::runCachePush(const std::string &dir, const std::string &remoteUrl,
                         const std::string &token) {
  if (!isCache(dir, "push"))
    return 1;
  if (remoteUrl.empty()) {
    fmt::print(stderr, "zluda-precompile: error: cache push needs --remote "
                       "URL (or ZLUDA_REMOTE_CACHE)\n");
    return 1;
  }
  cache::RemoteOptions ro;
  ro.url = remoteUrl;
  ro.token = token;
  std::string error;
  std::unique_ptr<cache::RemoteCache> remote =
      cache::RemoteCache::open(ro, error);
  if (!remote) {
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
    return 1;
  }
  cache::Cache store(dir);
  unsigned corrupt = 0, failed = 0;
  std::vector<std::string> keys = store.keys();
  for (const std::string &key : keys) {
    cache::Entry entry;
    if (store.read(key, entry, error) != cache::ReadStatus::ok) {
      fmt::print(stderr, "zluda-precompile: error: {}: {}, not pushed\n",
                 store.entryPath(key), error);
      ++corrupt;
      continue;
    }
    if (!remote->store(entry, /*skipExisting=*/true))
      ++failed;
    if (!remote->available())
      break;
  }
  const auto &c = remote->counters();
  fmt::print("{} entries pushed to {}: {} uploaded ({}), {} already there, "
             "{} corrupt skipped{}\n",
             keys.size(), remote->url(), c.uploaded.load(),
             cache::humanBytes(c.bytesUp), c.alreadyThere.load(), corrupt,
             remote->available() ? "" : "; the remote became unreachable");
  return corrupt || failed ? 1 : 0;
}
