//===- Backend.h - Who runs the code objects the shim serves ----*- C++ -*-===//
//
// The shim decides what to load (the cache's build, or the original image);
// a backend loads it and answers every later call on the handles it made:
//   cuda: the real NVIDIA driver, given the cache's NVPTX build instead of
//         the application's image (how the whole path is verified);
//   hip:  HIP's module API under a CUDA-on-HIP driver, given the AMDGPU code
//         object for the device's gcnArchName.
// A backend records every handle it hands out in the registry.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_BACKEND_H
#define ZLUDA_RUNTIME_SHIM_BACKEND_H

#include "runtime-shim/CudaApi.h"

#include <memory>
#include <string>
#include <vector>

namespace zluda::shim {

class Registry;
struct RealDriver;

class Backend {
public:
  virtual ~Backend() = default;
  virtual const char *name() const = 0;
  /// Whether the handles this backend makes are the real driver's own (cuda)
  /// rather than objects of the shim that the driver cannot know (hip).
  virtual bool makesDriverHandles() const = 0;

  /// The cache target and processor of the current device: ("nvptx",
  /// "sm_90"), ("amdgpu", "gfx1100").
  virtual CUresult deviceTarget(std::string &target, std::string &chip) = 0;

  /// Loads a cached code object; `kernels` are its kernels' names.
  virtual CUresult loadModule(CUmodule *module, const std::string &object,
                              const std::vector<std::string> &kernels) = 0;
  virtual CUresult loadLibrary(CUlibrary *library, const std::string &object,
                               const std::vector<std::string> &kernels,
                               CUjit_option *jitOptions, void **jitValues,
                               unsigned numJit, CUlibraryOption *libOptions,
                               void **libValues, unsigned numLib) = 0;

#define ZLUDA_SHIM_VIRTUAL(name, params, args, handle)                         \
  virtual CUresult name params = 0;
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_VIRTUAL)
#undef ZLUDA_SHIM_VIRTUAL
};

/// ZLUDA_SHIM_WARPS_PER_WAVE=1 on a wave64 device (CDNA, `gfx9...`): the
/// builds with one PTX warp a wave are served (their cache key has
/// cache::kOneWarpPerWave), and launched with twice the threads in x.
bool oneWarpPerWave(const std::string &chip);

/// A launch's block for a one-warp-a-wave build: x doubled (each 32 PTX
/// threads fill the lower half of a 64-lane wave). False when the block does
/// not allow it: x not a multiple of 32 (a warp would span rows), or more
/// than 512 threads (1,024 on the device).
bool oneWarpPerWaveBlock(unsigned &bx, unsigned by, unsigned bz);

std::unique_ptr<Backend> makeCudaBackend(RealDriver &driver,
                                         Registry &registry);

/// `hipLibrary`: a dlopen handle of the HIP runtime (the one the driver
/// underneath loaded, or ZLUDA_SHIM_HIP). Null with `error` if an entry point
/// it needs is missing.
std::unique_ptr<Backend> makeHipBackend(void *hipLibrary, Registry &registry,
                                        std::string &error);

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_BACKEND_H
