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
  char cost[256];
  double ms = double(counts.nanoseconds) / 1e6,
         mb = double(counts.imageBytes) / (1 << 20),
         entryMs = double(counts.entryNanoseconds) / 1e6,
         entryMb = double(counts.entryBytes) / (1 << 20);
  std::snprintf(cost, sizeof cost,
                "; shim time %.3f ms for %.3f MB of images (%.3f ms/MB): "
                "finding keys %.3f ms (%.3f ms/MB), reading entries %.3f ms "
                "for %.3f MB",
                ms, mb, mb > 0 ? ms / mb : 0.0, ms - entryMs,
                mb > 0 ? (ms - entryMs) / mb : 0.0, entryMs, entryMb);
  log("summary: " + std::to_string(counts.images) + " images, " +
      std::to_string(counts.served) + " served from the cache, " +
      std::to_string(counts.fallbacks) + " fallbacks, " +
      std::to_string(counts.refused) + " refused" + cost + "; " +
      std::to_string(counts.indexed) + " found by the image index");
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

std::string Shim::moduleHashOf(ImageInfo &info, bool &indexed) {
  indexed = false;
  // The index is skipped when comparing: that needs the original's PTX.
  if (store && info.problem.empty() && !info.span.empty() &&
      !Compare::active()) {
    cache::ImageRecord record;
    std::string error;
    if (store->readImage(cache::imageIndexKey(info.span), record, error) ==
            cache::ReadStatus::ok &&
        record.compilerVersion == cache::compilerVersion() &&
        record.imageBytes == info.span.size()) {
      indexed = true;
      info.hasPTX = !record.linked;
      if (record.linked)
        info.problem = "no PTX in the fatbin";
      return record.moduleHash;
    }
  }
  extractModule(info);
  if (info.hasPTX)
    return cache::Sha256::hex(info.ptx);
  // A machine-code-only container (an -rdc program's linked image) is
  // looked up by its own hash; anything else without PTX cannot be served.
  if (!info.containerSha256.empty())
    return cache::linkedImageHash(info.containerSha256);
  return "";
}

Shim::Decision Shim::decide(const char *api, const ImageInfo &image,
                            const std::string &moduleHash, bool indexed,
                            cache::Entry &entry) {
  ++counts.images;
  counts.imageBytes += image.span.size();
  std::string head = std::string(api) + " " + imageKindName(image.kind);
  auto outcome = [&](const std::string &status) {
    Decision d = config.strict ? Decision::refuse : Decision::fallback;
    log(head + " " + status +
        (d == Decision::refuse ? " -> refused (strict)"
                               : " -> fallback to the original image"));
    ++(d == Decision::refuse ? counts.refused : counts.fallbacks);
    return d;
  };
  if (moduleHash.empty())
    return outcome("not served: " + image.problem);
  if (indexed)
    ++counts.indexed;
  head += image.hasPTX ? " ptx-sha256=" + moduleHash.substr(0, 16)
                       : " linked-image sha256=" +
                             moduleHash.substr(moduleHash.find(':') + 1, 16);
  if (indexed)
    head += " (image index)";
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
  auto readStart = std::chrono::steady_clock::now();
  for (const std::string &candidate : cache::targetIdLookupOrder(device)) {
    key = cache::moduleKeyOfPtxHash(
        moduleHash, target, candidate, 0,
        oneWarpPerWave(device) ? cache::kOneWarpPerWave : "");
    chip = candidate;
    status = store->read(key, entry, error);
    if (status != cache::ReadStatus::missing)
      break;
  }
  counts.entryNanoseconds +=
      uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                   std::chrono::steady_clock::now() - readStart)
                   .count());
  counts.entryBytes += entry.object.size();
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
  ImageInfo info = locateImage(image, size);
  bool indexed;
  ptxSha256 = moduleHashOf(info, indexed);
  Decision d = decide(api, info, ptxSha256, indexed, entry);
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

// JIT links. A program that compiles PTX at run time through the linker
// (cuLinkCreate, cuLinkAddData/AddFile, cuLinkComplete, then
// cuModuleLoadData of the linked image) gets, for a link of one PTX input,
// that PTX text as the "linked image": its load is then looked up in the
// cache like any PTX load (served, or falling back to the driver's JIT, or
// refused when strict), and no link runs. A link of several inputs, or of
// anything but PTX, is replayed to the driver's linker at cuLinkComplete
// with the options given (the image it links is machine code: its load
// falls back, or is refused when strict).

namespace {
/// A call's JIT options, kept until the link is replayed.
struct JitOptions {
  std::vector<CUjit_option> keys;
  std::vector<void *> values;
};

JitOptions copyOptions(unsigned n, CUjit_option *o, void **v) {
  JitOptions out;
  if (o && v)
    for (unsigned i = 0; i < n; ++i) {
      out.keys.push_back(o[i]);
      out.values.push_back(v[i]);
    }
  return out;
}
} // namespace

struct Shim::Link {
  using Option = JitOptions;
  struct Input {
    CUjitInputType type;
    std::string bytes; ///< the data (a file's contents for AddFile)
    std::string name;  ///< AddData's name
    std::string path;  ///< AddFile's path ("" for AddData)
    Option options;
  };
  Option options;
  std::vector<Input> inputs;
  CUlinkState driverLink = nullptr; ///< once replayed to the driver
  std::string image;                ///< the PTX given back
};

Shim::Link *Shim::findLink(CUlinkState s) {
  std::lock_guard<std::mutex> lock(linkMutex);
  auto it = links.find(s);
  return it == links.end() ? nullptr : it->second.get();
}

CUresult Shim::linkCreate(unsigned n, CUjit_option *o, void **v,
                          CUlinkState *s) {
  if (!s)
    return CUDA_ERROR_INVALID_VALUE;
  auto link = std::make_unique<Link>();
  link->options = copyOptions(n, o, v);
  *s = reinterpret_cast<CUlinkState>(link.get());
  std::lock_guard<std::mutex> lock(linkMutex);
  links[*s] = std::move(link);
  return CUDA_SUCCESS;
}

CUresult Shim::cuLinkCreate(unsigned n, CUjit_option *o, void **v,
                            CUlinkState *s) {
  return linkCreate(n, o, v, s);
}

CUresult Shim::cuLinkCreate_v2(unsigned n, CUjit_option *o, void **v,
                               CUlinkState *s) {
  return linkCreate(n, o, v, s);
}

CUresult Shim::linkAdd(CUlinkState s, CUjitInputType t, std::string bytes,
                       const char *name, const char *path, unsigned n,
                       CUjit_option *o, void **v) {
  Link *link = findLink(s);
  if (!link)
    return CUDA_ERROR_INVALID_HANDLE;
  link->inputs.push_back({t, std::move(bytes), name ? name : "",
                          path ? path : "", copyOptions(n, o, v)});
  return CUDA_SUCCESS;
}

CUresult Shim::cuLinkAddData(CUlinkState s, CUjitInputType t, void *data,
                             size_t size, const char *name, unsigned n,
                             CUjit_option *o, void **v) {
  return cuLinkAddData_v2(s, t, data, size, name, n, o, v);
}

CUresult Shim::cuLinkAddData_v2(CUlinkState s, CUjitInputType t, void *data,
                                size_t size, const char *name, unsigned n,
                                CUjit_option *o, void **v) {
  if (!data || !size)
    return CUDA_ERROR_INVALID_VALUE;
  return linkAdd(s, t, std::string(static_cast<const char *>(data), size), name,
                 nullptr, n, o, v);
}

CUresult Shim::cuLinkAddFile(CUlinkState s, CUjitInputType t, const char *path,
                             unsigned n, CUjit_option *o, void **v) {
  return cuLinkAddFile_v2(s, t, path, n, o, v);
}

CUresult Shim::cuLinkAddFile_v2(CUlinkState s, CUjitInputType t,
                                const char *path, unsigned n, CUjit_option *o,
                                void **v) {
  std::string bytes;
  if (!path || !readWholeFile(path, bytes))
    return CUDA_ERROR_FILE_NOT_FOUND;
  return linkAdd(s, t, std::move(bytes), nullptr, path, n, o, v);
}

CUresult Shim::cuLinkComplete(CUlinkState s, void **cubin, size_t *size) {
  Link *link = findLink(s);
  if (!link)
    return CUDA_ERROR_INVALID_HANDLE;
  if (!cubin || !size)
    return CUDA_ERROR_INVALID_VALUE;
  if (link->inputs.size() == 1 && link->inputs[0].type == CU_JIT_INPUT_PTX) {
    const Link::Input &in = link->inputs[0];
    link->image = in.bytes.substr(0, in.bytes.find('\0'));
    link->image.push_back('\0');
    *cubin = link->image.data();
    *size = link->image.size();
    log("cuLinkComplete one PTX input (" +
        (in.path.empty() ? "data '" + in.name + "'" : in.path) +
        ") -> its text, loaded through the cache");
    return CUDA_SUCCESS;
  }
  log("cuLinkComplete " + std::to_string(link->inputs.size()) +
      " input(s) -> the driver's linker");
  if (!real.cuLinkCreate_v2 || !real.cuLinkAddData_v2 || !real.cuLinkComplete)
    return CUDA_ERROR_NOT_SUPPORTED;
  if (!link->driverLink) {
    Link::Option &o = link->options;
    CUresult r = real.cuLinkCreate_v2(unsigned(o.keys.size()), o.keys.data(),
                                      o.values.data(), &link->driverLink);
    if (r != CUDA_SUCCESS)
      return r;
    for (Link::Input &in : link->inputs) {
      Link::Option &io = in.options;
      r = real.cuLinkAddData_v2(
          link->driverLink, in.type, in.bytes.data(), in.bytes.size(),
          in.path.empty() ? in.name.c_str() : in.path.c_str(),
          unsigned(io.keys.size()), io.keys.data(), io.values.data());
      if (r != CUDA_SUCCESS)
        return r;
    }
  }
  return real.cuLinkComplete(link->driverLink, cubin, size);
}

CUresult Shim::cuLinkDestroy(CUlinkState s) {
  std::unique_ptr<Link> link;
  {
    std::lock_guard<std::mutex> lock(linkMutex);
    auto it = links.find(s);
    if (it == links.end())
      return CUDA_ERROR_INVALID_HANDLE;
    link = std::move(it->second);
    links.erase(it);
  }
  if (link->driverLink && real.cuLinkDestroy)
    return real.cuLinkDestroy(link->driverLink);
  return CUDA_SUCCESS;
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
