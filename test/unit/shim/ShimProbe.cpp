//===- ShimProbe.cpp - Loads a module through libcuda.so.1 ----------------===//
//
// A stand-in application for the shim's lit tests: opens "libcuda.so.1" the
// way cudart does (found through LD_LIBRARY_PATH), fetches cuModuleLoadData
// through cuGetProcAddress_v2 and loads each file given, printing the result.
// `--embedded` loads the PTX text this program keeps as a string, as programs
// that carry their PTX outside a fatbin do (`build` finds it in the binary).
// `--link-embedded` and `--link=A.ptx[,B.ptx...]` compile PTX through the JIT
// linker (cuLinkAddData / cuLinkAddFile, cuLinkComplete) and load the
// linked image.
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
  auto proc = [&](const char *name) {
    void *f = nullptr;
    getProc(name, &f, 13000, 0, nullptr);
    return f;
  };
  using LinkCreate = int (*)(unsigned, int *, void **, void **);
  using LinkAddData = int (*)(void *, int, void *, size_t, const char *,
                              unsigned, int *, void **);
  using LinkAddFile =
      int (*)(void *, int, const char *, unsigned, int *, void **);
  using LinkComplete = int (*)(void *, void **, size_t *);
  using LinkDestroy = int (*)(void *);
  auto linkCreate = reinterpret_cast<LinkCreate>(proc("cuLinkCreate"));
  auto linkAddData = reinterpret_cast<LinkAddData>(proc("cuLinkAddData"));
  auto linkAddFile = reinterpret_cast<LinkAddFile>(proc("cuLinkAddFile"));
  auto linkComplete = reinterpret_cast<LinkComplete>(proc("cuLinkComplete"));
  auto linkDestroy = reinterpret_cast<LinkDestroy>(proc("cuLinkDestroy"));
  constexpr int kInputPTX = 1;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--link-embedded" || arg.rfind("--link=", 0) == 0) {
      if (!linkCreate || !linkAddData || !linkAddFile || !linkComplete ||
          !linkDestroy) {
        std::printf("no cuLink entry points\n");
        return 2;
      }
      void *state = nullptr;
      int r = linkCreate(0, nullptr, nullptr, &state);
      if (arg == "--link-embedded") {
        r |= linkAddData(state, kInputPTX, const_cast<char *>(kEmbeddedPTX),
                         sizeof kEmbeddedPTX, "embedded", 0, nullptr, nullptr);
      } else {
        std::stringstream files(arg.substr(7));
        for (std::string file; std::getline(files, file, ',');)
          r |= linkAddFile(state, kInputPTX, file.c_str(), 0, nullptr, nullptr);
      }
      void *image = nullptr;
      size_t size = 0;
      r |= linkComplete(state, &image, &size);
      void *module = nullptr;
      int l = r ? -1 : load(&module, image);
      r |= linkDestroy(state);
      std::printf("link %s: %d, load: %d\n", arg.c_str(), r, l);
      status |= r != 0 || l != 0;
      continue;
    }
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
