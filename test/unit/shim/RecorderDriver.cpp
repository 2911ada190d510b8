//===- RecorderDriver.cpp - A driver library that records calls -----------===//
//
// Stands in for the real libcuda.so.1 (and for HIP) in the runtime shim's
// tests: every entry point appends a line to a log that the tests read with
// recorder_take(). Handles are small heap objects; images are recorded by
// their first line (PTX) or kind (fatbin), so a test sees which image a load
// was given.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include <dlfcn.h>

namespace {

std::mutex mutex;
std::string calls;

void record(const std::string &line) {
  std::lock_guard<std::mutex> lock(mutex);
  calls += line + "\n";
}

std::string describe(const void *image) {
  const char *p = static_cast<const char *>(image);
  uint32_t magic;
  std::memcpy(&magic, p, 4);
  if (magic == 0x466243B1)
    return "wrapper";
  if (magic == 0xBA55ED50)
    return "fatbin";
  std::string text(p);
  return text.substr(0, text.find('\n'));
}

/// A handle: what it is, and the image its module was loaded from.
struct Handle {
  std::string what;
  std::string image;
};
void *make(const std::string &what, const std::string &image = "") {
  return new Handle{what, image};
}
std::string nameOf(const void *h) {
  return h ? static_cast<const Handle *>(h)->what : "null";
}
std::string imageOf(const void *h) {
  return h ? static_cast<const Handle *>(h)->image : "";
}

/// What a launch does to the word its first parameter points at (for the
/// shim's compare mode): `k` writes 7; `bad` writes 7 from the application's
/// image and 8 from the cache's build; `racy` a new value every time.
void runKernel(const void *f, void **params) {
  if (!params || !params[0])
    return;
  static uint32_t counter = 0;
  auto *out = *static_cast<uint32_t **>(params[0]);
  std::string what = nameOf(f), name = what.substr(what.find(' ') + 1);
  bool ours = imageOf(f).rfind("// cached", 0) == 0;
  *out = name == "racy" ? ++counter : name == "bad" && ours ? 8 : 7;
}

/// The device's clock for events, in microseconds: a launch of the
/// application's build takes 10, one of the cache's build 8.
double deviceClockUs = 0;
void advanceClock(const void *f) {
  deviceClockUs += imageOf(f).rfind("// cached", 0) == 0 ? 8 : 10;
}

void *self() {
  Dl_info info;
  dladdr(reinterpret_cast<void *>(&self), &info);
  return dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
}

} // namespace

extern "C" {

const char *recorder_take() {
  static std::string taken;
  std::lock_guard<std::mutex> lock(mutex);
  taken.swap(calls);
  calls.clear();
  return taken.c_str();
}

// The driver.
int cuInit(unsigned) { return 0; }
int cuGetProcAddress_v2(const char *sym, void **pfn, int, uint64_t flags,
                        int *status) {
  std::string name = sym;
  if ((flags & 2) && dlsym(self(), (name + "_ptsz").c_str()))
    name += "_ptsz";
  *pfn = dlsym(self(), name.c_str());
  if (status)
    *status = *pfn ? 0 : 1;
  return *pfn ? 0 : 500;
}
int cuGetProcAddress(const char *sym, void **pfn, int v, uint64_t flags) {
  return cuGetProcAddress_v2(sym, pfn, v, flags, nullptr);
}
int cuCtxGetDevice(int *d) {
  *d = 0;
  return 0;
}
int cuDeviceGet(int *d, int) {
  *d = 0;
  return 0;
}
int cuDeviceGetAttribute(int *v, int attrib, int) {
  *v = attrib == 75 ? 9 : 0; // sm_90
  return 0;
}
int cuMemAlloc_v2(uint64_t *p, size_t bytes) {
  record("cuMemAlloc_v2 " + std::to_string(bytes));
  *p = 0x1000;
  return 0;
}
int cuModuleLoadData(void **m, const void *image) {
  record("cuModuleLoadData " + describe(image));
  *m = make("module", describe(image));
  return 0;
}
int cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *,
                       void **) {
  record("cuModuleLoadDataEx " + describe(image) +
         " options=" + std::to_string(n));
  *m = make("module");
  return 0;
}
// The JIT linker: records each input by its first line; the linked image
// is a text naming how many inputs it had.
int cuLinkCreate_v2(unsigned n, int *, void **, void **state) {
  record("cuLinkCreate_v2 options=" + std::to_string(n));
  *state = make("link");
  return 0;
}
int cuLinkAddData_v2(void *state, int type, void *data, size_t, const char *,
                     unsigned, int *, void **) {
  record("cuLinkAddData_v2 " + nameOf(state) + " type " + std::to_string(type) +
         " " + describe(data));
  static_cast<Handle *>(state)->image += "+";
  return 0;
}
int cuLinkAddFile_v2(void *state, int type, const char *path, unsigned, int *,
                     void **) {
  record("cuLinkAddFile_v2 " + nameOf(state) + " type " + std::to_string(type) +
         " " + path);
  static_cast<Handle *>(state)->image += "+";
  return 0;
}
int cuLinkCreate(unsigned n, int *o, void **v, void **state) {
  return cuLinkCreate_v2(n, o, v, state);
}
int cuLinkAddData(void *state, int type, void *data, size_t size,
                  const char *name, unsigned n, int *o, void **v) {
  return cuLinkAddData_v2(state, type, data, size, name, n, o, v);
}
int cuLinkAddFile(void *state, int type, const char *path, unsigned n, int *o,
                  void **v) {
  return cuLinkAddFile_v2(state, type, path, n, o, v);
}
int cuLinkComplete(void *state, void **cubin, size_t *size) {
  record("cuLinkComplete " + nameOf(state));
  Handle *h = static_cast<Handle *>(state);
  h->what = "// linked by the recorder from " +
            std::to_string(h->image.size()) + " inputs\n";
  *cubin = h->what.data();
  *size = h->what.size() + 1;
  return 0;
}
int cuLinkDestroy(void *state) {
  record("cuLinkDestroy");
  delete static_cast<Handle *>(state);
  return 0;
}
int cuModuleLoadFatBinary(void **m, const void *image) {
  record("cuModuleLoadFatBinary " + describe(image));
  *m = make("module");
  return 0;
}
int cuModuleLoad(void **m, const char *fname) {
  record(std::string("cuModuleLoad ") + fname);
  *m = make("module");
  return 0;
}
int cuLibraryLoadData(void **l, const void *code, int *, void **, unsigned,
                      int *, void **, unsigned) {
  record("cuLibraryLoadData " + describe(code));
  *l = make("library", describe(code));
  return 0;
}
int cuModuleUnload(void *m) {
  record("cuModuleUnload " + nameOf(m));
  return 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
  record("cuModuleGetFunction " + nameOf(m) + " " + name);
  *f = make(std::string("function ") + name, imageOf(m));
  return 0;
}
int cuLibraryGetKernel(void **k, void *l, const char *name) {
  record("cuLibraryGetKernel " + nameOf(l) + " " + name);
  *k = make(std::string("kernel ") + name, imageOf(l));
  return 0;
}
// A module or library has one function, "(all)", for loading them all.
int cuModuleGetFunctionCount(unsigned *n, void *) {
  *n = 1;
  return 0;
}
int cuModuleEnumerateFunctions(void **fs, unsigned n, void *m) {
  for (unsigned i = 0; i < n; ++i)
    fs[i] = make("function (all)", imageOf(m));
  return 0;
}
int cuLibraryGetKernelCount(unsigned *n, void *) {
  *n = 1;
  return 0;
}
int cuLibraryEnumerateKernels(void **ks, unsigned n, void *l) {
  for (unsigned i = 0; i < n; ++i)
    ks[i] = make("kernel (all)", imageOf(l));
  return 0;
}
int cuFuncLoad(void *f) {
  record("cuFuncLoad " + nameOf(f));
  return 0;
}
int cuKernelGetFunction(void **f, void *k) {
  record("cuKernelGetFunction " + nameOf(k));
  *f = k;
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned, unsigned, unsigned bx,
                   unsigned, unsigned, unsigned, void *, void **params,
                   void **) {
  record("cuLaunchKernel " + nameOf(f) + " grid " + std::to_string(gx) +
         " block " + std::to_string(bx));
  runKernel(f, params);
  advanceClock(f);
  return 0;
}
// Events read the device's clock.
int cuEventCreate(void **e, unsigned) {
  *e = new double(0);
  return 0;
}
int cuEventDestroy_v2(void *e) {
  delete static_cast<double *>(e);
  return 0;
}
int cuEventRecord(void *e, void *) {
  *static_cast<double *>(e) = deviceClockUs;
  return 0;
}
int cuEventSynchronize(void *) { return 0; }
int cuEventElapsedTime_v2(float *ms, void *start, void *end) {
  *ms = float((*static_cast<double *>(end) - *static_cast<double *>(start)) /
              1000.0);
  return 0;
}
// Every kernel has one 8-byte parameter (a pointer).
int cuKernelGetParamInfo(void *, size_t i, size_t *offset, size_t *size) {
  if (i > 0)
    return 1;
  *offset = 0;
  *size = 8;
  return 0;
}
int cuFuncGetParamInfo(void *f, size_t i, size_t *offset, size_t *size) {
  return cuKernelGetParamInfo(f, i, offset, size);
}
// Memory (host memory stands for the device's).
int cuMemAllocHost_v2(void **p, size_t bytes) {
  *p = std::calloc(bytes, 1);
  return 0;
}
int cuMemFreeHost(void *p) {
  std::free(p);
  return 0;
}
int cuCtxSynchronize() { return 0; }
int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<void *>(src), bytes);
  return 0;
}
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t bytes) {
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return 0;
}
int cuModuleGetGlobal_v2(uint64_t *, size_t *, void *, const char *) {
  return 500;
}
int cuLibraryGetGlobal(uint64_t *, size_t *, void *, const char *) {
  return 500;
}
int cuLaunchKernel_ptsz(void *f, unsigned gx, unsigned, unsigned, unsigned bx,
                        unsigned, unsigned, unsigned, void *, void **,
                        void **) {
  record("cuLaunchKernel_ptsz " + nameOf(f) + " grid " + std::to_string(gx) +
         " block " + std::to_string(bx));
  return 0;
}
int cuLaunch(void *f) {
  record("cuLaunch " + nameOf(f));
  return 0;
}
int cuFuncGetAttribute(int *v, int a, void *f) {
  record("cuFuncGetAttribute " + std::to_string(a) + " " + nameOf(f));
  *v = 1024;
  return 0;
}

// HIP, for the hip backend.
int hipGetDevice(int *d) {
  *d = 0;
  return 0;
}
int hipGetDevicePropertiesR0600(void *props, int) {
  std::memset(props, 0, 1472);
  // gcnArchName: the device's target ID (RECORDER_GCN_ARCH, else gfx1100).
  const char *arch = std::getenv("RECORDER_GCN_ARCH");
  std::strcpy(static_cast<char *>(props) + 1160, arch ? arch : "gfx1100");
  return 0;
}
int hipModuleLoadData(void **m, const void *image) {
  record("hipModuleLoadData " + describe(image));
  *m = make("hip-module");
  return 0;
}
int hipModuleUnload(void *m) {
  record("hipModuleUnload " + nameOf(m));
  return 0;
}
int hipModuleGetFunction(void **f, void *m, const char *name) {
  record("hipModuleGetFunction " + nameOf(m) + " " + name);
  *f = make(std::string("hip-function ") + name);
  return 0;
}
int hipModuleGetGlobal(uint64_t *p, size_t *bytes, void *, const char *name) {
  record(std::string("hipModuleGetGlobal ") + name);
  *p = 0x2000;
  *bytes = 4;
  return 0;
}
int hipModuleLaunchKernel(void *f, unsigned gx, unsigned, unsigned, unsigned bx,
                          unsigned, unsigned, unsigned shmem, void *stream,
                          void **params, void **extra) {
  std::string line = "hipModuleLaunchKernel " + nameOf(f) + " grid " +
                     std::to_string(gx) + " block " + std::to_string(bx) +
                     " shmem " + std::to_string(shmem) + " stream " +
                     std::to_string(reinterpret_cast<uintptr_t>(stream));
  if (params)
    line += " params";
  if (extra) {
    line += " extra";
    for (int i = 0; i < 5; i += 2)
      line += " " + std::to_string(reinterpret_cast<uintptr_t>(extra[i]));
    line += " size " + std::to_string(*static_cast<size_t *>(extra[3]));
  }
  record(line);
  return 0;
}
int hipModuleLaunchCooperativeKernel(void *f, unsigned, unsigned, unsigned,
                                     unsigned, unsigned, unsigned, unsigned,
                                     void *, void **) {
  record("hipModuleLaunchCooperativeKernel " + nameOf(f));
  return 0;
}
int hipFuncGetAttribute(int *v, int a, void *f) {
  record("hipFuncGetAttribute " + std::to_string(a) + " " + nameOf(f));
  *v = 256;
  return 0;
}
int hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, void *f,
                                                                int block,
                                                                size_t,
                                                                unsigned) {
  record("hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags " +
         nameOf(f) + " " + std::to_string(block));
  *n = 4;
  return 0;
}
int hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block,
                                                     void *f, size_t, int,
                                                     unsigned) {
  record("hipModuleOccupancyMaxPotentialBlockSizeWithFlags " + nameOf(f));
  *grid = 96;
  *block = 256;
  return 0;
}

} // extern "C"
