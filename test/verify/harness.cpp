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
// random values from a counter-based generator (HarnessLogic.h); unary
// families (`exhaustive` in the manifest) instead run over all 2^32 values
// of a. Inputs are made, both builds run and outputs compared on the GPU,
// 2^24 inputs at a time. Outputs are poisoned before each run; every driver
// call is checked. Built as CUDA (nvcc -x cu --expt-relaxed-constexpr) for
// the helper kernels.
//
// Usage: harness SWEEP_DIR OURS_DIR [RANDOM]   (RANDOM tuples after the
// edge-value grid, default 2^24; prints a table; exit 1 on any mismatch or
// error)
//
// Record mode: harness --record SWEEP_DIR OUT_FILE [COUNT [EXHAUSTIVE]]
// runs only NVIDIA's build of each case, on the record sample of its inputs
// (HarnessLogic.h: the first COUNT inputs in the harness's order, default
// kRecordInputs = the edge-value grid and 65,728 random tuples; an exhaustive
// case's EXHAUSTIVE values of a, default kRecordExhaustive), in one launch of
// blocks of 256, and writes OUT_FILE: JSON lines, a header and one line a
// case with per-256-input digests, the outputs of two chunks, and all outputs
// of the .approx cases (test/emu/README.md describes the format). The AMD ISA
// emulator's runner (test/emu/run-sweeps.py) compares against it.
// Environment: RECORD_CHUNKS=F:K,K;... keeps these chunks' outputs too;
// RECORD_ONLY=F1,F2 records only these cases; RECORD_FULL=1
// keeps all outputs of every case (to locate mismatching inputs).
#include "HarnessLogic.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
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

#define CHECK_RT(call)                                                         \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,       \
                   #call, cudaGetErrorString(e_));                             \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

__constant__ uint32_t deviceEdges[harness::kEdgeCount];

/// One chunk of a case's inputs, from input `base` on: a = base + i and
/// b = c = 0 for an exhaustive sweep; otherwise harness::inputAt, as the
/// host computes it.
__global__ void fillInputs(uint32_t *a, uint32_t *b, uint32_t *c, bool sequence,
                           uint64_t seed, uint64_t base, uint32_t n) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (sequence) {
    a[i] = static_cast<uint32_t>(base + i);
    b[i] = c[i] = 0;
    return;
  }
  harness::Inputs v =
      harness::inputAt(deviceEdges, harness::kEdgeCount, seed, base + i);
  a[i] = v.a;
  b[i] = v.b;
  c[i] = v.c;
}

/// Counts the outputs that differ and keeps the smallest such index.
__global__ void countDifferences(const unsigned long long *x,
                                 const unsigned long long *y, uint32_t n,
                                 unsigned long long *count,
                                 unsigned long long *first) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] != y[i]) {
    atomicAdd(count, 1ull);
    atomicMin(first, static_cast<unsigned long long>(i));
  }
}

/// Inputs generated, run and compared at a time.
constexpr uint32_t chunkInputs = 1u << 24;

struct Result {
  std::string name, suite;
  size_t inputs = 0, mismatches = 0;
  std::string first;
  std::string error;
};

/// Record mode (see the header comment). Exit 0 when every case was
/// recorded (a case whose module does not load is recorded with its error,
/// and makes the exit status 1).
int record(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s --record SWEEP_DIR OUT_FILE [COUNT [EXHAUSTIVE]]\n",
                 argv[0]);
    return 2;
  }
  std::string sweeps = argv[2], outPath = argv[3];
  auto blocks256 = [](uint64_t v) {
    return (v + harness::kRecordChunk - 1) / harness::kRecordChunk *
           harness::kRecordChunk;
  };
  uint64_t count = blocks256(argc > 4 ? std::strtoull(argv[4], nullptr, 0)
                                      : harness::kRecordInputs);
  uint64_t countExhaustive =
      blocks256(argc > 5 ? std::strtoull(argv[5], nullptr, 0)
                         : harness::kRecordExhaustive);
  {
    // The digests' SHA-256 is FIPS 180-4's ("abc").
    const uint8_t abc[] = {'a', 'b', 'c'};
    std::vector<uint8_t> d = harness::sha256(abc, 3);
    if (harness::hex(d.data(), d.size()) !=
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") {
      std::fprintf(stderr, "self-check: SHA-256 is broken\n");
      return 2;
    }
  }
  FILE *out = std::fopen(outPath.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", outPath.c_str());
    return 2;
  }

  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  char devName[256];
  CHECK(cuDeviceGetName(devName, sizeof devName, dev));
  int driver = 0;
  CHECK(cuDriverGetVersion(&driver));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));
  uint64_t slots = std::max(count, countExhaustive);
  CUdeviceptr dA, dB, dC, dOut;
  CHECK(cuMemAlloc(&dA, slots * 4));
  CHECK(cuMemAlloc(&dB, slots * 4));
  CHECK(cuMemAlloc(&dC, slots * 4));
  CHECK(cuMemAlloc(&dOut, slots * 8));

  std::fprintf(out,
               "{\"format\": \"zluda-sweep-reference\", \"version\": 1, "
               "\"device\": \"%s\", \"driver\": %d, \"chunk\": %u, "
               "\"digest\": \"sha256-64\", \"poison\": 171, \"block\": 256, "
               "\"count\": %" PRIu64 ", \"exhaustive_count\": %" PRIu64 "}\n",
               devName, driver, unsigned(harness::kRecordChunk), count,
               countExhaustive);
  // RECORD_ONLY=F1,F2,...: only these cases; RECORD_FULL=1: all outputs of
  // every case recorded, not only of the .approx ones (a reference to locate
  // the inputs of mismatching chunks: a few families at a time).
  // RECORD_CHUNKS=F1:K,K,...;F2:K,...: the outputs of these chunks kept too
  // (the chunks an AMD run found different: run-sweeps.py --bad-chunks).
  const char *onlyEnv = std::getenv("RECORD_ONLY");
  const char *fullEnv = std::getenv("RECORD_FULL");
  std::map<std::string, std::set<uint64_t>> extraChunks;
  if (const char *chunksEnv = std::getenv("RECORD_CHUNKS")) {
    std::stringstream all(chunksEnv);
    std::string entry;
    while (std::getline(all, entry, ';')) {
      size_t colon = entry.find(':');
      if (colon == std::string::npos)
        continue;
      std::stringstream list(entry.substr(colon + 1));
      std::string k;
      while (std::getline(list, k, ','))
        if (!k.empty())
          extraChunks[entry.substr(0, colon)].insert(std::stoull(k));
    }
  }
  std::string only = onlyEnv ? "," + std::string(onlyEnv) + "," : "";
  bool full = fullEnv && std::string(fullEnv) == "1";
  int failed = 0, recorded = 0;
  std::ifstream manifest(sweeps + "/manifest");
  for (const harness::Case &kase : harness::readManifest(manifest)) {
    if (!only.empty() && only.find("," + kase.name + ",") == std::string::npos)
      continue;
    std::string path = sweeps + "/" + kase.name + ".ptx";
    std::string text = readFile(path);
    std::string error;
    CUmodule mod = nullptr;
    CUfunction fn;
    if (text.empty())
      error = "cannot read " + path;
    else {
      CUresult lr = cuModuleLoadData(&mod, text.c_str());
      if (lr != CUDA_SUCCESS) {
        const char *s = nullptr;
        cuGetErrorString(lr, &s);
        error = std::string("cuModuleLoadData: ") + (s ? s : "?");
        mod = nullptr;
      } else
        CHECK(cuModuleGetFunction(&fn, mod, "k"));
    }
    std::fprintf(out,
                 "{\"family\": \"%s\", \"suite\": \"%s\", \"exhaustive\": %s, "
                 "\"shared\": %u",
                 kase.name.c_str(), kase.suite.c_str(),
                 kase.exhaustive ? "true" : "false", kase.sharedBytes);
    if (!error.empty()) {
      std::string quoted;
      for (char ch : error)
        if (ch != '"' && ch != '\\' && static_cast<unsigned char>(ch) >= 32)
          quoted.push_back(ch);
      std::fprintf(out, ", \"error\": \"%s\"}\n", quoted.c_str());
      ++failed;
      continue;
    }
    uint64_t n = kase.exhaustive ? countExhaustive : count;
    uint64_t seed = harness::seedOf(kase.name);
    std::vector<uint32_t> a(n), b(n), c(n);
    for (uint64_t j = 0; j < n; ++j) {
      harness::Inputs v = harness::recordInputAt(kase.exhaustive, seed, j);
      a[j] = v.a;
      b[j] = v.b;
      c[j] = v.c;
    }
    CHECK(cuMemcpyHtoD(dA, a.data(), n * 4));
    CHECK(cuMemcpyHtoD(dB, b.data(), n * 4));
    CHECK(cuMemcpyHtoD(dC, c.data(), n * 4));
    // As the compare mode launches a chunk: outputs poisoned, blocks of 256.
    CHECK(cuMemsetD8(dOut, 0xAB, n * 8));
    unsigned n32 = static_cast<unsigned>(n);
    void *args[] = {&dOut, &dA, &dB, &dC, &n32};
    CHECK(cuLaunchKernel(fn, static_cast<unsigned>((n + 255) / 256), 1, 1, 256,
                         1, 1, kase.sharedBytes, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
    std::vector<uint64_t> outputs(n);
    CHECK(cuMemcpyDtoH(outputs.data(), dOut, n * 8));
    CHECK(cuModuleUnload(mod));
    std::fprintf(out,
                 ", \"count\": %" PRIu64 ", \"inputs\": \"%s\", "
                 "\"digests\": \"%s\", \"raw\": {",
                 n, harness::inputsDigest(a, b, c).c_str(),
                 harness::chunkDigests(outputs).c_str());
    const char *sep = "";
    std::set<uint64_t> keep = extraChunks[kase.name];
    for (uint64_t chunk : harness::rawChunks(kase.exhaustive))
      keep.insert(chunk);
    for (uint64_t chunk : keep) {
      uint64_t from = chunk * harness::kRecordChunk;
      if (from >= n)
        continue;
      std::fprintf(
          out, "%s\"%" PRIu64 "\": \"%s\"", sep, chunk,
          harness::valuesHex(outputs, from, harness::kRecordChunk, 8).c_str());
      sep = ", ";
    }
    std::fprintf(out, "}");
    if (full || harness::isApprox(kase.name)) {
      bool low = std::all_of(outputs.begin(), outputs.end(),
                             [](uint64_t v) { return (v >> 32) == 0; });
      int width = low ? 4 : 8;
      std::fprintf(out, ", \"width\": %d, \"outputs\": \"%s\"", width,
                   harness::valuesHex(outputs, 0, n, width).c_str());
    }
    std::fprintf(out, "}\n");
    ++recorded;
  }
  std::fclose(out);
  std::printf("device: %s; recorded %d cases into %s, %d failed\n", devName,
              recorded, outPath.c_str(), failed);
  return failed ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1 && std::string(argv[1]) == "--record")
    return record(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SWEEP_DIR OURS_DIR [RANDOM]\n", argv[0]);
    return 2;
  }
  std::string sweeps = argv[1], ours = argv[2];
  // RANDOM: random tuples after the edge-value grid (the issue asks for at
  // least 2^24 a family).
  size_t random =
      argc > 3 ? std::strtoull(argv[3], nullptr, 0) : (size_t(1) << 24);
  // Whole blocks of 256: a thread that exits early never arrives at the
  // block barriers of the warp/block families (a named barrier with a
  // thread count would wait for it forever; 16,972,328 inputs hung there).
  size_t n = (harness::gridSize() + random + 255) / 256 * 256;

  CHECK(cuInit(0));
  CUdevice dev;
  CHECK(cuDeviceGet(&dev, 0));
  char devName[256];
  CHECK(cuDeviceGetName(devName, sizeof devName, dev));
  CUcontext ctx;
  CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK(cuCtxSetCurrent(ctx));

  size_t slots = chunkInputs;
  CUdeviceptr dA, dB, dC, dOut, dOut2, dCount, dFirst;
  CHECK(cuMemAlloc(&dA, slots * 4));
  CHECK(cuMemAlloc(&dB, slots * 4));
  CHECK(cuMemAlloc(&dC, slots * 4));
  CHECK(cuMemAlloc(&dOut, slots * 8));
  CHECK(cuMemAlloc(&dOut2, slots * 8));
  CHECK(cuMemAlloc(&dCount, 8));
  CHECK(cuMemAlloc(&dFirst, 8));
  CHECK_RT(
      cudaMemcpyToSymbol(deviceEdges, harness::kEdges, sizeof harness::kEdges));

  // The on-GPU comparison finds a difference planted at index 5.
  {
    unsigned long long zero = 0, none = ~0ull, found = 0, at = 0, one = 1;
    CHECK(cuMemsetD8(dOut, 0, 1024 * 8));
    CHECK(cuMemsetD8(dOut2, 0, 1024 * 8));
    CHECK(cuMemcpyHtoD(dOut2 + 5 * 8, &one, 8));
    CHECK(cuMemcpyHtoD(dCount, &zero, 8));
    CHECK(cuMemcpyHtoD(dFirst, &none, 8));
    countDifferences<<<4, 256>>>(
        reinterpret_cast<unsigned long long *>(dOut),
        reinterpret_cast<unsigned long long *>(dOut2), 1024,
        reinterpret_cast<unsigned long long *>(dCount),
        reinterpret_cast<unsigned long long *>(dFirst));
    CHECK_RT(cudaGetLastError());
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(&found, dCount, 8));
    CHECK(cuMemcpyDtoH(&at, dFirst, 8));
    if (found != 1 || at != 5) {
      std::fprintf(stderr, "self-check: the GPU comparison is broken\n");
      return 2;
    }
  }

  // Loads a module; "" or the reason it failed.
  auto load = [](const std::string &path, CUfunction &fn,
                 CUmodule &mod) -> std::string {
    std::string text = readFile(path);
    if (text.empty())
      return "cannot read " + path;
    CUresult lr = cuModuleLoadData(&mod, text.c_str());
    if (lr != CUDA_SUCCESS) {
      const char *s = nullptr;
      cuGetErrorString(lr, &s);
      return std::string("cuModuleLoadData(") + path + "): " + (s ? s : "?");
    }
    CHECK(cuModuleGetFunction(&fn, mod, "k"));
    return "";
  };
  // Runs `fn` over `count` inputs into `out`, poisoned first.
  unsigned sharedBytes = 0; // the case's dynamic shared memory
  auto launch = [&](CUfunction fn, CUdeviceptr out, size_t count) {
    CHECK(cuMemsetD8(out, 0xAB, count * 8));
    unsigned c32 = static_cast<unsigned>(count);
    void *args[] = {&out, &dA, &dB, &dC, &c32};
    CHECK(cuLaunchKernel(fn, static_cast<unsigned>((count + 255) / 256), 1, 1,
                         256, 1, 1, sharedBytes, nullptr, args, nullptr));
    CHECK(cuCtxSynchronize());
  };

  std::vector<Result> results;
  std::ifstream manifest(sweeps + "/manifest");
  for (const harness::Case &kase : harness::readManifest(manifest)) {
    Result r;
    r.name = kase.name;
    sharedBytes = kase.sharedBytes;
    r.suite = kase.suite + (kase.exhaustive ? " (all 2^32)" : "");
    CUmodule modOrig = nullptr, modOurs = nullptr;
    CUfunction fnOrig, fnOurs;
    r.error = load(sweeps + "/" + kase.name + ".ptx", fnOrig, modOrig);
    if (r.error.empty())
      r.error = load(ours + "/" + kase.name + ".ptx", fnOurs, modOurs);
    // Chunk by chunk: the inputs made on the GPU, both builds run, the
    // outputs compared there. Exhaustive: all 2^32 values of a (b = c = 0).
    uint64_t seed = harness::seedOf(kase.name);
    uint64_t total = kase.exhaustive ? uint64_t(1) << 32 : n;
    for (auto [base, size] :
         r.error.empty() ? harness::chunks(total, chunkInputs)
                         : std::vector<std::pair<uint64_t, uint64_t>>{}) {
      uint32_t count = static_cast<uint32_t>(size);
      unsigned blocks = (count + 255) / 256;
      fillInputs<<<blocks, 256>>>(
          reinterpret_cast<uint32_t *>(dA), reinterpret_cast<uint32_t *>(dB),
          reinterpret_cast<uint32_t *>(dC), kase.exhaustive, seed, base, count);
      CHECK_RT(cudaGetLastError());
      launch(fnOrig, dOut, size);
      launch(fnOurs, dOut2, size);
      unsigned long long zero = 0, none = ~0ull, found = 0, at = 0;
      CHECK(cuMemcpyHtoD(dCount, &zero, 8));
      CHECK(cuMemcpyHtoD(dFirst, &none, 8));
      countDifferences<<<blocks, 256>>>(
          reinterpret_cast<unsigned long long *>(dOut),
          reinterpret_cast<unsigned long long *>(dOut2), count,
          reinterpret_cast<unsigned long long *>(dCount),
          reinterpret_cast<unsigned long long *>(dFirst));
      CHECK_RT(cudaGetLastError());
      CHECK(cuCtxSynchronize());
      CHECK(cuMemcpyDtoH(&found, dCount, 8));
      r.inputs += size;
      if (!found)
        continue;
      if (!r.mismatches) {
        CHECK(cuMemcpyDtoH(&at, dFirst, 8));
        uint64_t nv = 0, us = 0;
        CHECK(cuMemcpyDtoH(&nv, dOut + at * 8, 8));
        CHECK(cuMemcpyDtoH(&us, dOut2 + at * 8, 8));
        harness::Inputs v =
            kase.exhaustive
                ? harness::Inputs{static_cast<uint32_t>(base + at), 0, 0}
                : harness::inputAt(harness::kEdges, harness::kEdgeCount, seed,
                                   base + at);
        r.first = harness::describe(v.a, v.b, v.c, nv, us);
      }
      r.mismatches += found;
    }
    if (modOrig)
      CHECK(cuModuleUnload(modOrig));
    if (modOurs)
      CHECK(cuModuleUnload(modOurs));
    results.push_back(r);
  }

  size_t totalInputs = 0, totalMismatches = 0, failedCases = 0;
  std::printf("device: %s\n", devName);
  std::printf("%-26s %-28s %12s %10s  %s\n", "suite", "family", "inputs",
              "mismatches", "first mismatch / error");
  struct Suite {
    size_t families = 0, inputs = 0, mismatches = 0;
  };
  std::map<std::string, Suite> suites;
  for (const Result &r : results) {
    totalInputs += r.inputs;
    totalMismatches += r.mismatches;
    if (!r.error.empty() || r.mismatches)
      ++failedCases;
    Suite &s = suites[r.suite];
    ++s.families;
    s.inputs += r.inputs;
    s.mismatches += r.mismatches + (r.error.empty() ? 0 : 1);
    std::printf("%-26s %-28s %12zu %10zu  %s\n", r.suite.c_str(),
                r.name.c_str(), r.inputs, r.mismatches,
                r.error.empty() ? r.first.c_str() : r.error.c_str());
  }
  for (const auto &[name, s] : suites)
    std::printf("suite %-26s %4zu families %16zu inputs %10zu mismatches\n",
                name.c_str(), s.families, s.inputs, s.mismatches);
  std::printf("total: %zu families, %zu inputs compared, %zu mismatches, %zu "
              "families failing\n",
              results.size(), totalInputs, totalMismatches, failedCases);
  return failedCases ? 1 : 0;
}
