// A driver-API program for the runtime shim's device runs: loads a PTX or
// fatbin file (argv[1], e.g. examples/saxpy/saxpy.ptx) three ways
// (cuModuleLoad, cuModuleLoadData, cuModuleLoadDataEx), launches `saxpy`
// with kernel parameters and with an `extra` buffer, reads occupancy and
// attributes, and checks every result on the host. Prints
// "driver_api: PASSED" and exits 0, or names the failure and exits 1.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = nullptr;                                                \
      cuGetErrorName(r_, &s_);                                                 \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,       \
                   s_ ? s_ : "?");                                             \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

const int kN = 1 << 16;

bool runSaxpy(CUfunction f, bool useExtra, float a) {
  std::vector<float> x(kN), y(kN);
  for (int i = 0; i < kN; ++i) {
    x[i] = float(i % 97);
    y[i] = float(i % 13);
  }
  CUdeviceptr dx, dy;
  CHECK(cuMemAlloc(&dx, kN * sizeof(float)));
  CHECK(cuMemAlloc(&dy, kN * sizeof(float)));
  CHECK(cuMemcpyHtoD(dx, x.data(), kN * sizeof(float)));
  CHECK(cuMemcpyHtoD(dy, y.data(), kN * sizeof(float)));
  int n = kN;
  unsigned grid = (kN + 255) / 256;
  if (useExtra) {
    // The argument buffer as the kernel's parameter layout has it.
    struct {
      int n;
      float a;
      CUdeviceptr x, y;
    } args = {n, a, dx, dy};
    size_t size = sizeof args;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     CU_LAUNCH_PARAM_BUFFER_POINTER, &args,
                     CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra));
  } else {
    void *params[] = {&n, &a, &dx, &dy};
    CHECK(
        cuLaunchKernel(f, grid, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr));
  }
  CHECK(cuCtxSynchronize());
  std::vector<float> out(kN);
  CHECK(cuMemcpyDtoH(out.data(), dy, kN * sizeof(float)));
  CHECK(cuMemFree(dx));
  CHECK(cuMemFree(dy));
  for (int i = 0; i < kN; ++i)
    if (out[i] != a * x[i] + y[i]) {
      std::fprintf(stderr, "saxpy[%d] = %g, expected %g\n", i, out[i],
                   a * x[i] + y[i]);
      return false;
    }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: driver_api saxpy.ptx|saxpy.fatbin\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string image = ss.str();
  if (image.empty()) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  bool ok = true;
  CUmodule fromFile, fromData, fromDataEx;
  CHECK(cuModuleLoad(&fromFile, argv[1]));
  CHECK(cuModuleLoadData(&fromData, image.c_str()));
  char log[1024] = {};
  CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *vals[] = {log, reinterpret_cast<void *>(sizeof log)};
  CHECK(cuModuleLoadDataEx(&fromDataEx, image.c_str(), 2, opts, vals));
  float a = 2.5f;
  for (CUmodule m : {fromFile, fromData, fromDataEx}) {
    CUfunction f;
    CHECK(cuModuleGetFunction(&f, m, "_Z5saxpyifPKfPf"));
    int maxThreads = 0, blocks = 0;
    CHECK(cuFuncGetAttribute(&maxThreads,
                             CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, f, 256, 0));
    if (maxThreads < 256 || blocks < 1) {
      std::fprintf(stderr, "attributes: %d threads, %d blocks\n", maxThreads,
                   blocks);
      ok = false;
    }
    ok &= runSaxpy(f, false, a);
    ok &= runSaxpy(f, true, a + 1);
    a += 2;
  }
  CUfunction missing;
  if (cuModuleGetFunction(&missing, fromData, "no_such_kernel") !=
      CUDA_ERROR_NOT_FOUND) {
    std::fprintf(stderr, "a missing kernel was found\n");
    ok = false;
  }
  CHECK(cuModuleUnload(fromFile));
  CHECK(cuModuleUnload(fromData));
  CHECK(cuModuleUnload(fromDataEx));
  CHECK(cuDevicePrimaryCtxRelease(dev));
  std::printf("driver_api: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
