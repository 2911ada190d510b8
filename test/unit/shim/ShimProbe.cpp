//===- ShimProbe.cpp - Loads a module through libcuda.so.1 ----------------===//
//
// A stand-in application for the shim's lit tests: opens "libcuda.so.1" the
// way cudart does (found through LD_LIBRARY_PATH), fetches cuModuleLoadData
// through cuGetProcAddress_v2 and loads each file given, printing the result.
// `--embedded` loads the PTX text this program keeps as a string, as programs
// that carry their PTX outside a fatbin do (`build` finds it in the binary).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <dlfcn.h>

// A PTX module kept as a NUL-terminated string in the program's data.
static const char kEmbeddedPTX[] =
    "//\n"
    "// hand-written, embedded in the program\n"
    "//\n"
    ".version 8.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry embedded_fill(.param .u64 p)\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

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
    if (std::string(argv[i]) == "--embedded") {
      void *module = nullptr;
      int r = load(&module, kEmbeddedPTX);
      std::printf("load embedded: %d\n", r);
      status |= r != 0;
      continue;
    }
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
