//===- Shim.cpp - Serving the cache in place of the application's images --===//

#include "runtime-shim/Shim.h"

#include "runtime-shim/Compare.h"

#include "compiler/Cache/Cache.h"
#include "compiler/Cache/Sha256.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

using namespace zluda;
using namespace zluda::shim;

namespace {

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? v : "";
}

constexpr bool endsWith(const char *s, const char *suffix) {
  size_t n = 0, m = 0;
  while (s[n])
    ++n;
  while (suffix[m])
    ++m;
  if (m > n)
    return false;
  for (size_t i = 0; i < m; ++i)
    if (s[n - m + i] != suffix[i])
      return false;
  return true;
}

} // namespace

Config Config::fromEnvironment() {
  Config c;
  // The cache: ZLUDA_SHIM_CACHE, else the one zluda-precompile fills by
  // default ($ZLUDA_CACHE_DIR, else ~/.zluda/cache) when it exists.
  c.cacheDir = env("ZLUDA_SHIM_CACHE");
  if (c.cacheDir.empty()) {
    std::string dflt = cache::defaultCacheDir();
    struct stat st;
    if (!dflt.empty() && ::stat((dflt + "/v1/entries").c_str(), &st) == 0 &&
        S_ISDIR(st.st_mode))
      c.cacheDir = dflt;
  }
  c.strict = env("ZLUDA_SHIM_STRICT") == "1";
  c.logPath = env("ZLUDA_SHIM_LOG");
  c.backend = env("ZLUDA_SHIM_BACKEND");
  c.compare = env("ZLUDA_SHIM_COMPARE");
  c.record = env("ZLUDA_SHIM_RECORD");
  return c;
}

bool zluda::shim::readWholeFile(const char *path, std::string &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

Shim::Shim(Config cfg, RealDriver &driver, BackendFactory factory)
    : config(std::move(cfg)), real(driver), makeBackend(std::move(factory)) {
  if (!config.logPath.empty()) {
    logFile = std::fopen(config.logPath.c_str(), "ae");
    if (logFile)
      setvbuf(logFile, nullptr, _IOLBF, 0);
  }
  if (!config.cacheDir.empty()) {
    store.emplace(config.cacheDir);
    std::string error;
    if (!store->open(error)) {
      log("cache " + config.cacheDir + " unusable: " + error);
      store.reset();
    }
  }
  if (!config.compare.empty() &&
      !Compare::install(real, config.compare, config.record))
    log("no launch-by-launch comparison: cannot open " + config.compare +
        ", or the driver lacks entry points it needs");
  log(std::string("start: driver ") +
      (real.path.empty() ? "(none)" : real.path) + ", cache " +
      (store ? store->root() : "(none)") + (config.strict ? ", strict" : ""));
}

Shim::~Shim() {
  finish();
  if (logFile)
    std::fclose(logFile);
}

void Shim::finish() {
  if (Compare *c = Compare::active())
    c->finish();
  {
    std::lock_guard<std::mutex> lock(logMutex);
    if (finished)
      return;
    finished = true;
  }
  char cost[128];
  double ms = double(counts.nanoseconds) / 1e6,
         mb = double(counts.imageBytes) / (1 << 20);
  std::snprintf(cost, sizeof cost,
                "; shim time %.3f ms for %.3f MB of images (%.3f ms/MB)", ms,
                mb, mb > 0 ? ms / mb : 0.0);
  log("summary: " + std::to_string(counts.images) + " images, " +
      std::to_string(counts.served) + " served from the cache, " +
      std::to_string(counts.fallbacks) + " fallbacks, " +
      std::to_string(counts.refused) + " refused" + cost);
}

void Shim::log(const std::string &line) {
  if (!logFile)
    return;
  std::lock_guard<std::mutex> lock(logMutex);
  std::fprintf(logFile, "zluda-shim[%d]: %s\n", int(getpid()), line.c_str());
}

Backend *Shim::getBackend() {
  std::call_once(backendOnce, [&] {
    std::string error;
    backend = makeBackend ? makeBackend(real, registry, error) : nullptr;
    if (backend)
      log(std::string("backend ") + backend->name());
    else
      log("no backend: " + (error.empty() ? "none configured" : error));
    backendPtr.store(backend.get(), std::memory_order_release);
  });
  return backendPtr.load(std::memory_order_acquire);
}

Shim::Decision Shim::decide(const char *api, const ImageInfo &image,
                            cache::Entry &entry, std::string &ptxSha256) {
  ++counts.images;
  counts.imageBytes += image.bytes;
  std::string head = std::string(api) + " " + imageKindName(image.kind);
  auto outcome = [&](const std::string &status) {
    Decision d = config.strict ? Decision::refuse : Decision::fallback;
    log(head + " " + status +
        (d == Decision::refuse ? " -> refused (strict)"
                               : " -> fallback to the original image"));
    ++(d == Decision::refuse ? counts.refused : counts.fallbacks);
    return d;
  };
  // A machine-code-only container (an -rdc program's linked image) is
  // looked up by its own hash; anything else without PTX cannot be served.
  if (!image.hasPTX && image.containerSha256.empty())
    return outcome("not served: " + image.problem);
  // Hashed once: for the log, the key and the comparison's record.
  ptxSha256 = image.hasPTX ? cache::Sha256::hex(image.ptx)
                           : cache::linkedImageHash(image.containerSha256);
  head += image.hasPTX
              ? " ptx-sha256=" + ptxSha256.substr(0, 16)
              : " linked-image sha256=" + image.containerSha256.substr(0, 16);
  if (!store)
    return outcome("miss: no cache");
  Backend *b = getBackend();
  if (!b)
    return outcome("miss: no backend");
  std::string target, chip;
  if (b->deviceTarget(target, chip) != CUDA_SUCCESS)
    return outcome("miss: the device's processor is unknown");
  // The device's own target ID first (`gfx942:sramecc+:xnack-`), then
  // builds for either mode of its settings, down to the bare processor.
  std::string key, error, device = chip;
  cache::ReadStatus status = cache::ReadStatus::missing;
  for (const std::string &candidate : cache::targetIdLookupOrder(device)) {
    key = cache::moduleKeyOfPtxHash(
        ptxSha256, target, candidate, 0,
        oneWarpPerWave(device) ? cache::kOneWarpPerWave : "");
    chip = candidate;
    status = store->read(key, entry, error);
    if (status != cache::ReadStatus::missing)
      break;
  }
  head += " " + target + ":" + device +
          (chip == device ? "" : " (as " + chip + ")") +
          (oneWarpPerWave(device) ? " one-warp-a-wave" : "") +
          " key=" + key.substr(0, 16);
  switch (status) {
  case cache::ReadStatus::missing:
    return outcome(image.hasPTX ? "miss"
                                : "miss: " + image.problem +
                                      ", and no linked build of the program "
                                      "(build the executable)");
  case cache::ReadStatus::corrupt:
    return outcome("rejected: " + error);
  case cache::ReadStatus::ok:
    break;
  }
  const cache::EntryMeta &m = entry.meta;
  if (m.target != target || m.chip != chip ||
      m.compilerVersion != cache::compilerVersion())
    return outcome("rejected: entry for " + m.target + ":" + m.chip +
                   " by compiler " + m.compilerVersion);
  if (entry.object.empty())
    return outcome("failed at build time: " + m.error);
  store->markUsed(key); // for cache prune --max-size (least recently used)
  if (!m.missingKernels.empty())
    return outcome("partial: " + std::to_string(m.missingKernels.size()) +
                   " kernel(s) not compiled, first " + m.missingKernels[0]);
  ++counts.served;
  std::string names;
  for (size_t i = 0; i < m.kernels.size() && i < 4; ++i)
    names += (i ? "," : " ") + m.kernels[i];
  if (m.kernels.size() > 4)
    names += ",...";
  log(head + " hit -> served, " + std::to_string(m.kernels.size()) +
      " kernel(s)" + names);
  return Decision::serve;
}

Shim::Decision Shim::lookup(const char *api, const void *image, size_t size,
                            cache::Entry &entry, std::string &ptx,
                            std::string &ptxSha256) {
  auto start = std::chrono::steady_clock::now();
  ImageInfo info = readImage(image, size);
  Decision d = decide(api, info, entry, ptxSha256);
  if (!info.hasPTX)
    ptxSha256.clear(); // a linked image's hash: no PTX to record
  else if (Compare::active())
    ptx = std::move(info.ptx);
  counts.nanoseconds +=
      uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count());
  return d;
}

Shim::Decision Shim::afterServe(const char *api, CUresult result) {
  if (result == CUDA_SUCCESS)
    return Decision::serve;
  --counts.served;
  log(std::string(api) + " the backend failed to load the entry (error " +
      std::to_string(result) + ")" +
      (config.strict ? " -> refused (strict)" : " -> fallback"));
  ++(config.strict ? counts.refused : counts.fallbacks);
  return config.strict ? Decision::refuse : Decision::fallback;
}

// Loads: serve, fall back to the real driver's own call, or refuse.

template <typename Serve, typename Fallback>
CUresult Shim::load(const char *api, const void *image, size_t size,
                    Serve serve, Fallback fallback) {
  cache::Entry entry;
  std::string ptx, ptxSha256;
  Decision d = lookup(api, image, size, entry, ptx, ptxSha256);
  if (d == Decision::serve) {
    Compare::OriginalScope original(image, ptx, ptxSha256);
    d = afterServe(api, serve(entry));
  }
  if (d == Decision::serve)
    return CUDA_SUCCESS;
  if (d == Decision::refuse)
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  return fallback();
}

CUresult Shim::cuModuleLoadData(CUmodule *m, const void *image) {
  return cuModuleLoadDataEx(m, image, 0, nullptr, nullptr);
}

CUresult Shim::cuModuleLoadFatBinary(CUmodule *m, const void *image) {
  return load(
      "cuModuleLoadFatBinary", image, 0,
      [&](cache::Entry &e) {
        return backend->loadModule(m, e.object, e.meta.kernels);
      },
      [&] {
        return real.cuModuleLoadFatBinary ? real.cuModuleLoadFatBinary(m, image)
                                          : CUDA_ERROR_NOT_SUPPORTED;
      });
}

CUresult Shim::cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                  CUjit_option *opts, void **vals) {
  return load(
      n ? "cuModuleLoadDataEx" : "cuModuleLoadData", image, 0,
      [&](cache::Entry &e) {
        return backend->loadModule(m, e.object, e.meta.kernels);
      },
      [&] {
        if (n == 0 && real.cuModuleLoadData)
          return real.cuModuleLoadData(m, image);
        return real.cuModuleLoadDataEx
                   ? real.cuModuleLoadDataEx(m, image, n, opts, vals)
                   : CUDA_ERROR_NOT_SUPPORTED;
      });
}

template <typename Serve, typename Fallback>
CUresult Shim::loadFile(const char *api, const char *fname, Serve serve,
                        Fallback fallback) {
  // An unreadable file is the driver's to report.
  std::string bytes;
  if (!fname || !readWholeFile(fname, bytes))
    return fallback();
  return load(api, bytes.data(), bytes.size(), serve, fallback);
}

CUresult Shim::cuModuleLoad(CUmodule *m, const char *fname) {
  return loadFile(
      "cuModuleLoad", fname,
      [&](cache::Entry &e) {
        return backend->loadModule(m, e.object, e.meta.kernels);
      },
      [&] {
        return real.cuModuleLoad ? real.cuModuleLoad(m, fname)
                                 : CUDA_ERROR_FILE_NOT_FOUND;
      });
}

CUresult Shim::cuLibraryLoadData(CUlibrary *l, const void *code,
                                 CUjit_option *jo, void **jv, unsigned nj,
                                 CUlibraryOption *lo, void **lv, unsigned nl) {
  return load(
      "cuLibraryLoadData", code, 0,
      [&](cache::Entry &e) {
        return backend->loadLibrary(l, e.object, e.meta.kernels, jo, jv, nj, lo,
                                    lv, nl);
      },
      [&] {
        return real.cuLibraryLoadData
                   ? real.cuLibraryLoadData(l, code, jo, jv, nj, lo, lv, nl)
                   : CUDA_ERROR_NOT_SUPPORTED;
      });
}

CUresult Shim::cuLibraryLoadFromFile(CUlibrary *l, const char *fname,
                                     CUjit_option *jo, void **jv, unsigned nj,
                                     CUlibraryOption *lo, void **lv,
                                     unsigned nl) {
  return loadFile(
      "cuLibraryLoadFromFile", fname,
      [&](cache::Entry &e) {
        return backend->loadLibrary(l, e.object, e.meta.kernels, jo, jv, nj, lo,
                                    lv, nl);
      },
      [&] {
        return real.cuLibraryLoadFromFile
                   ? real.cuLibraryLoadFromFile(l, fname, jo, jv, nj, lo, lv,
                                                nl)
                   : CUDA_ERROR_FILE_NOT_FOUND;
      });
}

// Routed calls: the backend for handles it made, the real driver otherwise.
// No lock but the registry shard's reader lock.
#define ZLUDA_SHIM_ROUTE(name, params, args, handle)                           \
  CUresult Shim::name params {                                                 \
    Backend *b = backendPtr.load(std::memory_order_acquire);                   \
    if (b && registry.owns(handle)) {                                          \
      CUresult r = b->name args;                                               \
      if (endsWith(#name, "Unload") && r == CUDA_SUCCESS)                      \
        registry.remove(handle);                                               \
      return r;                                                                \
    }                                                                          \
    return real.name ? real.name args : CUDA_ERROR_NOT_SUPPORTED;              \
  }
ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_ROUTE)
#undef ZLUDA_SHIM_ROUTE

// Allocations: the driver's, noted for the launch-by-launch comparison.
#define ZLUDA_SHIM_TRACK(name, params, args, record)                           \
  CUresult Shim::name params {                                                 \
    CUresult r = real.name ? real.name args : CUDA_ERROR_NOT_SUPPORTED;        \
    if (r == CUDA_SUCCESS)                                                     \
      if (Compare *c = Compare::active())                                      \
        c->record;                                                             \
    return r;                                                                  \
  }
ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_TRACK)
#undef ZLUDA_SHIM_TRACK

// Calls the backends do not implement: the driver's, unless the handle is a
// backend object the driver cannot know.
#define ZLUDA_SHIM_GUARD(fn, params, args, handle)                             \
  CUresult Shim::fn params {                                                   \
    Backend *b = backendPtr.load(std::memory_order_acquire);                   \
    const void *shimHandle = handle;                                           \
    if (b && !b->makesDriverHandles() && registry.owns(shimHandle)) {          \
      log(std::string(#fn) + " on a " + b->name() +                            \
          " backend handle: not supported");                                   \
      return CUDA_ERROR_NOT_SUPPORTED;                                         \
    }                                                                          \
    return real.fn ? real.fn args : CUDA_ERROR_NOT_SUPPORTED;                  \
  }
ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_GUARD)
#undef ZLUDA_SHIM_GUARD
