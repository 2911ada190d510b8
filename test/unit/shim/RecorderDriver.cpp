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

struct Handle {
  std::string what;
};
void *make(const std::string &what) { return new Handle{what}; }
std::string nameOf(const void *h) {
  return h ? static_cast<const Handle *>(h)->what : "null";
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
  *m = make("module");
  return 0;
}
int cuModuleLoadDataEx(void **m, const void *image, unsigned n, int *,
                       void **) {
  record("cuModuleLoadDataEx " + describe(image) +
         " options=" + std::to_string(n));
  *m = make("module");
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
  *l = make("library");
  return 0;
}
int cuModuleUnload(void *m) {
  record("cuModuleUnload " + nameOf(m));
  return 0;
}
int cuModuleGetFunction(void **f, void *m, const char *name) {
  record("cuModuleGetFunction " + nameOf(m) + " " + name);
  *f = make(std::string("function ") + name);
  return 0;
}
int cuLibraryGetKernel(void **k, void *l, const char *name) {
  record("cuLibraryGetKernel " + nameOf(l) + " " + name);
  *k = make(std::string("kernel ") + name);
  return 0;
}
int cuKernelGetFunction(void **f, void *k) {
  record("cuKernelGetFunction " + nameOf(k));
  *f = k;
  return 0;
}
int cuLaunchKernel(void *f, unsigned gx, unsigned, unsigned, unsigned bx,
                   unsigned, unsigned, unsigned, void *, void **, void **) {
  record("cuLaunchKernel " + nameOf(f) + " grid " + std::to_string(gx) +
         " block " + std::to_string(bx));
  return 0;
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
  std::strcpy(static_cast<char *>(props) + 1160, "gfx1100:sramecc-:xnack-");
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
