//===- HipBackend.cpp - Serving AMDGPU code objects through HIP -----------===//
//
// Under a CUDA-on-HIP driver, streams and device pointers are HIP values but
// modules, functions, libraries and kernels are the driver's own objects, and
// its loaders only take PTX. So the shim owns every handle it serves: a
// module is a HIP module, a library is one module loaded at once (for the
// current device), a kernel and a function are the same object.
//
// What could not be run here (no AMD GPU): everything below the HIP calls;
// the tests drive this code through a fake HIP library (docs/runtime-shim.md).
//
//===----------------------------------------------------------------------===//

#include "runtime-shim/Backend.h"
#include "runtime-shim/Image.h"
#include "runtime-shim/Record.h"
#include "runtime-shim/Registry.h"

#include <cstring>
#include <map>
#include <mutex>

#include <dlfcn.h>

using namespace zluda::shim;

namespace {

using hipError_t = int;
using hipModule_t = void *;
using hipFunction_t = void *;
using hipStream_t = void *;

// hipDeviceProp_tR0600: 1472 bytes, gcnArchName (char[256]) at 1160.
constexpr size_t kPropsSize = 1472, kGcnArchNameOffset = 1160;
constexpr int kMaxDynamicSharedAttr = 8, kCarveoutAttr = 9;
constexpr int kLastHipFuncAttr = 9;
constexpr size_t kLdsBytes = 64 * 1024;
constexpr int kLaunchAttrCooperative = 2, kLaunchAttrClusterDim = 4;
const hipStream_t kPerThreadStream = reinterpret_cast<hipStream_t>(2);

struct HipApi {
  hipError_t (*hipGetDevice)(int *);
  hipError_t (*hipGetDevicePropertiesR0600)(void *, int);
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *);
  hipError_t (*hipModuleUnload)(hipModule_t);
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t,
                                     const char *);
  hipError_t (*hipModuleGetGlobal)(CUdeviceptr *, size_t *, hipModule_t,
                                   const char *);
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned,
                                      unsigned, unsigned, unsigned, unsigned,
                                      unsigned, hipStream_t, void **, void **);
  hipError_t (*hipModuleLaunchCooperativeKernel)(hipFunction_t, unsigned,
                                                 unsigned, unsigned, unsigned,
                                                 unsigned, unsigned, unsigned,
                                                 hipStream_t, void **);
  hipError_t (*hipFuncGetAttribute)(int *, int, hipFunction_t);
  hipError_t (*hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags)(
      int *, hipFunction_t, int, size_t, unsigned);
  hipError_t (*hipModuleOccupancyMaxPotentialBlockSizeWithFlags)(int *, int *,
                                                                 hipFunction_t,
                                                                 size_t, int,
                                                                 unsigned);
};

struct Module;
/// A function of a served module; also its CUkernel.
struct Function {
  hipFunction_t hip = nullptr;
  Module *module = nullptr;
  std::string name;
  int maxDynamicShared = 0;
};
struct Module {
  hipModule_t hip = nullptr;
  std::string object; // HIP may keep pointers into it
  std::vector<std::string> kernels;
  std::mutex mutex;
  std::vector<std::unique_ptr<Function>> functions;
};

template <typename T> Function *asFunction(T handle) {
  return reinterpret_cast<Function *>(handle);
}
template <typename T> Module *asModule(T handle) {
  return reinterpret_cast<Module *>(handle);
}

class HipBackend final : public Backend {
public:
  HipBackend(const HipApi &api, Registry &registry)
      : hip(api), registry(registry) {}

  const char *name() const override { return "hip"; }
  bool makesDriverHandles() const override { return false; }

  CUresult deviceTarget(std::string &target, std::string &chip) override {
    int dev = 0;
    if (hip.hipGetDevice(&dev) != 0)
      return CUDA_ERROR_NOT_INITIALIZED;
    std::vector<char> props(kPropsSize + 4096, 0);
    if (hip.hipGetDevicePropertiesR0600(props.data(), dev) != 0)
      return CUDA_ERROR_NOT_INITIALIZED;
    std::string arch(props.data() + kGcnArchNameOffset,
                     strnlen(props.data() + kGcnArchNameOffset, 256));
    // The target ID, "gfx942:sramecc+:xnack-" (Shim.cpp looks up the
    // builds that run on it, settings first).
    chip = arch;
    target = "amdgpu";
    return chip.rfind("gfx", 0) == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
  }

  CUresult loadModule(CUmodule *out, const std::string &object,
                      const std::vector<std::string> &kernels) override {
    auto m = std::make_unique<Module>();
    m->object = object;
    m->kernels = kernels;
    if (hip.hipModuleLoadData(&m->hip, m->object.data()) != 0)
      return CUDA_ERROR_INVALID_IMAGE;
    *out = reinterpret_cast<CUmodule>(m.release());
    registry.add(*out);
    return CUDA_SUCCESS;
  }

  CUresult loadLibrary(CUlibrary *out, const std::string &object,
                       const std::vector<std::string> &kernels, CUjit_option *,
                       void **, unsigned, CUlibraryOption *, void **,
                       unsigned) override {
    CUmodule m;
    CUresult r = loadModule(&m, object, kernels);
    if (r == CUDA_SUCCESS)
      *out = reinterpret_cast<CUlibrary>(m);
    return r;
  }

  // Modules and libraries.
  CUresult cuModuleUnload(CUmodule handle) override {
    Module *m = asModule(handle);
    for (auto &f : m->functions)
      registry.remove(f.get());
    registry.remove(m);
    hipError_t e = hip.hipModuleUnload(m->hip);
    delete m;
    return e ? CUDA_ERROR_INVALID_HANDLE : CUDA_SUCCESS;
  }
  CUresult cuLibraryUnload(CUlibrary l) override {
    return cuModuleUnload(reinterpret_cast<CUmodule>(l));
  }
  CUresult cuModuleGetFunction(CUfunction *out, CUmodule handle,
                               const char *name) override {
    Function *f = function(asModule(handle), name);
    if (!f)
      return CUDA_ERROR_NOT_FOUND;
    *out = reinterpret_cast<CUfunction>(f);
    return CUDA_SUCCESS;
  }
  CUresult cuLibraryGetKernel(CUkernel *out, CUlibrary l,
                              const char *name) override {
    return cuModuleGetFunction(reinterpret_cast<CUfunction *>(out),
                               reinterpret_cast<CUmodule>(l), name);
  }
  CUresult cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, CUmodule m,
                                const char *name) override {
    size_t size = 0;
    CUdeviceptr ptr = 0;
    if (hip.hipModuleGetGlobal(&ptr, &size, asModule(m)->hip, name) != 0)
      return CUDA_ERROR_NOT_FOUND;
    if (p)
      *p = ptr;
    if (bytes)
      *bytes = size;
    return CUDA_SUCCESS;
  }
  CUresult cuLibraryGetGlobal(CUdeviceptr *p, size_t *bytes, CUlibrary l,
                              const char *name) override {
    return cuModuleGetGlobal_v2(p, bytes, reinterpret_cast<CUmodule>(l), name);
  }
  CUresult cuLibraryGetManaged(CUdeviceptr *, size_t *, CUlibrary,
                               const char *) override {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult cuLibraryGetUnifiedFunction(void **, CUlibrary,
                                       const char *) override {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult cuModuleGetFunctionCount(unsigned *count, CUmodule m) override {
    *count = unsigned(asModule(m)->kernels.size());
    return CUDA_SUCCESS;
  }
  CUresult cuLibraryGetKernelCount(unsigned *count, CUlibrary l) override {
    return cuModuleGetFunctionCount(count, reinterpret_cast<CUmodule>(l));
  }
  CUresult cuModuleEnumerateFunctions(CUfunction *fs, unsigned n,
                                      CUmodule handle) override {
    Module *m = asModule(handle);
    if (n < m->kernels.size())
      return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < m->kernels.size(); ++i) {
      Function *f = function(m, m->kernels[i].c_str());
      if (!f)
        return CUDA_ERROR_NOT_FOUND;
      fs[i] = reinterpret_cast<CUfunction>(f);
    }
    return CUDA_SUCCESS;
  }
  CUresult cuLibraryEnumerateKernels(CUkernel *ks, unsigned n,
                                     CUlibrary l) override {
    return cuModuleEnumerateFunctions(reinterpret_cast<CUfunction *>(ks), n,
                                      reinterpret_cast<CUmodule>(l));
  }
  CUresult cuLibraryGetModule(CUmodule *m, CUlibrary l) override {
    *m = reinterpret_cast<CUmodule>(l);
    return CUDA_SUCCESS;
  }

  // Kernels are functions.
  CUresult cuKernelGetFunction(CUfunction *f, CUkernel k) override {
    *f = reinterpret_cast<CUfunction>(k);
    return CUDA_SUCCESS;
  }
  CUresult cuKernelGetLibrary(CUlibrary *l, CUkernel k) override {
    *l = reinterpret_cast<CUlibrary>(asFunction(k)->module);
    return CUDA_SUCCESS;
  }
  CUresult cuKernelGetAttribute(int *v, CUfunction_attribute a, CUkernel k,
                                CUdevice) override {
    return cuFuncGetAttribute(v, a, reinterpret_cast<CUfunction>(k));
  }
  CUresult cuKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k,
                                CUdevice) override {
    return cuFuncSetAttribute(reinterpret_cast<CUfunction>(k), a, v);
  }
  CUresult cuKernelSetCacheConfig(CUkernel, CUfunc_cache, CUdevice) override {
    return CUDA_SUCCESS; // a preference; RDNA has no L1/LDS split to set
  }
  CUresult cuKernelGetName(const char **name, CUkernel k) override {
    return cuFuncGetName(name, reinterpret_cast<CUfunction>(k));
  }
  CUresult cuKernelGetParamInfo(CUkernel, size_t, size_t *, size_t *) override {
    return CUDA_ERROR_NOT_SUPPORTED;
  }

  // Functions.
  CUresult cuFuncGetAttribute(int *v, CUfunction_attribute a,
                              CUfunction handle) override {
    Function *f = asFunction(handle);
    if (a == kMaxDynamicSharedAttr && f->maxDynamicShared) {
      *v = f->maxDynamicShared;
      return CUDA_SUCCESS;
    }
    if (a > kLastHipFuncAttr) {
      *v = 0; // cluster attributes: AMD GPUs have no clusters
      return CUDA_SUCCESS;
    }
    return hip.hipFuncGetAttribute(v, a, f->hip) ? CUDA_ERROR_INVALID_VALUE
                                                 : CUDA_SUCCESS;
  }
  CUresult cuFuncSetAttribute(CUfunction handle, CUfunction_attribute a,
                              int v) override {
    if (a == kMaxDynamicSharedAttr) {
      if (v < 0 || size_t(v) > kLdsBytes)
        return CUDA_ERROR_INVALID_VALUE;
      asFunction(handle)->maxDynamicShared = v;
      return CUDA_SUCCESS;
    }
    return a == kCarveoutAttr ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult cuFuncSetCacheConfig(CUfunction, CUfunc_cache) override {
    return CUDA_SUCCESS;
  }
  CUresult cuFuncSetSharedMemConfig(CUfunction, CUsharedconfig) override {
    return CUDA_SUCCESS;
  }
  CUresult cuFuncGetModule(CUmodule *m, CUfunction f) override {
    *m = reinterpret_cast<CUmodule>(asFunction(f)->module);
    return CUDA_SUCCESS;
  }
  CUresult cuFuncGetName(const char **name, CUfunction f) override {
    *name = asFunction(f)->name.c_str();
    return CUDA_SUCCESS;
  }
  CUresult cuFuncGetParamInfo(CUfunction, size_t, size_t *, size_t *) override {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult cuFuncIsLoaded(int *state, CUfunction) override {
    *state = 1; // CU_FUNCTION_LOADING_STATE_LOADED
    return CUDA_SUCCESS;
  }
  CUresult cuFuncLoad(CUfunction) override { return CUDA_SUCCESS; }

  // Launches.
  CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                          unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                          CUstream s, void **params, void **extra) override {
    return launch(f, gx, gy, gz, bx, by, bz, shmem, stream(s, false), params,
                  extra, false);
  }
  CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned shmem, CUstream s,
                               void **params, void **extra) override {
    return launch(f, gx, gy, gz, bx, by, bz, shmem, stream(s, true), params,
                  extra, false);
  }
  CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy,
                                     unsigned gz, unsigned bx, unsigned by,
                                     unsigned bz, unsigned shmem, CUstream s,
                                     void **params) override {
    return launch(f, gx, gy, gz, bx, by, bz, shmem, stream(s, false), params,
                  nullptr, true);
  }
  CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx,
                                          unsigned gy, unsigned gz, unsigned bx,
                                          unsigned by, unsigned bz,
                                          unsigned shmem, CUstream s,
                                          void **params) override {
    return launch(f, gx, gy, gz, bx, by, bz, shmem, stream(s, true), params,
                  nullptr, true);
  }
  CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f,
                            void **params, void **extra) override {
    return launchEx(c, f, params, extra, false);
  }
  CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f,
                                 void **params, void **extra) override {
    return launchEx(c, f, params, extra, true);
  }

  // Occupancy.
  CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f,
                                                       int block,
                                                       size_t shmem) override {
    return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block,
                                                                shmem, 0);
  }
  CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      int *n, CUfunction f, int block, size_t shmem, unsigned flags) override {
    return hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
               n, asFunction(f)->hip, block, shmem, flags)
               ? CUDA_ERROR_INVALID_VALUE
               : CUDA_SUCCESS;
  }
  CUresult cuOccupancyMaxPotentialBlockSize(int *grid, int *block, CUfunction f,
                                            CUoccupancyB2DSize b2d,
                                            size_t shmem, int limit) override {
    return cuOccupancyMaxPotentialBlockSizeWithFlags(grid, block, f, b2d, shmem,
                                                     limit, 0);
  }
  CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block,
                                                     CUfunction f,
                                                     CUoccupancyB2DSize b2d,
                                                     size_t shmem, int limit,
                                                     unsigned flags) override {
    if (b2d) // HIP's module API has no per-block-size shared memory callback
      return CUDA_ERROR_NOT_SUPPORTED;
    return hip.hipModuleOccupancyMaxPotentialBlockSizeWithFlags(
               grid, block, asFunction(f)->hip, shmem, limit, flags)
               ? CUDA_ERROR_INVALID_VALUE
               : CUDA_SUCCESS;
  }
  CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *, CUfunction, int,
                                                   int) override {
    return CUDA_ERROR_NOT_SUPPORTED;
  }

private:
  Function *function(Module *m, const char *name) {
    std::lock_guard<std::mutex> lock(m->mutex);
    for (auto &f : m->functions)
      if (f->name == name)
        return f.get();
    hipFunction_t h = nullptr;
    if (hip.hipModuleGetFunction(&h, m->hip, name) != 0)
      return nullptr;
    auto f = std::make_unique<Function>();
    f->hip = h;
    f->module = m;
    f->name = name;
    registry.add(f.get());
    m->functions.push_back(std::move(f));
    return m->functions.back().get();
  }

  static hipStream_t stream(CUstream s, bool perThread) {
    // A _ptsz launch on the NULL stream means the per-thread stream.
    if (!s && perThread)
      return kPerThreadStream;
    return reinterpret_cast<hipStream_t>(s);
  }

  CUresult launch(CUfunction handle, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                  hipStream_t s, void **params, void **extra,
                  bool cooperative) {
    Function *f = asFunction(handle);
    // A one-warp-a-wave build (Shim.cpp served it for this device) runs
    // with twice the threads in x; a block that does not allow it is refused.
    if (oneWarpDevice() && !oneWarpPerWaveBlock(bx, by, bz))
      return CUDA_ERROR_INVALID_VALUE;
    std::vector<void *> hipExtra;
    if (extra && !rebuildExtra(extra, hipExtra))
      return CUDA_ERROR_INVALID_VALUE;
    hipError_t e =
        cooperative
            ? hip.hipModuleLaunchCooperativeKernel(f->hip, gx, gy, gz, bx, by,
                                                   bz, shmem, s, params)
            : hip.hipModuleLaunchKernel(f->hip, gx, gy, gz, bx, by, bz, shmem,
                                        s, params,
                                        extra ? hipExtra.data() : nullptr);
    return e ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
  }

  CUresult launchEx(const CUlaunchConfig *c, CUfunction f, void **params,
                    void **extra, bool perThread) {
    bool cooperative = false;
    // CUlaunchAttribute: id (4 bytes), padding, a 64-byte value union.
    const char *attrs = reinterpret_cast<const char *>(c->attrs);
    for (unsigned i = 0; i < c->numAttrs; ++i) {
      const char *a = attrs + i * 72;
      int id, value[3];
      std::memcpy(&id, a, sizeof id);
      std::memcpy(value, a + 8, sizeof value);
      if (id == kLaunchAttrCooperative)
        cooperative = value[0] != 0;
      else if (id == kLaunchAttrClusterDim &&
               value[0] * value[1] * value[2] > 1)
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    if (cooperative && extra)
      return CUDA_ERROR_NOT_SUPPORTED;
    return launch(f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX,
                  c->blockDimY, c->blockDimZ, c->sharedMemBytes,
                  stream(c->hStream, perThread), params, extra, cooperative);
  }

  /// Whether the current device is served one-warp-a-wave builds.
  bool oneWarpDevice() {
    int dev = 0;
    if (hip.hipGetDevice(&dev) != 0)
      return false;
    std::lock_guard<std::mutex> lock(oneWarpMutex);
    auto it = oneWarp.find(dev);
    if (it == oneWarp.end()) {
      std::string target, chip;
      bool one =
          deviceTarget(target, chip) == CUDA_SUCCESS && oneWarpPerWave(chip);
      it = oneWarp.emplace(dev, one).first;
    }
    return it->second;
  }

  HipApi hip;
  Registry &registry;
  std::mutex oneWarpMutex;
  std::map<int, bool> oneWarp;
};

} // namespace

std::unique_ptr<Backend>
zluda::shim::makeHipBackend(void *lib, Registry &registry, std::string &error) {
  HipApi api{};
  bool ok = true;
  auto get = [&](auto &fn, const char *name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
        dlsym(lib, name));
    if (!fn) {
      error += (error.empty() ? "HIP lacks " : ", ") + std::string(name);
      ok = false;
    }
  };
  get(api.hipGetDevice, "hipGetDevice");
  get(api.hipGetDevicePropertiesR0600, "hipGetDevicePropertiesR0600");
  get(api.hipModuleLoadData, "hipModuleLoadData");
  get(api.hipModuleUnload, "hipModuleUnload");
  get(api.hipModuleGetFunction, "hipModuleGetFunction");
  get(api.hipModuleGetGlobal, "hipModuleGetGlobal");
  get(api.hipModuleLaunchKernel, "hipModuleLaunchKernel");
  get(api.hipModuleLaunchCooperativeKernel, "hipModuleLaunchCooperativeKernel");
  get(api.hipFuncGetAttribute, "hipFuncGetAttribute");
  get(api.hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags,
      "hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags");
  get(api.hipModuleOccupancyMaxPotentialBlockSizeWithFlags,
      "hipModuleOccupancyMaxPotentialBlockSizeWithFlags");
  if (!ok)
    return nullptr;
  return std::make_unique<HipBackend>(api, registry);
}

bool zluda::shim::oneWarpPerWave(const std::string &chip) {
  return chip.rfind("gfx9", 0) == 0 &&
         envNumber("ZLUDA_SHIM_WARPS_PER_WAVE", 2) == 1;
}

bool zluda::shim::oneWarpPerWaveBlock(unsigned &bx, unsigned by, unsigned bz) {
  if (bx % 32 != 0 || uint64_t(bx) * by * bz > 512)
    return false;
  bx *= 2;
  return true;
}
