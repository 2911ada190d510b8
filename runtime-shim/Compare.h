//===- Compare.h - Launch-by-launch comparison (cuda backend) ---*- C++ -*-===//
//
// ZLUDA_SHIM_COMPARE=FILE (the `cuda` backend, on NVIDIA): every module the
// shim serves is loaded a second time from the application's original image,
// and each launch of a served kernel runs twice on the same memory — first
// NVIDIA's compilation of the original, then the cache's NVPTX build — with
// every device and pinned host allocation the application made (and the
// module's globals) saved before, compared after, bit for bit. A difference
// is checked against a second run of NVIDIA's build: if NVIDIA's own runs
// differ (float atomics, clocks, device malloc) the launch is
// nondeterministic, otherwise a mismatch. The application continues with
// our build's results. One line per launch and a summary go to FILE.
// With ZLUDA_SHIM_RECORD=DIR, a bounded sample of those launches is also
// written out for replay on another implementation (Record.h). With
// ZLUDA_SHIM_COMPARE_TIME=N, the first launches of each kernel that compared
// the same are also timed: N runs of each build (alternating, warm, from the
// same memory, events on the launch's stream), the medians logged, and per
// kernel in the summary.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_COMPARE_H
#define ZLUDA_RUNTIME_SHIM_COMPARE_H

#include "runtime-shim/CudaApi.h"
#include "runtime-shim/Record.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace zluda::shim {

struct RealDriver;

/// The outcome of comparing two snapshots of the same allocations.
struct Difference {
  bool same = true;
  size_t region = 0, offset = 0; ///< the first differing byte
  uint8_t expected = 0, actual = 0;
};

/// Compares `expected` with `actual` region by region (same sizes).
Difference firstDifference(const std::vector<std::vector<uint8_t>> &expected,
                           const std::vector<std::vector<uint8_t>> &actual);

/// The names of a PTX module's `.global` and `.const` variables.
std::vector<std::string> ptxGlobalNames(const std::string &ptx);

class Compare {
public:
  /// Installs itself between the shim and `real` (its launch, function and
  /// load entry points); null if `logPath` cannot be opened. A non-empty
  /// `recordDir` also records launches there (Record.h).
  static Compare *install(RealDriver &real, const std::string &logPath,
                          const std::string &recordDir = "");
  /// The instance, once installed (null otherwise).
  static Compare *active();

  /// The application's image of the module the backend is loading now, on
  /// this thread (set by the shim around a served load), with the PTX the
  /// build selected from it and its SHA-256 (empty for a linked image).
  struct OriginalScope {
    OriginalScope(const void *image, const std::string &ptx,
                  const std::string &ptxSha256);
    ~OriginalScope();
  };

  /// Allocation tracking (the exported cuMem* entry points call these).
  void allocated(CUdeviceptr base, size_t bytes, bool host);
  void freed(CUdeviceptr base);
  /// Writes the summary.
  void finish();

  // The wrappers installed in RealDriver.
  CUresult loadModule(CUmodule *m, const void *object);
  CUresult loadLibrary(CUlibrary *l, const void *object, CUjit_option *jo,
                       void **jv, unsigned nj, CUlibraryOption *lo, void **lv,
                       unsigned nl);
  void noteFunction(void *ours, void *container, const char *name);
  void noteAlias(void *ours, void *sameAs);
  /// Sets on NVIDIA's function what the application set on ours.
  void mirrorAttribute(void *ours, CUfunction_attribute a, int v);
  template <typename Launch>
  CUresult launch(CUfunction f, const LaunchShape &shape, Launch run);

  RealDriver &real;
  /// The driver's own entry points the wrappers replaced.
  RealDriver *original;

private:
  Compare(RealDriver &real, FILE *log);
  using Regions = std::vector<std::pair<CUdeviceptr, size_t>>;
  struct Pair {
    void *original = nullptr; ///< CUmodule or CUlibrary
    bool library = false;
    std::vector<std::string> globals;
    /// The globals' addresses in our module and in the original, looked up
    /// at the first compared launch (same order; sizes that differ: 0).
    Regions ourGlobals, theirGlobals;
    bool resolved = false;
    /// When recording: the module's PTX and its hash.
    std::string ptx, ptxSha256;
  };
  struct Function {
    void *container = nullptr; ///< ours
    std::string name;
    CUfunction original = nullptr;
    unsigned compared = 0; ///< launches so far
    /// Timed launches (ZLUDA_SHIM_COMPARE_TIME) and their medians' sums.
    unsigned timed = 0;
    double nvidiaUs = 0, oursUs = 0;
  };
  struct Region {
    size_t bytes = 0;
    bool host = false;
  };
  CUresult runCompared(CUfunction f, Function &fn, const LaunchShape &shape,
                       CUresult (*run)(void *, CUfunction), void *ctx);
  /// Records the launch whose memory before and NVIDIA's results after are
  /// given (runs NVIDIA's build once more to tell whether it is
  /// deterministic; leaves the memory as NVIDIA's run left it).
  void record(unsigned number, Function &fn, const LaunchShape &shape,
              CUfunction theirs, const Regions &orig, size_t total,
              const std::vector<std::vector<uint8_t>> &before,
              const std::vector<std::vector<uint8_t>> &expected,
              CUresult (*run)(void *, CUfunction), void *ctx);
  /// Times the launch, both builds warm from the comparison, each run from
  /// `before` and measured by events on the launch's stream; leaves the
  /// memory as `after` (our results). False if a run or an event failed.
  bool timeLaunch(Function &fn, const LaunchShape &shape, CUfunction ours,
                  CUfunction theirs, const Regions &ourRegions,
                  const Regions &theirRegions,
                  const std::vector<std::vector<uint8_t>> &before,
                  const std::vector<std::vector<uint8_t>> &after,
                  CUresult (*run)(void *, CUfunction), void *ctx,
                  std::string &line);
  /// Keeps the PTX of the module being loaded (when recording).
  void rememberPtx(Pair &p);
  /// Offsets and sizes of the parameters of NVIDIA's function.
  bool paramLayout(const Function &fn, CUfunction theirs,
                   std::vector<std::pair<size_t, size_t>> &layout);
  CUfunction originalOf(Function &fn);
  /// The pair's globals, looked up once.
  const Pair &resolveGlobals(void *container);
  bool snapshot(const Regions &regions, std::vector<std::vector<uint8_t>> &out);
  bool restore(const Regions &regions,
               const std::vector<std::vector<uint8_t>> &from);
  void log(const std::string &line);

  std::mutex mutex;
  FILE *logFile;
  std::unordered_map<void *, Pair> pairs;         ///< our module/library
  std::unordered_map<void *, Function> functions; ///< our function/kernel
  std::map<CUdeviceptr, Region> regions;
  unsigned launches = 0, same = 0, mismatches = 0, nondeterministic = 0,
           errors = 0, skipped = 0;
  /// Kernels in the order of their first timed launch (for the summary).
  std::vector<const Function *> timedKernels;
  bool finished = false;
  std::unique_ptr<Recorder> recorder;
};

template <typename Launch>
CUresult Compare::launch(CUfunction f, const LaunchShape &shape, Launch run) {
  std::unique_lock<std::mutex> lock(mutex);
  auto it = functions.find(f);
  if (it == functions.end()) {
    lock.unlock();
    return run(f);
  }
  return runCompared(
      f, it->second, shape,
      [](void *ctx, CUfunction g) { return (*static_cast<Launch *>(ctx))(g); },
      &run);
}

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_COMPARE_H
