//===- litmus.cpp - Memory-model litmus tests on an NVIDIA GPU ------------===//
//
// Runs the kernels of a litmus module (gen-litmus.py's PTX, or our NVPTX
// build of it) through the CUDA driver API and prints, per test, how often
// each outcome was seen and how often the forbidden one. Exit status 1 if
// a synchronized test (not a control) shows its forbidden outcome, or a
// host/device test loses an addition.
//
//   litmus MODULE.ptx [ROUNDS] [GROUPS]
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

void check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return;
  const char *s = nullptr;
  cuGetErrorString(r, &s);
  std::fprintf(stderr, "litmus: %s: %s\n", what, s ? s : "?");
  std::exit(2);
}

/// Initializes the driver and loads the PTX module at `path`.
CUmodule loadModule(const char *path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  check(cuInit(0), "cuInit");
  CUdevice dev;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "context");
  check(cuCtxSetCurrent(ctx), "context");
  CUmodule mod;
  check(cuModuleLoadData(&mod, text.str().c_str()), "cuModuleLoadData");
  return mod;
}

struct PairTest {
  std::string name;
  bool intraCta; ///< writer and reader warps of one CTA
  bool sb;       ///< store buffering (results words) or message passing
  bool control;  ///< the ordering is missing: the forbidden outcome may show
};

/// Runs one pair test; returns the number of forbidden outcomes.
uint64_t runPair(CUmodule mod, const PairTest &t, unsigned rounds,
                 unsigned groups, bool &failed) {
  CUfunction fn;
  check(cuModuleGetFunction(&fn, mod, t.name.c_str()), t.name.c_str());
  unsigned pairs = groups * 32;
  size_t region = size_t(pairs) * rounds * 4;
  size_t bytes = 4 * region + pairs * 16 + 16;
  CUdeviceptr buf;
  check(cuMemAlloc(&buf, bytes), "cuMemAlloc");
  check(cuMemsetD8(buf, 0, bytes), "cuMemsetD8");
  void *args[] = {&buf, &rounds, &pairs};
  unsigned grid = t.intraCta ? groups : 2 * groups;
  unsigned block = t.intraCta ? 64 : 32;
  check(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr),
        "cuLaunchKernel");
  check(cuCtxSynchronize(), t.name.c_str());
  std::vector<uint32_t> host(bytes / 4);
  check(cuMemcpyDtoH(host.data(), buf, bytes), "cuMemcpyDtoH");
  cuMemFree(buf);
  uint64_t outcome[4] = {0, 0, 0, 0};
  size_t words = region / 4;
  if (t.sb) {
    const uint32_t *w = host.data() + 2 * words + pairs * 4 + 4;
    const uint32_t *r = w + words;
    for (size_t i = 0; i < words; ++i)
      ++outcome[2 * (w[i] != 0) + (r[i] != 0)];
  } else {
    const uint32_t *h = host.data() + 2 * words;
    for (unsigned p = 0; p < pairs; ++p)
      for (int k = 0; k < 4; ++k)
        outcome[k] += h[4 * p + k];
  }
  // MP forbids flag = 1, data = 0 (outcome 2); SB forbids r1 = r2 = 0 (0).
  uint64_t forbidden = t.sb ? outcome[0] : outcome[2];
  bool bad = !t.control && forbidden;
  failed |= bad;
  std::printf("litmus %-22s %s pairs %u rounds %u  00 %llu  01 %llu  10 %llu  "
              "11 %llu  forbidden %llu%s\n",
              t.name.c_str(), t.control ? "control" : "synced ", pairs, rounds,
              (unsigned long long)outcome[0], (unsigned long long)outcome[1],
              (unsigned long long)outcome[2], (unsigned long long)outcome[3],
              (unsigned long long)forbidden, bad ? "  FAIL" : "");
  return forbidden;
}

/// A kernel adding 1 to one managed word `iters` times a thread while the
/// host adds 1 to it `hostAdds` times; returns the additions lost.
int64_t runHostDevice(CUmodule mod, const char *name, bool control,
                      bool &failed) {
  CUfunction fn;
  check(cuModuleGetFunction(&fn, mod, name), name);
  CUdevice dev;
  check(cuCtxGetDevice(&dev), "cuCtxGetDevice");
  int concurrent = 0, hostAtomics = 0;
  cuDeviceGetAttribute(&concurrent,
                       CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, dev);
  cuDeviceGetAttribute(&hostAtomics,
                       CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED, dev);
  if (!concurrent) {
    // The host may not touch managed memory while a kernel runs here.
    std::printf("litmus %-22s not runnable: no concurrent managed access "
                "(host native atomics %d)\n",
                name, hostAtomics);
    return 0;
  }
  CUdeviceptr word;
  check(cuMemAllocManaged(&word, 64, CU_MEM_ATTACH_GLOBAL), "managed");
  auto *host = reinterpret_cast<uint32_t *>(word);
  check(cuMemsetD32(word, 0, 16), "cuMemsetD32");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  unsigned iters = 2000, grid = 64, block = 128;
  const uint64_t hostAdds = 4000000;
  void *args[] = {&word, &iters};
  check(cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, nullptr, args, nullptr),
        "cuLaunchKernel");
  std::thread adder([&] {
    for (uint64_t i = 0; i < hostAdds; ++i)
      __atomic_fetch_add(host, 1u, __ATOMIC_SEQ_CST);
  });
  adder.join();
  check(cuCtxSynchronize(), name);
  uint64_t expected = uint64_t(grid) * block * iters + hostAdds;
  int64_t lost = int64_t(expected) - int64_t(host[0]);
  cuMemFree(word);
  bool bad = !control && lost != 0;
  failed |= bad;
  std::printf("litmus %-22s %s expected %llu got %u  lost %lld%s\n", name,
              control ? "control" : "synced ", (unsigned long long)expected,
              host[0], (long long)lost, bad ? "  FAIL" : "");
  return lost;
}

/// runHostDevice in a child process: on a machine where the host's
/// accesses to managed memory during a kernel crash, the test is reported
/// as not runnable instead of ending the run.
void runHostDeviceIsolated(const char *path, const char *name, bool control,
                           bool &failed) {
  std::fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    // The parent's context does not survive fork: a fresh one.
    bool childFailed = false;
    CUmodule mod = loadModule(path);
    runHostDevice(mod, name, control, childFailed);
    std::fflush(stdout);
    std::_Exit(childFailed ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) {
    std::printf("litmus %-22s not runnable: the host's concurrent access to "
                "managed memory ended the process (signal %d)\n",
                name, WTERMSIG(status));
    return;
  }
  failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: litmus MODULE.ptx [ROUNDS] [GROUPS]\n");
    return 2;
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  unsigned rounds = argc > 2 ? std::atoi(argv[2]) : 4096;
  unsigned groups = argc > 3 ? std::atoi(argv[3]) : 32;
  // The host/device tests first, each in a child, before this process
  // initializes the driver (a CUDA context does not survive fork).
  bool failed = false;
  runHostDeviceIsolated(argv[1], "hd_atom_sys", false, failed);
  runHostDeviceIsolated(argv[1], "hd_red_sys", false, failed);
  runHostDeviceIsolated(argv[1], "hd_atom_acqrel_sys", false, failed);
  runHostDeviceIsolated(argv[1], "hd_atom_gpu", true, failed);
  CUmodule mod = loadModule(argv[1]);
  std::vector<PairTest> tests;
  for (const char *sem : {"acqrel", "relaxed"})
    for (const char *scope : {"cta", "gpu", "sys"})
      tests.push_back({std::string("mp_rmw_") + sem + "_" + scope,
                       std::string(scope) == "cta", false,
                       std::string(sem) == "relaxed"});
  for (const char *scope : {"cta", "gpu", "sys"})
    tests.push_back({std::string("mp_ldst_") + scope,
                     std::string(scope) == "cta", false, false});
  for (const char *fence : {"sc", "nofence"})
    for (const char *scope : {"cta", "gpu", "sys"})
      tests.push_back({std::string("sb_") + fence + "_" + scope,
                       std::string(scope) == "cta", true,
                       std::string(fence) == "nofence"});
  for (const PairTest &t : tests)
    runPair(mod, t, rounds, groups, failed);
  std::printf("litmus: %s\n", failed ? "FAILED" : "ok");
  return failed ? 1 : 0;
}
