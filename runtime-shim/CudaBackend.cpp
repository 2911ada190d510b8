//===- CudaBackend.cpp - Serving the cache's NVPTX builds on NVIDIA -------===//
//
// The real driver does everything; the shim only chose the image. Handles are
// the driver's own, recorded in the registry so that their calls keep coming
// here (and count as served).
//
//===----------------------------------------------------------------------===//

#include "runtime-shim/Backend.h"
#include "runtime-shim/RealDriver.h"
#include "runtime-shim/Registry.h"

#include <vector>

using namespace zluda::shim;

namespace {

class CudaBackend final : public Backend {
public:
  CudaBackend(RealDriver &driver, Registry &registry)
      : real(driver), registry(registry) {}

  const char *name() const override { return "cuda"; }
  bool makesDriverHandles() const override { return true; }

  CUresult deviceTarget(std::string &target, std::string &chip) override {
    CUdevice dev = 0;
    if (!real.cuCtxGetDevice || real.cuCtxGetDevice(&dev) != CUDA_SUCCESS) {
      // Libraries load without a current context: device 0 decides.
      if (!real.cuDeviceGet || real.cuDeviceGet(&dev, 0) != CUDA_SUCCESS)
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    int major = 0, minor = 0;
    CUresult r = real.cuDeviceGetAttribute(
        &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
    if (r == CUDA_SUCCESS)
      r = real.cuDeviceGetAttribute(
          &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
    if (r != CUDA_SUCCESS)
      return r;
    target = "nvptx";
    chip = "sm_" + std::to_string(major * 10 + minor);
    return CUDA_SUCCESS;
  }

  CUresult loadModule(CUmodule *module, const std::string &object,
                      const std::vector<std::string> &) override {
    CUresult r = real.cuModuleLoadData(module, object.c_str());
    if (r == CUDA_SUCCESS) {
      registry.add(*module);
      loadFunctions(*module);
    }
    return r;
  }

  CUresult loadLibrary(CUlibrary *library, const std::string &object,
                       const std::vector<std::string> &, CUjit_option *jo,
                       void **jv, unsigned nj, CUlibraryOption *lo, void **lv,
                       unsigned nl) override {
    CUresult r =
        real.cuLibraryLoadData(library, object.c_str(), jo, jv, nj, lo, lv, nl);
    if (r == CUDA_SUCCESS) {
      registry.add(*library);
      loadFunctions(*library);
    }
    return r;
  }

  // Every routed call goes to the driver with the same arguments; calls that
  // hand out handles record them.
#define ZLUDA_SHIM_PASS(name, params, args, handle)                            \
  CUresult name params override {                                              \
    if (!real.name)                                                            \
      return CUDA_ERROR_NOT_SUPPORTED;                                         \
    CUresult r = real.name args;                                               \
    if (r == CUDA_SUCCESS)                                                     \
      adopt args;                                                              \
    return r;                                                                  \
  }
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_PASS)
#undef ZLUDA_SHIM_PASS

private:
  // Under lazy loading (CUDA_MODULE_LOADING=LAZY, the driver's default) a
  // PTX module is compiled at the first use of a function: in the
  // application's first launch, inside its timed region (programs that time
  // themselves ran 40x to 1000x slower under the shim). The shim's modules
  // are compiled at load instead, as CUDA_MODULE_LOADING=EAGER does, by
  // loading each function (a failure shows again at the launch).
  void loadFunctions(CUmodule m) {
    unsigned n = 0;
    if (!real.cuModuleGetFunctionCount || !real.cuModuleEnumerateFunctions ||
        !real.cuFuncLoad ||
        real.cuModuleGetFunctionCount(&n, m) != CUDA_SUCCESS)
      return;
    std::vector<CUfunction> functions(n);
    if (n &&
        real.cuModuleEnumerateFunctions(functions.data(), n, m) == CUDA_SUCCESS)
      for (CUfunction f : functions)
        real.cuFuncLoad(f);
  }
  // A library's kernels, in the current context (none: loaded at first use).
  void loadFunctions(CUlibrary l) {
    unsigned n = 0;
    if (!real.cuLibraryGetKernelCount || !real.cuLibraryEnumerateKernels ||
        !real.cuKernelGetFunction || !real.cuFuncLoad ||
        real.cuLibraryGetKernelCount(&n, l) != CUDA_SUCCESS)
      return;
    std::vector<CUkernel> kernels(n);
    if (!n ||
        real.cuLibraryEnumerateKernels(kernels.data(), n, l) != CUDA_SUCCESS)
      return;
    for (CUkernel k : kernels) {
      CUfunction f = nullptr;
      if (real.cuKernelGetFunction(&f, k) == CUDA_SUCCESS)
        real.cuFuncLoad(f);
    }
  }

  // An output handle is the first argument of the calls that make one.
  void adoptOne(CUfunction *f) { registry.add(*f); }
  void adoptOne(CUkernel *k) { registry.add(*k); }
  void adoptOne(CUmodule *m) { registry.add(*m); }
  void adoptOne(CUlibrary *l) { registry.add(*l); }
  template <typename T> void adoptOne(T) {}
  template <typename First, typename... Rest> void adopt(First first, Rest...) {
    adoptOne(first);
  }
  // cuModuleEnumerateFunctions / cuLibraryEnumerateKernels fill arrays.
  void adopt(CUfunction *fs, unsigned n, CUmodule) {
    for (unsigned i = 0; i < n; ++i)
      registry.add(fs[i]);
  }
  void adopt(CUkernel *ks, unsigned n, CUlibrary) {
    for (unsigned i = 0; i < n; ++i)
      registry.add(ks[i]);
  }

  RealDriver &real;
  Registry &registry;
};

} // namespace

std::unique_ptr<Backend> zluda::shim::makeCudaBackend(RealDriver &driver,
                                                      Registry &registry) {
  return std::make_unique<CudaBackend>(driver, registry);
}
