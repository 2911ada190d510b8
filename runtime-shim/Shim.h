//===- Shim.h - Serving the cache in place of the application's images ----===//
//
// The policy half of the runtime shim. Each load call's image is read (a
// fatbin wrapper, a container, PTX, a cubin), the PTX the toolchain would
// have compiled is selected, its key is computed exactly as
// `zluda-precompile build` computes it, and the cache entry for the current
// device is checked (checksum, target, processor, compiler version, every
// kernel present). A verified entry is loaded by the backend and its handles
// are served by it; anything else falls back to the original image in the
// real driver (on ZLUDA, its JIT) — or, with ZLUDA_SHIM_STRICT=1, fails with
// CUDA_ERROR_NO_BINARY_FOR_GPU. Calls on handles the shim did not make go to
// the real driver unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_SHIM_H
#define ZLUDA_RUNTIME_SHIM_SHIM_H

#include "runtime-shim/Backend.h"
#include "runtime-shim/Image.h"
#include "runtime-shim/RealDriver.h"
#include "runtime-shim/Registry.h"

#include "compiler/Cache/Cache.h"

#include <atomic>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace zluda::shim {

struct Config {
  std::string cacheDir; ///< ZLUDA_SHIM_CACHE; no cache: everything forwarded
  bool strict = false;  ///< ZLUDA_SHIM_STRICT=1
  std::string logPath;  ///< ZLUDA_SHIM_LOG
  std::string backend;  ///< ZLUDA_SHIM_BACKEND: cuda, hip, or "" (detect)
  std::string compare; ///< ZLUDA_SHIM_COMPARE: launch-by-launch log (Compare.h)
  std::string record;  ///< ZLUDA_SHIM_RECORD: launches written out (Record.h)

  static Config fromEnvironment();
};

/// Counts for the log's summary line.
struct Stats {
  std::atomic<unsigned> images{0}, served{0}, fallbacks{0}, refused{0};
  /// Images whose key came from the cache's image index (no decompression,
  /// no SHA-256 of the PTX).
  std::atomic<unsigned> indexed{0};
  /// The shim's own time on loads (reading the image, selecting and hashing
  /// the PTX, reading and verifying the entry), without the backend's load,
  /// and the bytes of the images it read.
  std::atomic<uint64_t> nanoseconds{0}, imageBytes{0};
  /// Of that: reading and verifying entries, and their bytes (the rest is
  /// finding the key: the image's hash, the index, or the PTX's
  /// decompression and SHA-256).
  std::atomic<uint64_t> entryNanoseconds{0}, entryBytes{0};
};

class Shim {
public:
  /// `makeBackend` is called at the first load that needs one (HIP may only
  /// be loaded by the driver's cuInit); it may return null (then every load
  /// falls back, or is refused when strict).
  using BackendFactory = std::function<std::unique_ptr<Backend>(
      RealDriver &, Registry &, std::string &error)>;
  Shim(Config config, RealDriver &driver, BackendFactory makeBackend);
  ~Shim();

  RealDriver &driver() { return real; }
  Registry &handles() { return registry; }
  const Stats &stats() const { return counts; }
  /// Writes the summary line now (also done at destruction, once).
  void finish();

#define ZLUDA_SHIM_METHOD(name, params, ...) CUresult name params;
  ZLUDA_SHIM_LOADS(ZLUDA_SHIM_METHOD)
  ZLUDA_SHIM_LINKS(ZLUDA_SHIM_METHOD)
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_METHOD)
  ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_METHOD)
  ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_METHOD)
#undef ZLUDA_SHIM_METHOD

private:
  enum class Decision { serve, fallback, refuse };
  /// Looks the image up and logs the outcome; on `serve`, `entry` holds the
  /// verified cache entry. `moduleHash` is the hash the key is made of (the
  /// PTX's SHA-256 or cache::linkedImageHash; empty: the image cannot be
  /// served, for `image.problem`).
  Decision decide(const char *api, const ImageInfo &image,
                  const std::string &moduleHash, bool indexed,
                  cache::Entry &entry);
  /// The hash an image's keys are made of, from the cache's image index
  /// when it has a record of these bytes (then `indexed`), else from the
  /// image itself (decompressed and hashed; `info` gets its PTX).
  std::string moduleHashOf(ImageInfo &info, bool &indexed);
  /// Reads the image and decides, timing both (Stats::nanoseconds).
  /// `ptxSha256` gets the selected PTX's hash (empty for a linked image
  /// without PTX) and, with a launch-by-launch comparison, `ptx` the PTX.
  Decision lookup(const char *api, const void *image, size_t size,
                  cache::Entry &entry, std::string &ptx,
                  std::string &ptxSha256);
  /// One load call: `serve(entry)` loads a verified entry with the backend,
  /// `fallback()` makes the application's own call to the real driver.
  template <typename Serve, typename Fallback>
  CUresult load(const char *api, const void *image, size_t size, Serve serve,
                Fallback fallback);
  /// A load from a file: its bytes through `load`; an unreadable file falls
  /// back to the driver's own call, which reports it.
  template <typename Serve, typename Fallback>
  CUresult loadFile(const char *api, const char *fname, Serve serve,
                    Fallback fallback);
  /// After a served load: a backend failure falls back like a miss.
  Decision afterServe(const char *api, CUresult result);
  Backend *getBackend();
  void log(const std::string &line);

  /// A JIT link in progress (cuLink*, Shim.cpp): its options and inputs.
  struct Link;
  /// The link `s` names, or null.
  Link *findLink(CUlinkState s);
  CUresult linkCreate(unsigned n, CUjit_option *o, void **v, CUlinkState *s);
  CUresult linkAdd(CUlinkState s, CUjitInputType t, std::string bytes,
                   const char *name, const char *path, unsigned n,
                   CUjit_option *o, void **v);

  Config config;
  RealDriver &real;
  Registry registry;
  BackendFactory makeBackend;
  std::once_flag backendOnce;
  std::unique_ptr<Backend> backend;
  std::atomic<Backend *> backendPtr{nullptr};
  std::optional<cache::Cache> store;
  std::mutex logMutex;
  FILE *logFile = nullptr;
  bool finished = false;
  Stats counts;
  std::mutex linkMutex;
  std::map<CUlinkState, std::unique_ptr<Link>> links;
};

/// Reads a whole file (cuModuleLoad, cuLibraryLoadFromFile).
bool readWholeFile(const char *path, std::string &out);

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_SHIM_H
