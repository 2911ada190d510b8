// Tests of the runtime shim without a GPU: image reading and key computation
// over wrappers, containers and plain PTX; HIP's `extra` list; the policy
// (hit, miss, strict, rejected and partial entries) and handle routing with
// both backends over a driver library that records its calls
// (shim/RecorderDriver.cpp, which also plays HIP); the exported library's
// forwarding and cuGetProcAddress answers.
#include "FatbinBuilder.h"

#include "runtime-shim/Compare.h"
#include "runtime-shim/Image.h"
#include "runtime-shim/RealDriver.h"
#include "runtime-shim/Shim.h"

#include "compiler/Cache/Cache.h"
#include "compiler/Cache/Sha256.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace zluda;
using namespace zluda::shim;
using namespace zluda::fatbin::testing;

namespace {

const std::string kPTX = "// original\n.version 8.0\n.target sm_80\n"
                         ".address_size 64\n.visible .entry k() { ret; }\n";
const std::string kOtherPTX =
    "// other\n.version 8.0\n.target sm_80\n"
    ".address_size 64\n.visible .entry j() { ret; }\n";

/// A fatbin wrapper as nvcc emits it, pointing at `fatbin`.
struct Wrapper {
  uint32_t magic = fatbin::kWrapperMagic;
  uint32_t version = 1;
  const void *data;
  const void *unused = nullptr;
};

/// An ELF (cubin) entry whose bytes after the magic are `fill`.
EntrySpec cubinEntry(char fill) {
  EntrySpec elf;
  elf.kind = 2;
  elf.payload = std::string("\x7f"
                            "ELF",
                            4) +
                std::string(60, fill);
  return elf;
}

std::string ptxContainer(const std::string &ptx, bool compress) {
  EntrySpec e;
  e.payload = ptx;
  if (compress) {
    e.stored = lz4(ptx);
    e.flags |= fatbin::kFlagLZ4;
    e.uncompressed = ptx.size();
  }
  return container({entry(cubinEntry('\0')), entry(e)});
}

std::string tempDir() {
  char tmpl[] = "/tmp/zluda-shim-test-XXXXXX";
  return mkdtemp(tmpl);
}

void *recorder() {
  static void *lib = dlopen(ZLUDA_RECORDER_PATH, RTLD_NOW | RTLD_LOCAL);
  REQUIRE(lib);
  return lib;
}

std::string take() {
  auto fn =
      reinterpret_cast<const char *(*)()>(dlsym(recorder(), "recorder_take"));
  return fn();
}

std::string readAll(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Stores what `zluda-precompile build` would for `ptx`.
void putEntry(cache::Cache &c, const std::string &ptx,
              const std::string &target, const std::string &chip,
              const std::string &object, std::vector<std::string> missing = {},
              std::string compiler = std::string(cache::compilerVersion()),
              std::string_view options = "") {
  cache::Entry e;
  e.meta.key = cache::moduleKeyOfPtxHash(cache::Sha256::hex(ptx), target, chip,
                                         0, options);
  e.meta.target = target;
  e.meta.chip = chip;
  e.meta.compilerVersion = compiler;
  e.meta.ptxSha256 = "-";
  e.meta.kernels = {"k"};
  e.meta.missingKernels = std::move(missing);
  e.object = object;
  std::string error;
  REQUIRE(c.write(e, error));
}

struct Fixture {
  std::string dir = tempDir();
  cache::Cache store{dir + "/cache"};
  RealDriver real;
  Config config;
  Fixture(const std::string &backend = "cuda") {
    std::string error;
    REQUIRE(store.open(error));
    REQUIRE(real.open(ZLUDA_RECORDER_PATH, error));
    config.cacheDir = dir + "/cache";
    config.logPath = dir + "/log";
    config.backend = backend;
    take();
  }
  std::unique_ptr<Shim> make() {
    std::string backend = config.backend;
    return std::make_unique<Shim>(
        config, real,
        [backend](RealDriver &r, Registry &reg, std::string &err) {
          return backend == "hip" ? makeHipBackend(recorder(), reg, err)
                                  : makeCudaBackend(r, reg);
        });
  }
  std::string log() { return readAll(config.logPath); }
};

} // namespace

TEST_CASE("images: wrapper, container, compressed, PTX and cubin", "[shim]") {
  std::string plain = ptxContainer(kPTX, false),
              packed = ptxContainer(kPTX, true);
  Wrapper w;
  w.data = packed.data();
  std::string key = cache::moduleKey(kPTX, "nvptx", "sm_90");
  for (const void *image :
       {static_cast<const void *>(&w), static_cast<const void *>(plain.data()),
        static_cast<const void *>(kPTX.c_str())}) {
    ImageInfo info = readImage(image);
    REQUIRE(info.hasPTX);
    CHECK(info.ptx == kPTX);
    // The key the CLI stores for this PTX.
    CHECK(cache::moduleKey(info.ptx, "nvptx", "sm_90") == key);
  }
  CHECK(readImage(&w).kind == ImageKind::wrapper);
  CHECK(readImage(plain.data()).kind == ImageKind::container);
  CHECK(readImage(plain.data()).span.size() == plain.size());
  CHECK(readImage(plain.data(), plain.size() - 8).problem ==
        "fatbin container larger than the image");
  ImageInfo elf = readImage("\x7f"
                            "ELF\x02\x01\x01");
  CHECK(elf.kind == ImageKind::elf);
  CHECK_FALSE(elf.hasPTX);
  CHECK_FALSE(readImage("garbage").hasPTX);
  // A container with only a cubin.
  EntrySpec cubin;
  cubin.kind = 2;
  std::string onlyElf = container({entry(cubin)});
  CHECK(readImage(onlyElf.data()).problem == "no PTX in the fatbin");
}

TEST_CASE("HIP's extra list is rebuilt from CUDA's", "[shim]") {
  char buf[16];
  size_t size = sizeof buf;
  void *sizeFirst[] = {(void *)2, &size, (void *)1, buf, (void *)0};
  std::vector<void *> out;
  REQUIRE(rebuildExtra(sizeFirst, out));
  REQUIRE(out.size() == 5);
  CHECK(out[0] == (void *)1);
  CHECK(out[1] == buf);
  CHECK(out[2] == (void *)2);
  CHECK(out[3] == &size);
  CHECK(out[4] == (void *)3);
  void *noSize[] = {(void *)1, buf, (void *)0};
  CHECK_FALSE(rebuildExtra(noSize, out));
  void *unknown[] = {(void *)1, buf, (void *)2, &size,
                     (void *)7, buf, (void *)0};
  CHECK_FALSE(rebuildExtra(unknown, out));
}

TEST_CASE("driver search skips the shim's own directory", "[shim]") {
  CHECK(driverCandidates("/x/libcuda.so.1", "/a", "/own", {"/b"}) ==
        std::vector<std::string>{"/x/libcuda.so.1"});
  CHECK(driverCandidates("", "/own:/a::/a", "/own", {"/b", "/a"}) ==
        std::vector<std::string>{"/a/libcuda.so.1", "/b/libcuda.so.1"});
}

TEST_CASE("cuda backend: a hit loads the cache's build, a miss the original",
          "[shim]") {
  Fixture fx;
  putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n.version 8.0\n");
  auto shim = fx.make();
  std::string packed = ptxContainer(kPTX, true);
  Wrapper w;
  w.data = packed.data();

  CUmodule served = nullptr;
  REQUIRE(shim->cuModuleLoadData(&served, &w) == CUDA_SUCCESS);
  // Its functions are loaded (compiled) now, not at the first launch.
  CHECK(take() == "cuModuleLoadData // cached build\n"
                  "cuFuncLoad function (all)\n");
  CHECK(shim->handles().owns(served));

  // Calls on a served handle are routed to the backend (here: the driver
  // with the same handle), and the handles they make are recorded.
  CUfunction f = nullptr;
  REQUIRE(shim->cuModuleGetFunction(&f, served, "k") == CUDA_SUCCESS);
  CHECK(shim->handles().owns(f));
  REQUIRE(shim->cuLaunchKernel_ptsz(f, 2, 1, 1, 64, 1, 1, 0, nullptr, nullptr,
                                    nullptr) == CUDA_SUCCESS);
  CHECK(take() == "cuModuleGetFunction module k\n"
                  "cuLaunchKernel_ptsz function k grid 2 block 64\n");

  // A miss: the original image goes to the driver, its handle is not ours.
  CUmodule original = nullptr;
  REQUIRE(shim->cuModuleLoadData(&original, kOtherPTX.c_str()) == CUDA_SUCCESS);
  CHECK(take() == "cuModuleLoadData // other\n");
  CHECK_FALSE(shim->handles().owns(original));
  CUfunction g = nullptr;
  REQUIRE(shim->cuModuleGetFunction(&g, original, "j") == CUDA_SUCCESS);
  CHECK_FALSE(shim->handles().owns(g));

  // The cuda backend's handles are the driver's: legacy calls go through.
  take();
  REQUIRE(shim->cuLaunch(f) == CUDA_SUCCESS);
  CHECK(take() == "cuLaunch function k\n");

  REQUIRE(shim->cuModuleUnload(served) == CUDA_SUCCESS);
  CHECK_FALSE(shim->handles().owns(served));
  take();

  // Libraries (what cudart loads) the same way.
  CUlibrary lib = nullptr;
  REQUIRE(shim->cuLibraryLoadData(&lib, &w, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0) == CUDA_SUCCESS);
  CUkernel k = nullptr;
  REQUIRE(shim->cuLibraryGetKernel(&k, lib, "k") == CUDA_SUCCESS);
  CHECK(shim->handles().owns(lib));
  CHECK(shim->handles().owns(k));
  CHECK(take() == "cuLibraryLoadData // cached build\n"
                  "cuKernelGetFunction kernel (all)\n"
                  "cuFuncLoad kernel (all)\n"
                  "cuLibraryGetKernel library k\n");

  CHECK(shim->stats().images == 3);
  CHECK(shim->stats().served == 2);
  CHECK(shim->stats().fallbacks == 1);
  shim->finish();
  std::string log = fx.log();
  CHECK(log.find("cuModuleLoadData fatbin-wrapper ptx-sha256=") !=
        std::string::npos);
  CHECK(log.find("nvptx:sm_90 key=") != std::string::npos);
  CHECK(log.find("hit -> served, 1 kernel(s) k") != std::string::npos);
  CHECK(log.find("miss -> fallback to the original image") !=
        std::string::npos);
  CHECK(log.find("summary: 3 images, 2 served from the cache, 1 fallbacks, "
                 "0 refused") != std::string::npos);
}

TEST_CASE("strict mode refuses what the cache cannot serve", "[shim]") {
  Fixture fx;
  fx.config.strict = true;
  auto shim = fx.make();
  CUmodule m = nullptr;
  CHECK(shim->cuModuleLoadData(&m, kPTX.c_str()) ==
        CUDA_ERROR_NO_BINARY_FOR_GPU);
  CHECK(shim->cuModuleLoadData(&m, "\x7f"
                                   "ELF\x02\x01\x01") ==
        CUDA_ERROR_NO_BINARY_FOR_GPU);
  CHECK(take().empty()); // the driver never saw the images
  CHECK(shim->stats().refused == 2);
  CHECK(fx.log().find("miss -> refused (strict)") != std::string::npos);
  CHECK(fx.log().find("not served: a cubin holds no PTX -> refused") !=
        std::string::npos);
}

TEST_CASE("entries that fail verification are never loaded", "[shim]") {
  Fixture fx;
  SECTION("corrupt") {
    putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n");
    std::string path =
        fx.store.entryPath(cache::moduleKey(kPTX, "nvptx", "sm_90"));
    std::string bytes = readAll(path);
    bytes[bytes.size() / 2] ^= 1;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  }
  SECTION("another compiler") {
    putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n", {},
             "zluda-precompile 0.0.1");
  }
  SECTION("partial") {
    putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n",
             {"uses_mma"});
  }
  auto shim = fx.make();
  CUmodule m = nullptr;
  REQUIRE(shim->cuModuleLoadData(&m, kPTX.c_str()) == CUDA_SUCCESS);
  CHECK(take() == "cuModuleLoadData // original\n");
  CHECK_FALSE(shim->handles().owns(m));
  CHECK(shim->stats().fallbacks == 1);
  std::string log = fx.log();
  CHECK((log.find("rejected:") != std::string::npos ||
         log.find("partial: 1 kernel(s) not compiled, first uses_mma") !=
             std::string::npos));
}

TEST_CASE("the image index finds the key without reading the PTX", "[shim]") {
  Fixture fx;
  putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n");
  // A container whose compressed PTX does not decompress: only the index
  // can serve it, which shows the PTX is neither decompressed nor hashed.
  EntrySpec e;
  e.payload = kPTX;
  e.stored = std::string(40, 'x');
  e.flags |= fatbin::kFlagLZ4;
  e.uncompressed = kPTX.size();
  std::string packed = container({entry(cubinEntry('\0')), entry(e)});
  Wrapper w;
  w.data = packed.data();
  cache::ImageRecord record;
  record.compilerVersion = std::string(cache::compilerVersion());
  record.imageBytes = packed.size();
  record.moduleHash = cache::Sha256::hex(kPTX);
  std::string indexKey = cache::imageIndexKey(packed), error;
  bool served = true;
  SECTION("a record of these bytes") {
    REQUIRE(fx.store.writeImage(indexKey, record, error));
  }
  SECTION("no record") { served = false; }
  SECTION("a record of another compiler") {
    record.compilerVersion = "zluda-precompile 0.0.1";
    REQUIRE(fx.store.writeImage(indexKey, record, error));
    served = false;
  }
  SECTION("a record of another size") {
    record.imageBytes += 8;
    REQUIRE(fx.store.writeImage(indexKey, record, error));
    served = false;
  }
  SECTION("a damaged record") {
    REQUIRE(fx.store.writeImage(indexKey, record, error));
    std::string path = fx.store.imagePath(indexKey);
    std::string bytes = readAll(path);
    bytes[bytes.find("ptx ") + 5] ^= 1;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    served = false;
  }
  auto shim = fx.make();
  CUmodule m = nullptr;
  REQUIRE(shim->cuModuleLoadData(&m, &w) == CUDA_SUCCESS);
  CHECK(shim->handles().owns(m) == served);
  CHECK(shim->stats().indexed == (served ? 1u : 0u));
  shim->finish();
  std::string log = fx.log();
  if (served) {
    CHECK(take() == "cuModuleLoadData // cached build\n"
                    "cuFuncLoad function (all)\n");
    CHECK(log.find("ptx-sha256=" + record.moduleHash.substr(0, 16) +
                   " (image index) nvptx:sm_90") != std::string::npos);
    CHECK(log.find("; 1 found by the image index") != std::string::npos);
  } else {
    CHECK(log.find("not served: ") != std::string::npos);
    CHECK(log.find("; 0 found by the image index") != std::string::npos);
  }
}

TEST_CASE("hip backend: a target ID with settings finds the best build",
          "[shim]") {
  // The device runs gfx942 with SRAM ECC on and XNACK off: a build for
  // exactly that, else one that leaves a setting open, else the bare
  // processor's (either mode); never a build for the other setting.
  setenv("RECORDER_GCN_ARCH", "gfx942:sramecc+:xnack-", 1);
  struct Unset {
    ~Unset() { unsetenv("RECORDER_GCN_ARCH"); }
  } unset;
  for (const char *stored : {"gfx942:sramecc+:xnack-", "gfx942:sramecc+",
                             "gfx942:xnack-", "gfx942"}) {
    Fixture fx("hip");
    putEntry(fx.store, kPTX, "amdgpu", "gfx942:sramecc+:xnack+",
             "// other xnack\n");
    putEntry(fx.store, kPTX, "amdgpu", stored, "// code object\n");
    auto shim = fx.make();
    CUmodule m = nullptr;
    REQUIRE(shim->cuModuleLoadData(&m, kPTX.c_str()) == CUDA_SUCCESS);
    CHECK(shim->handles().owns(m));
    CHECK(take() == "hipModuleLoadData // code object\n");
    std::string as = std::string(stored) == "gfx942:sramecc+:xnack-"
                         ? " key="
                         : std::string(" (as ") + stored + ") key=";
    CHECK(fx.log().find("amdgpu:gfx942:sramecc+:xnack-" + as) !=
          std::string::npos);
  }
  Fixture fx("hip");
  putEntry(fx.store, kPTX, "amdgpu", "gfx942:xnack+", "// other xnack\n");
  auto shim = fx.make();
  CUmodule m = nullptr;
  REQUIRE(shim->cuModuleLoadData(&m, kPTX.c_str()) == CUDA_SUCCESS);
  CHECK_FALSE(shim->handles().owns(m));
  CHECK(take() == "cuModuleLoadData // original\n");
}

TEST_CASE("hip backend: one warp a wave on wave64 devices", "[shim]") {
  // ZLUDA_SHIM_WARPS_PER_WAVE=1 on gfx942: the one-warp-a-wave build is
  // served (not the default one), launched with twice the threads in x; a
  // block whose x is not a multiple of 32, or of more than 512 threads, is
  // refused.
  setenv("RECORDER_GCN_ARCH", "gfx942", 1);
  setenv("ZLUDA_SHIM_WARPS_PER_WAVE", "1", 1);
  struct Unset {
    ~Unset() {
      unsetenv("RECORDER_GCN_ARCH");
      unsetenv("ZLUDA_SHIM_WARPS_PER_WAVE");
    }
  } unset;
  Fixture fx("hip");
  putEntry(fx.store, kPTX, "amdgpu", "gfx942", "// two warps a wave\n");
  putEntry(fx.store, kPTX, "amdgpu", "gfx942", "// one warp a wave\n", {},
           std::string(cache::compilerVersion()), cache::kOneWarpPerWave);
  auto shim = fx.make();
  CUmodule m = nullptr;
  REQUIRE(shim->cuModuleLoadData(&m, kPTX.c_str()) == CUDA_SUCCESS);
  CHECK(take() == "hipModuleLoadData // one warp a wave\n");
  CHECK(fx.log().find("amdgpu:gfx942 one-warp-a-wave key=") !=
        std::string::npos);
  CUfunction f = nullptr;
  REQUIRE(shim->cuModuleGetFunction(&f, m, "k") == CUDA_SUCCESS);
  take();
  void *params[] = {nullptr};
  REQUIRE(shim->cuLaunchKernel(f, 2, 1, 1, 64, 1, 1, 0, nullptr, params,
                               nullptr) == CUDA_SUCCESS);
  CHECK(take() == "hipModuleLaunchKernel hip-function k grid 2 block 128 "
                  "shmem 0 stream 0 params\n");
  CHECK(shim->cuLaunchKernel(f, 1, 1, 1, 48, 1, 1, 0, nullptr, params,
                             nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(shim->cuLaunchKernel(f, 1, 1, 1, 1024, 1, 1, 0, nullptr, params,
                             nullptr) == CUDA_ERROR_INVALID_VALUE);
  CHECK(take().empty());
  unsigned bx = 32;
  CHECK(oneWarpPerWaveBlock(bx, 8, 2));
  CHECK(bx == 64);
  CHECK_FALSE(oneWarpPerWaveBlock(bx = 32, 8, 3));
}

TEST_CASE("hip backend: gcnArchName, handles, launches", "[shim]") {
  Fixture fx("hip");
  putEntry(fx.store, kPTX, "amdgpu", "gfx1100", "// code object\n");
  auto shim = fx.make();
  CUlibrary lib = nullptr;
  std::string packed = ptxContainer(kPTX, false);
  REQUIRE(shim->cuLibraryLoadData(&lib, packed.data(), nullptr, nullptr, 0,
                                  nullptr, nullptr, 0) == CUDA_SUCCESS);
  CHECK(fx.log().find("amdgpu:gfx1100 key=") != std::string::npos);
  CUkernel k = nullptr;
  REQUIRE(shim->cuLibraryGetKernel(&k, lib, "k") == CUDA_SUCCESS);
  CUfunction f = nullptr;
  REQUIRE(shim->cuKernelGetFunction(&f, k) == CUDA_SUCCESS);
  CHECK(f == reinterpret_cast<CUfunction>(k));
  CHECK(shim->handles().owns(f));
  CHECK(take() == "hipModuleLoadData // code object\n"
                  "hipModuleGetFunction hip-module k\n");

  // CUDA's extra list, any order, becomes HIP's; _ptsz with the NULL stream
  // is HIP's per-thread stream (2).
  char args[8] = {};
  size_t size = sizeof args;
  void *extra[] = {(void *)2, &size, (void *)1, args, (void *)0};
  REQUIRE(shim->cuLaunchKernel_ptsz(f, 3, 1, 1, 32, 1, 1, 16, nullptr, nullptr,
                                    extra) == CUDA_SUCCESS);
  CHECK(take() == "hipModuleLaunchKernel hip-function k grid 3 block 32 "
                  "shmem 16 stream 2 extra 1 2 3 size 8\n");
  void *params[] = {args};
  REQUIRE(shim->cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params,
                               nullptr) == CUDA_SUCCESS);
  CHECK(take() == "hipModuleLaunchKernel hip-function k grid 1 block 1 "
                  "shmem 0 stream 0 params\n");

  int v = 0;
  REQUIRE(shim->cuFuncSetAttribute(f, 8, 48 * 1024) == CUDA_SUCCESS);
  REQUIRE(shim->cuFuncGetAttribute(&v, 8, f) == CUDA_SUCCESS);
  CHECK(v == 48 * 1024);
  CHECK(shim->cuFuncSetAttribute(f, 8, 128 * 1024) == CUDA_ERROR_INVALID_VALUE);
  REQUIRE(shim->cuFuncGetAttribute(&v, 0, f) == CUDA_SUCCESS);
  CHECK(v == 256);
  REQUIRE(shim->cuOccupancyMaxActiveBlocksPerMultiprocessor(&v, f, 128, 0) ==
          CUDA_SUCCESS);
  CHECK(v == 4);
  const char *name = nullptr;
  REQUIRE(shim->cuFuncGetName(&name, f) == CUDA_SUCCESS);
  CHECK(std::string(name) == "k");
  take();

  // A handle the backend did not make goes to the driver.
  CUmodule theirs = nullptr;
  CUfunction theirFunction = nullptr;
  REQUIRE(fx.real.cuModuleLoadData(&theirs, kOtherPTX.c_str()) == 0);
  REQUIRE(fx.real.cuModuleGetFunction(&theirFunction, theirs, "j") == 0);
  take();
  int w = 0;
  REQUIRE(shim->cuFuncGetAttribute(&w, 0, theirFunction) == CUDA_SUCCESS);
  CHECK(w == 1024);
  CHECK(take() == "cuFuncGetAttribute 0 function j\n");

  // Calls the backends do not implement: refused on a hip object (the
  // driver underneath cannot know it), forwarded otherwise.
  CHECK(shim->cuLaunch(f) == CUDA_ERROR_NOT_SUPPORTED);
  CHECK(take().empty());
  CHECK(fx.log().find("cuLaunch on a hip backend handle: not supported") !=
        std::string::npos);
  REQUIRE(shim->cuLaunch(theirFunction) == CUDA_SUCCESS);
  CHECK(take() == "cuLaunch function j\n");

  REQUIRE(shim->cuLibraryUnload(lib) == CUDA_SUCCESS);
  CHECK(take() == "hipModuleUnload hip-module\n");
  CHECK_FALSE(shim->handles().owns(lib));
  CHECK_FALSE(shim->handles().owns(f));
}

TEST_CASE("the exported library forwards and answers cuGetProcAddress",
          "[shim]") {
  std::string dir = tempDir();
  setenv("ZLUDA_SHIM_DRIVER", ZLUDA_RECORDER_PATH, 1);
  setenv("ZLUDA_SHIM_LOG", (dir + "/log").c_str(), 1);
  void *shim = dlopen(ZLUDA_SHIM_PATH, RTLD_NOW | RTLD_LOCAL);
  REQUIRE(shim);
  unsetenv("ZLUDA_SHIM_DRIVER");
  unsetenv("ZLUDA_SHIM_LOG");
  take();

  // An export reaches the driver unchanged.
  using MemAlloc = int (*)(uint64_t *, size_t);
  auto memAlloc = reinterpret_cast<MemAlloc>(dlsym(shim, "cuMemAlloc_v2"));
  REQUIRE(memAlloc);
  uint64_t p = 0;
  CHECK(memAlloc(&p, 256) == 0);
  CHECK(p == 0x1000);
  CHECK(take() == "cuMemAlloc_v2 256\n");

  // cuGetProcAddress hands out the shim's served functions, for any flags,
  // and the driver's own for the rest.
  using GetProc = int (*)(const char *, void **, int, uint64_t, int *);
  auto getProc = reinterpret_cast<GetProc>(dlsym(shim, "cuGetProcAddress_v2"));
  void *fn = nullptr;
  REQUIRE(getProc("cuModuleLoadData", &fn, 13000, 0, nullptr) == 0);
  CHECK(fn == dlsym(shim, "cuModuleLoadData"));
  REQUIRE(getProc("cuLaunchKernel", &fn, 13000, 2, nullptr) == 0);
  CHECK(fn == dlsym(shim, "cuLaunchKernel_ptsz"));
  REQUIRE(getProc("cuGetProcAddress", &fn, 13000, 0, nullptr) == 0);
  CHECK((fn == dlsym(shim, "cuGetProcAddress_v2") ||
         fn == dlsym(shim, "cuGetProcAddress")));
  REQUIRE(getProc("cuCtxGetDevice", &fn, 13000, 0, nullptr) == 0);
  CHECK(fn == dlsym(recorder(), "cuCtxGetDevice"));
  // Allocations are served (kept track of for the compare mode), then the
  // driver's.
  REQUIRE(getProc("cuMemAlloc_v2", &fn, 13000, 0, nullptr) == 0);
  CHECK(fn == dlsym(shim, "cuMemAlloc_v2"));

  // No cache configured: loads are forwarded and logged as misses.
  using Load = int (*)(void **, const void *);
  auto load = reinterpret_cast<Load>(dlsym(shim, "cuModuleLoadData"));
  void *m = nullptr;
  REQUIRE(load(&m, kPTX.c_str()) == 0);
  CHECK(take() == "cuModuleLoadData // original\n");
  CHECK(readAll(dir + "/log").find("miss: no cache -> fallback") !=
        std::string::npos);
}

TEST_CASE("an -rdc program's linked image is served by its own hash",
          "[shim]") {
  // nvlink's image: a container of machine code only. `build` stores the
  // program's relocatable modules, linked, under the container's hash.
  EntrySpec elf = cubinEntry('\1');
  std::string linked = container({entry(elf)});
  ImageInfo info = readImage(linked.data());
  CHECK_FALSE(info.hasPTX);
  CHECK(info.containerSha256 == cache::Sha256::hex(linked));

  Fixture fx;
  cache::Entry e;
  e.meta.key = cache::moduleKeyOfPtxHash(
      cache::linkedImageHash(info.containerSha256), "nvptx", "sm_90");
  e.meta.target = "nvptx";
  e.meta.chip = "sm_90";
  e.meta.compilerVersion = std::string(cache::compilerVersion());
  e.meta.ptxSha256 = "-";
  e.meta.kernels = {"k", "reset"};
  e.object = "// linked build\n.version 8.0\n";
  std::string error;
  REQUIRE(fx.store.write(e, error));
  auto shim = fx.make();
  Wrapper w;
  w.data = linked.data();
  CUlibrary lib = nullptr;
  REQUIRE(shim->cuLibraryLoadData(&lib, &w, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0) == CUDA_SUCCESS);
  CHECK(take() == "cuLibraryLoadData // linked build\n"
                  "cuKernelGetFunction kernel (all)\n"
                  "cuFuncLoad kernel (all)\n");
  CHECK(shim->handles().owns(lib));

  // Another machine-code-only image: a miss that says what to build.
  elf.payload[10] = 'x';
  std::string other = container({entry(elf)});
  w.data = other.data();
  REQUIRE(shim->cuLibraryLoadData(&lib, &w, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0) == CUDA_SUCCESS);
  CHECK(take() == "cuLibraryLoadData wrapper\n");
  shim->finish();
  std::string log = fx.log();
  CHECK(log.find("linked-image sha256=") != std::string::npos);
  CHECK(log.find("hit -> served, 2 kernel(s) k,reset") != std::string::npos);
  CHECK(log.find("miss: no PTX in the fatbin, and no linked build of the "
                 "program (build the executable) -> fallback") !=
        std::string::npos);
}

TEST_CASE("compare mode: the names of a module's globals", "[shim]") {
  CHECK(ptxGlobalNames(".version 8.0\n"
                       ".visible .global .align 4 .u32 counter;\n"
                       ".global .align 8 .b8 table[64] = {1, 2};\n"
                       "  .const .align 4 .f32 scale = 0f3F800000;\n"
                       ".extern .global .align 4 .u32 other;\n"
                       ".shared .align 4 .u32 notme;\n"
                       ".visible .entry k() { ld.global.u32 %r1, [x]; }\n") ==
        std::vector<std::string>{"counter", "table", "scale", "other"});
  CHECK(firstDifference({{1, 2, 3}, {4}}, {{1, 2, 3}, {4}}).same);
  Difference d = firstDifference({{1, 2, 3}, {4, 5}}, {{1, 2, 3}, {4, 6}});
  CHECK_FALSE(d.same);
  CHECK(d.region == 1);
  CHECK(d.offset == 1);
  CHECK(d.expected == 5);
  CHECK(d.actual == 6);
}

TEST_CASE("record mode: launch shapes, parameter bytes, bounds", "[shim]") {
  CUlaunchConfig config{4, 2, 1, 64, 1, 1, 128, nullptr, nullptr, 0};
  uint64_t pointer = 0x1234;
  uint32_t count = 9;
  void *params[] = {&pointer, &count};
  LaunchShape s = shapeOf(&config, params, nullptr);
  CHECK(s.grid[1] == 2);
  CHECK(s.block[0] == 64);
  CHECK(s.shared == 128);
  std::vector<uint8_t> bytes;
  REQUIRE(gatherParams(s, {{0, 8}, {8, 4}}, bytes));
  REQUIRE(bytes.size() == 12);
  CHECK(bytes[0] == 0x34);
  CHECK(bytes[8] == 9);
  // The same bytes from an `extra` buffer; a list without one is refused.
  uint8_t buffer[16] = {1, 2, 3};
  size_t size = sizeof buffer;
  void *extra[] = {reinterpret_cast<void *>(1), buffer,
                   reinterpret_cast<void *>(2), &size, nullptr};
  REQUIRE(gatherParams(shapeOf(1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra),
                       {{0, 8}, {8, 4}}, bytes));
  CHECK(bytes[2] == 3);
  void *noBuffer[] = {reinterpret_cast<void *>(3), nullptr, nullptr};
  CHECK_FALSE(
      gatherParams(shapeOf(1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, noBuffer),
                   {{0, 8}}, bytes));
  // Bounds: threads, bytes, launches a kernel; a linked image has no PTX.
  std::string dir = tempDir(), error;
  auto rec = Recorder::open(dir + "/rec", error);
  REQUIRE(rec);
  LaunchShape big = shapeOf(1024, 1, 1, 256, 1, 1, 0, nullptr, nullptr);
  CHECK(rec->refusal("m:k", big, 0, true) ==
        "262144 threads, over the limit of 65536");
  CHECK(rec->refusal("m:k", s, size_t(9) << 20, true) ==
        "9437184 bytes of memory, over the limit of 8388608");
  CHECK(rec->refusal("m:k", s, 0, false) ==
        "the module has no PTX (a linked image)");
  for (int i = 0; i < 8; ++i)
    CHECK(rec->refusal("m:k", s, 64, true).empty());
  CHECK(rec->refusal("m:k", s, 64, true) ==
        "the kernel's first 8 launches were recorded");
  CHECK(rec->refusal("m:other", s, 64, true).empty());
}

// Last: the comparison installs itself once per process.
TEST_CASE("compare mode runs NVIDIA's build and ours on the same memory",
          "[shim]") {
  Fixture fx;
  fx.config.compare = fx.dir + "/compare";
  fx.config.record = fx.dir + "/record";
  // Launches that compare the same are timed too: 3 runs of each build.
  setenv("ZLUDA_SHIM_COMPARE_TIME", "3", 1);
  putEntry(fx.store, kPTX, "nvptx", "sm_90", "// cached build\n.version 8.0\n");
  auto shim = fx.make();
  REQUIRE(Compare::active());
  std::string packed = ptxContainer(kPTX, true);
  Wrapper w;
  w.data = packed.data();
  CUlibrary lib = nullptr;
  REQUIRE(shim->cuLibraryLoadData(&lib, &w, nullptr, nullptr, 0, nullptr,
                                  nullptr, 0) == CUDA_SUCCESS);
  // Ours, then the application's own image beside it.
  CHECK(take() == "cuLibraryLoadData // cached build\n"
                  "cuLibraryLoadData wrapper\n"
                  "cuKernelGetFunction kernel (all)\n"
                  "cuFuncLoad kernel (all)\n");
  void *host = nullptr;
  REQUIRE(shim->cuMemAllocHost_v2(&host, 64) == CUDA_SUCCESS);
  auto launch = [&](const char *name) {
    CUkernel k = nullptr;
    REQUIRE(shim->cuLibraryGetKernel(&k, lib, name) == CUDA_SUCCESS);
    CUdeviceptr p = CUdeviceptr(host);
    void *params[] = {&p};
    *static_cast<uint32_t *>(host) = 0;
    REQUIRE(shim->cuLaunchKernel(reinterpret_cast<CUfunction>(k), 1, 1, 1, 32,
                                 1, 1, 0, nullptr, params,
                                 nullptr) == CUDA_SUCCESS);
    return *static_cast<uint32_t *>(host);
  };
  CHECK(launch("k") == 7);
  // The kernel of the application's library is looked up at the first
  // launch; NVIDIA's kernel runs (twice when the launch is recorded: is it
  // deterministic?), then ours, on the same memory; then, as they agree,
  // each 3 times more, alternating, timed.
  std::string launchK = "cuLaunchKernel kernel k grid 1 block 32\n";
  std::string calls = "cuLibraryGetKernel library k\n"
                      "cuLibraryGetKernel library k\n";
  for (int i = 0; i < 3 + 6; ++i)
    calls += launchK;
  CHECK(take() == calls);
  CHECK(launch("bad") == 8); // the application goes on with ours
  launch("racy");
  REQUIRE(shim->cuMemFreeHost(host) == CUDA_SUCCESS);
  shim->finish();
  std::string log = readAll(fx.config.compare);
  CHECK(log.find("launch 1 k: same (1 regions, 64 bytes of allocations); "
                 "time nvidia 10.0 us, ours 8.0 us (medians of 3)") !=
        std::string::npos);
  // Per kernel: NVIDIA's time over ours (only `k` compared the same).
  CHECK(log.find("kernel time k: 1 launches, nvidia 10.0 us, ours 8.0 us, "
                 "speed 1.250") != std::string::npos);
  CHECK(log.find("time summary: 1 kernels, speed (nvidia time / ours) "
                 "geometric mean 1.250") != std::string::npos);
  CHECK(log.find("launch 2 bad: MISMATCH at region 0 (64 bytes) byte 0x0: "
                 "nvidia 0x7, ours 0x8; 32-bit word nvidia 0x7, ours 0x8") !=
        std::string::npos);
  CHECK(log.find("launch 3 racy: nondeterministic (NVIDIA's own runs "
                 "differ") != std::string::npos);
  CHECK(log.find("compare summary: 3 launches, 1 same, 1 mismatches, 1 "
                 "nondeterministic, 0 skipped, 0 errors") != std::string::npos);
  // The record: the module's PTX by its hash, a line and a data file per
  // launch (memory before, NVIDIA's after where it changed).
  std::string sha = cache::Sha256::hex(kPTX);
  CHECK(readAll(fx.config.record + "/modules/" + sha + ".ptx") == kPTX);
  std::string stem =
      fx.config.record + "/zluda-unit-tests." + std::to_string(getpid());
  std::string index = readAll(stem + ".jsonl");
  char host64[32];
  std::snprintf(host64, sizeof host64, "%llu",
                static_cast<unsigned long long>(CUdeviceptr(host)));
  CHECK(index.find("{\"program\":\"zluda-unit-tests\",\"launch\":1,"
                   "\"kernel\":\"k\",\"ptx_sha256\":\"" +
                   sha +
                   "\",\"grid\":[1,1,1],\"block\":[32,1,1],\"shared\":0,"
                   "\"params\":\"") != std::string::npos);
  CHECK(index.find(std::string("\"layout\":[[0,8]],\"regions\":[{\"addr\":") +
                   host64 +
                   ",\"bytes\":64,\"host\":true}],\"changed\":[true],"
                   "\"deterministic\":true,\"data\":\"zluda-unit-tests.") !=
        std::string::npos);
  CHECK(index.find("\"kernel\":\"racy\"") != std::string::npos);
  CHECK(index.find("\"deterministic\":false") != std::string::npos);
  std::string data = readAll(stem + ".1.bin");
  REQUIRE(data.size() == 128);
  CHECK(data[0] == 0);
  CHECK(data[64] == 7);
}

TEST_CASE("the shim's cache defaults to the one zluda-precompile fills",
          "[shim]") {
  // ZLUDA_SHIM_CACHE, else $ZLUDA_CACHE_DIR (else ~/.zluda/cache) when it
  // holds a cache; otherwise no cache (every load forwarded).
  std::string dir = tempDir();
  unsetenv("ZLUDA_SHIM_CACHE");
  setenv("ZLUDA_CACHE_DIR", dir.c_str(), 1);
  CHECK(Config::fromEnvironment().cacheDir.empty()); // not a cache yet
  cache::Cache store(dir);
  std::string error;
  REQUIRE(store.open(error));
  CHECK(Config::fromEnvironment().cacheDir == dir);
  setenv("ZLUDA_SHIM_CACHE", "/elsewhere", 1);
  CHECK(Config::fromEnvironment().cacheDir == "/elsewhere");
  unsetenv("ZLUDA_SHIM_CACHE");
  unsetenv("ZLUDA_CACHE_DIR");
  std::system(("rm -rf " + dir).c_str());
}

TEST_CASE("a served entry is marked used for cache prune --max-size",
          "[shim]") {
  Fixture fx("hip");
  putEntry(fx.store, kPTX, "amdgpu", "gfx1100", "// code object\n");
  std::string path =
      fx.store.entryPath(cache::moduleKey(kPTX, "amdgpu", "gfx1100"));
  struct timespec old[2] = {{978307200, 0}, {978307200, 0}}; // 2001
  REQUIRE(::utimensat(AT_FDCWD, path.c_str(), old, 0) == 0);
  auto shim = fx.make();
  CUmodule m = nullptr;
  REQUIRE(shim->cuModuleLoadData(&m, kPTX.c_str()) == CUDA_SUCCESS);
  struct stat st;
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK(st.st_mtime > 978307200 + 86400);
}
