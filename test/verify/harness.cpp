// Differential harness (the verification oracle): for each case of a sweep
// directory, runs NVIDIA's compilation of the original PTX and the
// toolchain's NVPTX build of the same PTX (`zluda-precompile compile
// --target nvptx`) on the same inputs, and compares the outputs bit for bit.
//
// Kernel convention (test/verify/gen-sweeps.py):
//   k(u64 out, u64 a, u64 b, u64 c, u32 n): out[i] (64-bit) from a[i], b[i],
//   c[i] (32-bit).
// Inputs: every triple of a set of edge values (zeros, denormals, infinities,
// NaNs with payloads, integer limits, values at rounding boundaries), then
// random values. Outputs are poisoned before each run; every driver call is
// checked.
//
// Usage: harness SWEEP_DIR OURS_DIR [INPUTS]   (prints a table; exit 1 on any
// mismatch or error)
#include "HarnessLogic.h"

#include <cuda.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

#define CHECK(call)                                                            \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *s_ = nullptr;                                                \
      cuGetErrorString(r_, &s_);                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, s_ ? s_ : "?");                                      \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "";
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Result {
  std::string name;
  size_t inputs = 0, mismatches = 0;
  std::string first;
  std::string error;
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SWEEP_DIR OURS_DIR [INPUTS]\n", argv[0]);
    return 2;
  }
  std::string sweeps = argv[1], ours = argv[2];
  size_t n = argc > 3 ? std::strtoull(argv[3], nullptr, 0) : (size_t(1) << 22);
  n = std::max(n, harness::gridSize());

  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  char devName[256];
  CHECK(cuDeviceGetName(devName, sizeof devName, dev));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  std::vector<uint32_t> a(n), b(n), c(n);
  std::vector<uint64_t> outOrig(n), outOurs(n);
  CUdeviceptr dA, dB, dC, dOut;
  CHECK(cuMemAlloc(&dA, n * 4));
  CHECK(cuMemAlloc(&dB, n * 4));
  CHECK(cuMemAlloc(&dC, n * 4));
  CHECK(cuMemAlloc(&dOut, n * 8));

  std::vector<Result> results;
  std::ifstream manifest(sweeps + "/manifest");
  for (const std::string &name : harness::readManifest(manifest)) {
    Result r;
    r.name = name;
    harness::makeInputs(name, n, a, b, c);
    CHECK(cuMemcpyHtoD(dA, a.data(), n * 4));
    CHECK(cuMemcpyHtoD(dB, b.data(), n * 4));
    CHECK(cuMemcpyHtoD(dC, c.data(), n * 4));

    auto run = [&](const std::string &path,
                   std::vector<uint64_t> &out) -> std::string {
      std::string text = readFile(path);
      if (text.empty())
        return "cannot read " + path;
      CUmodule mod;
      CUresult lr = cuModuleLoadData(&mod, text.c_str());
      if (lr != CUDA_SUCCESS) {
        const char *s = nullptr;
        cuGetErrorString(lr, &s);
        return std::string("cuModuleLoadData(") + path + "): " + (s ? s : "?");
      }
      CUfunction fn;
      CHECK(cuModuleGetFunction(&fn, mod, "k"));
      CHECK(cuMemsetD8(dOut, 0xAB, n * 8)); // poison
      unsigned count = static_cast<unsigned>(n);
      void *args[] = {&dOut, &dA, &dB, &dC, &count};
      CHECK(cuLaunchKernel(fn, static_cast<unsigned>((n + 255) / 256), 1, 1,
                           256, 1, 1, 0, nullptr, args, nullptr));
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(out.data(), dOut, n * 8));
      CHECK(cuModuleUnload(mod));
      return "";
    };
    r.error = run(sweeps + "/" + name + ".ptx", outOrig);
    if (r.error.empty())
      r.error = run(ours + "/" + name + ".ptx", outOurs);
    if (r.error.empty()) {
      r.inputs = n;
      harness::Comparison cmp = harness::compare(a, b, c, outOrig, outOurs);
      r.mismatches = cmp.mismatches;
      r.first = cmp.first;
    }
    results.push_back(r);
  }

  size_t totalInputs = 0, totalMismatches = 0, failedCases = 0;
  std::printf("device: %s\n", devName);
  std::printf("%-22s %10s %10s  %s\n", "family", "inputs", "mismatches",
              "first mismatch / error");
  for (const Result &r : results) {
    totalInputs += r.inputs;
    totalMismatches += r.mismatches;
    if (!r.error.empty() || r.mismatches)
      ++failedCases;
    std::printf("%-22s %10zu %10zu  %s\n", r.name.c_str(), r.inputs,
                r.mismatches,
                r.error.empty() ? r.first.c_str() : r.error.c_str());
  }
  std::printf("total: %zu families, %zu inputs compared, %zu mismatches, %zu "
              "families failing\n",
              results.size(), totalInputs, totalMismatches, failedCases);
  return failedCases ? 1 : 0;
}
