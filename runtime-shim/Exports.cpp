//===- Exports.cpp - libcuda.so.1's entry points, served or forwarded -----===//
//
// The library's only exported symbols are the driver API's: the served ones
// below, and a stub for every other entry point (ForwardStubs.S) that jumps
// to the real driver's function through `zluda_shim_forward`. cudart finds
// the driver through cuGetProcAddress, so its answers are rewritten too: a
// pointer that is the real driver's version of a served entry point is
// replaced by the shim's, whatever name, version and flags asked for it.
//
//===----------------------------------------------------------------------===//

#include "runtime-shim/Shim.h"

#include <cstdlib>
#include <unordered_map>

#include <dlfcn.h>

using namespace zluda::shim;

namespace {

constexpr const char *kForwardNames[] = {
#define ZLUDA_SHIM_FORWARD(name) name,
#include "runtime-shim/Forwarded.inc"
#undef ZLUDA_SHIM_FORWARD
};
constexpr size_t kForwarded = sizeof kForwardNames / sizeof kForwardNames[0];

constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
CUresult noDriver() { return CUDA_ERROR_STUB_LIBRARY; }
CUresult noEntryPoint() { return CUDA_ERROR_NOT_SUPPORTED; }

} // namespace

// The stubs' jump table (a definition: the braces make it one).
extern "C" {
__attribute__((visibility("hidden"))) void *zluda_shim_forward[kForwarded];
}

namespace {

struct Global {
  RealDriver real;
  std::unique_ptr<Shim> shim;
  /// The real driver's function -> the shim's, for cuGetProcAddress.
  std::unordered_map<void *, void *> served;
};

std::string ownDirectory() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&ownDirectory), &info) && info.dli_fname)
    return directoryOf(info.dli_fname);
  return "";
}

std::unique_ptr<Backend> chooseBackend(const Config &config, RealDriver &real,
                                       Registry &registry, std::string &error) {
  std::string which = config.backend;
  const char *hipPath = std::getenv("ZLUDA_SHIM_HIP");
  void *hip = nullptr;
  if (hipPath && *hipPath)
    hip = dlopen(hipPath, RTLD_NOW | RTLD_LOCAL);
  // The HIP the driver underneath already loaded, if any.
  for (const char *name :
       {"libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so"})
    if (!hip)
      hip = dlopen(name, RTLD_NOW | RTLD_NOLOAD);
  if (which.empty())
    which = hip ? "hip" : "cuda";
  if (which == "cuda")
    return makeCudaBackend(real, registry);
  if (which == "hip") {
    if (!hip) {
      error = "no HIP runtime loaded (set ZLUDA_SHIM_HIP)";
      return nullptr;
    }
    return makeHipBackend(hip, registry, error);
  }
  error = "unknown ZLUDA_SHIM_BACKEND '" + which + "'";
  return nullptr;
}

Global &global() {
  static Global *g = [] {
    auto *g = new Global; // never destroyed: other destructors may call in
    Config config = Config::fromEnvironment();
    const char *explicitDriver = std::getenv("ZLUDA_SHIM_DRIVER");
    const char *libraryPath = std::getenv("LD_LIBRARY_PATH");
    std::string error;
    for (const std::string &file :
         driverCandidates(explicitDriver ? explicitDriver : "",
                          libraryPath ? libraryPath : "", ownDirectory(),
                          systemLibraryDirs()))
      if (g->real.open(file, error))
        break;
    for (size_t i = 0; i < kForwarded; ++i) {
      void *fn = g->real.symbol(kForwardNames[i]);
      zluda_shim_forward[i] =
          fn ? fn
             : reinterpret_cast<void *>(g->real.library ? &noEntryPoint
                                                        : &noDriver);
    }
    g->shim = std::make_unique<Shim>(
        config, g->real,
        [config](RealDriver &real, Registry &registry, std::string &err) {
          return chooseBackend(config, real, registry, err);
        });
    if (!g->real.library)
      std::fprintf(stderr, "zluda-shim: no driver library found%s%s\n",
                   error.empty() ? "" : ": ", error.c_str());
    return g;
  }();
  return *g;
}

void registerServed(Global &g, const char *name, void *ours) {
  if (void *theirs = g.real.symbol(name))
    g.served[theirs] = ours;
}

void substitute(void **pfn) {
  if (!pfn || !*pfn)
    return;
  const auto &served = global().served;
  auto it = served.find(*pfn);
  if (it != served.end())
    *pfn = it->second;
}

} // namespace

// The exported, served entry points.
extern "C" {

#define ZLUDA_SHIM_EXPORT(name, params, args, ...)                             \
  __attribute__((visibility("default"))) CUresult name params {                \
    return global().shim->name args;                                           \
  }
ZLUDA_SHIM_LOADS(ZLUDA_SHIM_EXPORT)
ZLUDA_SHIM_LINKS(ZLUDA_SHIM_EXPORT)
ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_EXPORT)
ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_EXPORT)
ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_EXPORT)
#undef ZLUDA_SHIM_EXPORT

__attribute__((visibility("default"))) CUresult
cuGetProcAddress_v2(const char *sym, void **pfn, int version, uint64_t flags,
                    int *status) {
  RealDriver &real = global().real;
  if (!real.cuGetProcAddress_v2)
    return real.library ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_STUB_LIBRARY;
  CUresult r = real.cuGetProcAddress_v2(sym, pfn, version, flags, status);
  if (r == CUDA_SUCCESS)
    substitute(pfn);
  return r;
}

__attribute__((visibility("default"))) CUresult
cuGetProcAddress(const char *sym, void **pfn, int version, uint64_t flags) {
  RealDriver &real = global().real;
  if (!real.cuGetProcAddress)
    return real.library ? CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_STUB_LIBRARY;
  CUresult r = real.cuGetProcAddress(sym, pfn, version, flags);
  if (r == CUDA_SUCCESS)
    substitute(pfn);
  return r;
}

} // extern "C"

namespace {

__attribute__((constructor)) void initialize() {
  Global &g = global();
#define ZLUDA_SHIM_REGISTER(name, ...)                                         \
  registerServed(g, #name, reinterpret_cast<void *>(&::name));
  ZLUDA_SHIM_LOADS(ZLUDA_SHIM_REGISTER)
  ZLUDA_SHIM_LINKS(ZLUDA_SHIM_REGISTER)
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_REGISTER)
  ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_REGISTER)
  ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_REGISTER)
#undef ZLUDA_SHIM_REGISTER
  registerServed(g, "cuGetProcAddress",
                 reinterpret_cast<void *>(&::cuGetProcAddress));
  registerServed(g, "cuGetProcAddress_v2",
                 reinterpret_cast<void *>(&::cuGetProcAddress_v2));
  std::atexit([] { global().shim->finish(); });
}

} // namespace
