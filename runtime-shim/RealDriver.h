//===- RealDriver.h - The driver library behind the shim --------*- C++ -*-===//
//
// The real `libcuda.so.1` (NVIDIA's, or a CUDA-on-HIP layer such as ZLUDA's):
// found from ZLUDA_SHIM_DRIVER or the library path with the shim's own
// directory skipped, loaded RTLD_LOCAL, its entry points looked up by name.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_REALDRIVER_H
#define ZLUDA_RUNTIME_SHIM_REALDRIVER_H

#include "runtime-shim/CudaApi.h"

#include <string>
#include <string_view>
#include <vector>

namespace zluda::shim {

struct RealDriver {
  void *library = nullptr;
  std::string path;
#define ZLUDA_SHIM_POINTER(name, params, ...) CUresult(*name) params = nullptr;
  ZLUDA_SHIM_LOADS(ZLUDA_SHIM_POINTER)
  ZLUDA_SHIM_LINKS(ZLUDA_SHIM_POINTER)
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_POINTER)
  ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_POINTER)
  ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_POINTER)
  ZLUDA_SHIM_USED(ZLUDA_SHIM_POINTER)
#undef ZLUDA_SHIM_POINTER

  /// dlopens `file` and looks every entry point up (missing ones stay null).
  bool open(const std::string &file, std::string &error);
  void *symbol(const char *name) const;
};

/// The files to try, in order: `explicitDriver` alone if set; otherwise
/// `libcuda.so.1` in each `libraryPath` directory (colon-separated) and then
/// each of `systemDirs`, skipping `ownDir` (the shim's directory) and
/// repeats.
std::vector<std::string>
driverCandidates(std::string_view explicitDriver, std::string_view libraryPath,
                 std::string_view ownDir,
                 const std::vector<std::string> &systemDirs);

/// The dynamic loader's directories: /etc/ld.so.conf (with its includes),
/// then the default ones.
std::vector<std::string> systemLibraryDirs();

/// The canonical directory of the file `path`.
std::string directoryOf(const std::string &path);

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_REALDRIVER_H
