//===- ShimProbe.cpp - Loads a module through libcuda.so.1 ----------------===//
//
// A stand-in application for the shim's lit tests: opens "libcuda.so.1" the
// way cudart does (found through LD_LIBRARY_PATH), fetches cuModuleLoadData
// through cuGetProcAddress_v2 and loads each file given, printing the result.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <dlfcn.h>

int main(int argc, char **argv) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver) {
    std::printf("no driver: %s\n", dlerror());
    return 2;
  }
  using GetProc = int (*)(const char *, void **, int, uint64_t, int *);
  auto getProc =
      reinterpret_cast<GetProc>(dlsym(driver, "cuGetProcAddress_v2"));
  void *fn = nullptr;
  if (!getProc || getProc("cuModuleLoadData", &fn, 13000, 0, nullptr) != 0) {
    std::printf("no cuModuleLoadData\n");
    return 2;
  }
  auto load = reinterpret_cast<int (*)(void **, const void *)>(fn);
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string image = ss.str();
    void *module = nullptr;
    int r = load(&module, image.c_str());
    std::printf("load %s: %d\n", argv[i], r);
    status |= r != 0;
  }
  return status;
}
