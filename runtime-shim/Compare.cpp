//===- Compare.cpp - Launch-by-launch comparison (cuda backend) -----------===//

#include "runtime-shim/Compare.h"

#include "runtime-shim/RealDriver.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <regex>
#include <type_traits>

#include <unistd.h>

using namespace zluda::shim;

namespace {

Compare *instance = nullptr;
thread_local const void *originalImage = nullptr;
thread_local const std::string *originalPtx = nullptr, *originalSha = nullptr;

/// Copies above this many bytes a launch are not compared (the launch runs
/// once, ours).
constexpr size_t kMaxCompared = size_t(1) << 30;
/// Launches of one kernel compared (ZLUDA_SHIM_COMPARE_PER_KERNEL, default
/// 16); the later ones run once, ours.
unsigned maxLaunchesPerKernel() {
  static const unsigned n = [] {
    uint64_t x = envNumber("ZLUDA_SHIM_COMPARE_PER_KERNEL", 16);
    return x ? unsigned(x) : 16u;
  }();
  return n;
}

/// Timed runs of each build a timed launch (ZLUDA_SHIM_COMPARE_TIME, default
/// 0: no timing).
unsigned timedRuns() {
  static const unsigned n = unsigned(envNumber("ZLUDA_SHIM_COMPARE_TIME", 0));
  return n;
}
/// Launches of one kernel timed (ZLUDA_SHIM_COMPARE_TIME_PER_KERNEL, default
/// 4).
unsigned timedLaunchesPerKernel() {
  static const unsigned n = [] {
    uint64_t x = envNumber("ZLUDA_SHIM_COMPARE_TIME_PER_KERNEL", 4);
    return x ? unsigned(x) : 4u;
  }();
  return n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string microseconds(double us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f us", us);
  return buf;
}

// The wrappers installed in RealDriver: each calls the driver's own entry
// point (Compare::original) and tells the instance what it needs to know.

CUresult wrapModuleLoadData(CUmodule *m, const void *image) {
  return instance->loadModule(m, image);
}

CUresult wrapLibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo,
                             void **jv, unsigned nj, CUlibraryOption *lo,
                             void **lv, unsigned nl) {
  return instance->loadLibrary(l, code, jo, jv, nj, lo, lv, nl);
}

CUresult wrapModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  CUresult r = instance->original->cuModuleGetFunction(f, m, name);
  if (r == CUDA_SUCCESS)
    instance->noteFunction(*f, m, name);
  return r;
}

CUresult wrapLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name) {
  CUresult r = instance->original->cuLibraryGetKernel(k, l, name);
  if (r == CUDA_SUCCESS)
    instance->noteFunction(*k, l, name);
  return r;
}

CUresult wrapKernelGetFunction(CUfunction *f, CUkernel k) {
  CUresult r = instance->original->cuKernelGetFunction(f, k);
  if (r == CUDA_SUCCESS)
    instance->noteAlias(*f, k);
  return r;
}

// Attributes set on our function (the maximum dynamic shared memory, for
// one) are set on NVIDIA's too.
CUresult wrapFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
  CUresult r = instance->original->cuFuncSetAttribute(f, a, v);
  if (r == CUDA_SUCCESS)
    instance->mirrorAttribute(f, a, v);
  return r;
}

CUresult wrapKernelSetAttribute(CUfunction_attribute a, int v, CUkernel k,
                                CUdevice d) {
  CUresult r = instance->original->cuKernelSetAttribute(a, v, k, d);
  if (r == CUDA_SUCCESS)
    instance->mirrorAttribute(k, a, v);
  return r;
}

/// The wrapper of a launch entry point `Field` of RealDriver: the same
/// arguments, with the function to run chosen by Compare::launch.
template <auto Field, typename Signature> struct LaunchWrapper;
// cuLaunchKernel, cuLaunchCooperativeKernel (and _ptsz): the function first.
template <auto Field, typename... Rest>
struct LaunchWrapper<Field, CUresult (*)(CUfunction, Rest...)> {
  static CUresult call(CUfunction f, Rest... rest) {
    return instance->launch(f, shapeOf(rest...), [&](CUfunction g) {
      return (instance->original->*Field)(g, rest...);
    });
  }
};
// cuLaunchKernelEx (and _ptsz): the configuration first.
template <auto Field, typename... Rest>
struct LaunchWrapper<Field, CUresult (*)(const CUlaunchConfig *, CUfunction,
                                         Rest...)> {
  static CUresult call(const CUlaunchConfig *c, CUfunction f, Rest... rest) {
    return instance->launch(f, shapeOf(c, rest...), [&](CUfunction g) {
      return (instance->original->*Field)(c, g, rest...);
    });
  }
};

/// Puts `wrapper` in the driver's `slot` (when the driver has the entry
/// point).
template <typename Fn> void replace(Fn &slot, Fn wrapper) {
  if (slot)
    slot = wrapper;
}

/// Installs the wrapper of `field` (when the driver has the entry point).
template <auto Field> void wrapLaunch(RealDriver &real) {
  if (real.*Field)
    real.*Field =
        LaunchWrapper<Field,
                      std::remove_reference_t<decltype(real.*Field)>>::call;
}

std::string hex(size_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%zx", v);
  return buf;
}

} // namespace

Difference
zluda::shim::firstDifference(const std::vector<std::vector<uint8_t>> &expected,
                             const std::vector<std::vector<uint8_t>> &actual) {
  Difference d;
  for (size_t r = 0; r < expected.size() && r < actual.size(); ++r) {
    const auto &e = expected[r], &a = actual[r];
    size_t n = std::min(e.size(), a.size());
    if (n && std::memcmp(e.data(), a.data(), n) == 0 && e.size() == a.size())
      continue;
    for (size_t i = 0; i < n; ++i)
      if (e[i] != a[i]) {
        d.same = false;
        d.region = r;
        d.offset = i;
        d.expected = e[i];
        d.actual = a[i];
        return d;
      }
    if (e.size() != a.size()) {
      d.same = false;
      d.region = r;
      d.offset = n;
      return d;
    }
  }
  return d;
}

std::vector<std::string> zluda::shim::ptxGlobalNames(const std::string &ptx) {
  // Module-scope declarations: `[.visible|.weak|.extern] .global|.const
  // [.align N] .type name[...]` at the start of a line.
  static const std::regex decl(
      R"(^[ \t]*(?:\.(?:visible|weak|extern)[ \t]+)?\.(?:global|const)[ \t]+)"
      R"((?:\.align[ \t]+\d+[ \t]+)?(?:\.v\d[ \t]+)?\.\w+[ \t]+([A-Za-z_$%][\w$]*))",
      std::regex::multiline);
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), decl);
       it != std::sregex_iterator(); ++it)
    names.push_back((*it)[1]);
  return names;
}

Compare::OriginalScope::OriginalScope(const void *image, const std::string &ptx,
                                      const std::string &ptxSha256) {
  originalImage = image;
  originalPtx = &ptx;
  originalSha = &ptxSha256;
}
Compare::OriginalScope::~OriginalScope() {
  originalImage = nullptr;
  originalPtx = originalSha = nullptr;
}

Compare *Compare::active() { return instance; }

Compare *Compare::install(RealDriver &real, const std::string &logPath,
                          const std::string &recordDir) {
  if (instance)
    return instance;
  // What the comparison itself calls.
  if (!real.cuModuleLoadData || !real.cuLibraryLoadData ||
      !real.cuModuleGetFunction || !real.cuLibraryGetKernel ||
      !real.cuKernelGetFunction || !real.cuModuleGetGlobal_v2 ||
      !real.cuLibraryGetGlobal || !real.cuCtxSynchronize ||
      !real.cuMemcpyDtoH_v2 || !real.cuMemcpyHtoD_v2)
    return nullptr;
  FILE *f = std::fopen(logPath.c_str(), "ae");
  if (!f)
    return nullptr;
  setvbuf(f, nullptr, _IOLBF, 0);
  instance = new Compare(real, f); // lives as long as the process
  if (!recordDir.empty()) {
    std::string error;
    instance->recorder = Recorder::open(recordDir, error);
    instance->log(instance->recorder
                      ? "record: launches sampled into " + recordDir
                      : "no recording: " + error);
  }
  return instance;
}

Compare::Compare(RealDriver &driver, FILE *file)
    : real(driver), original(new RealDriver(driver)), logFile(file) {
  replace(real.cuModuleLoadData, wrapModuleLoadData);
  replace(real.cuLibraryLoadData, wrapLibraryLoadData);
  replace(real.cuModuleGetFunction, wrapModuleGetFunction);
  replace(real.cuLibraryGetKernel, wrapLibraryGetKernel);
  replace(real.cuKernelGetFunction, wrapKernelGetFunction);
  replace(real.cuFuncSetAttribute, wrapFuncSetAttribute);
  replace(real.cuKernelSetAttribute, wrapKernelSetAttribute);
  wrapLaunch<&RealDriver::cuLaunchKernel>(real);
  wrapLaunch<&RealDriver::cuLaunchKernel_ptsz>(real);
  wrapLaunch<&RealDriver::cuLaunchCooperativeKernel>(real);
  wrapLaunch<&RealDriver::cuLaunchCooperativeKernel_ptsz>(real);
  wrapLaunch<&RealDriver::cuLaunchKernelEx>(real);
  wrapLaunch<&RealDriver::cuLaunchKernelEx_ptsz>(real);
  log("compare: each launch of a served kernel runs NVIDIA's build of the "
      "original image, then ours, on the same memory");
}

void Compare::log(const std::string &line) {
  std::fprintf(logFile, "zluda-compare[%d]: %s\n", int(getpid()), line.c_str());
}

CUresult Compare::loadModule(CUmodule *m, const void *object) {
  const void *image = originalImage;
  CUresult r = original->cuModuleLoadData(m, object);
  if (r != CUDA_SUCCESS || !image)
    return r;
  CUmodule theirs = nullptr;
  CUresult o = original->cuModuleLoadData(&theirs, image);
  std::lock_guard<std::mutex> lock(mutex);
  if (o != CUDA_SUCCESS) {
    log("module: NVIDIA's build of the original image failed to load "
        "(error " +
        std::to_string(o) + "); its launches run once");
    return r;
  }
  Pair &p = pairs[*m];
  p.original = theirs;
  p.library = false;
  p.globals = ptxGlobalNames(static_cast<const char *>(object));
  rememberPtx(p);
  return r;
}

CUresult Compare::loadLibrary(CUlibrary *l, const void *object,
                              CUjit_option *jo, void **jv, unsigned nj,
                              CUlibraryOption *lo, void **lv, unsigned nl) {
  const void *image = originalImage;
  CUresult r = original->cuLibraryLoadData(l, object, jo, jv, nj, lo, lv, nl);
  if (r != CUDA_SUCCESS || !image)
    return r;
  CUlibrary theirs = nullptr;
  CUresult o =
      original->cuLibraryLoadData(&theirs, image, jo, jv, nj, lo, lv, nl);
  std::lock_guard<std::mutex> lock(mutex);
  if (o != CUDA_SUCCESS) {
    log("library: NVIDIA's build of the original image failed to load "
        "(error " +
        std::to_string(o) + "); its launches run once");
    return r;
  }
  Pair &p = pairs[*l];
  p.original = theirs;
  p.library = true;
  p.globals = ptxGlobalNames(static_cast<const char *>(object));
  rememberPtx(p);
  return r;
}

void Compare::noteFunction(void *ours, void *container, const char *name) {
  std::lock_guard<std::mutex> lock(mutex);
  if (pairs.count(container))
    functions[ours] = {container, name ? name : "", nullptr};
}

void Compare::noteAlias(void *ours, void *sameAs) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = functions.find(sameAs);
  if (it != functions.end())
    functions[ours] = it->second;
}

void Compare::mirrorAttribute(void *ours, CUfunction_attribute a, int v) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = functions.find(ours);
  if (it == functions.end())
    return;
  CUfunction theirs = originalOf(it->second);
  if (!theirs)
    return;
  CUresult r;
  if (pairs[it->second.container].library) {
    CUdevice dev = 0;
    if (original->cuCtxGetDevice)
      original->cuCtxGetDevice(&dev);
    r = original->cuKernelSetAttribute(a, v, reinterpret_cast<CUkernel>(theirs),
                                       dev);
  } else {
    r = original->cuFuncSetAttribute(theirs, a, v);
  }
  if (r != CUDA_SUCCESS)
    log("attribute " + std::to_string(a) + " of " + it->second.name +
        ": NVIDIA's build refused it (error " + std::to_string(r) + ")");
}

void Compare::allocated(CUdeviceptr base, size_t bytes, bool host) {
  std::lock_guard<std::mutex> lock(mutex);
  regions[base] = {bytes, host};
}

void Compare::freed(CUdeviceptr base) {
  std::lock_guard<std::mutex> lock(mutex);
  regions.erase(base);
}

CUfunction Compare::originalOf(Function &fn) {
  if (fn.original)
    return fn.original;
  const Pair &p = pairs[fn.container];
  if (p.library) {
    CUkernel k = nullptr;
    if (original->cuLibraryGetKernel(&k, static_cast<CUlibrary>(p.original),
                                     fn.name.c_str()) == CUDA_SUCCESS)
      fn.original = reinterpret_cast<CUfunction>(k);
  } else {
    CUfunction f = nullptr;
    if (original->cuModuleGetFunction(&f, static_cast<CUmodule>(p.original),
                                      fn.name.c_str()) == CUDA_SUCCESS)
      fn.original = f;
  }
  return fn.original;
}

const Compare::Pair &Compare::resolveGlobals(void *container) {
  Pair &p = pairs[container];
  if (p.resolved)
    return p;
  auto lookup = [&](void *where, const std::string &name) {
    CUdeviceptr ptr = 0;
    size_t bytes = 0;
    CUresult r =
        p.library
            ? original->cuLibraryGetGlobal(
                  &ptr, &bytes, static_cast<CUlibrary>(where), name.c_str())
            : original->cuModuleGetGlobal_v2(
                  &ptr, &bytes, static_cast<CUmodule>(where), name.c_str());
    // A name the driver does not find (e.g. optimized away) counts as an
    // empty region, so both lists keep the same order.
    return r == CUDA_SUCCESS ? std::make_pair(ptr, bytes)
                             : std::make_pair(CUdeviceptr(0), size_t(0));
  };
  for (const std::string &name : p.globals) {
    auto ours = lookup(container, name), theirs = lookup(p.original, name);
    if (ours.second != theirs.second)
      ours.second = theirs.second = 0; // sizes differ: left out
    p.ourGlobals.push_back(ours);
    p.theirGlobals.push_back(theirs);
  }
  p.resolved = true;
  return p;
}

bool Compare::snapshot(const Regions &list,
                       std::vector<std::vector<uint8_t>> &out) {
  out.assign(list.size(), {});
  for (size_t i = 0; i < list.size(); ++i) {
    auto [ptr, bytes] = list[i];
    out[i].resize(bytes);
    if (!bytes)
      continue;
    auto it = regions.find(ptr);
    if (it != regions.end() && it->second.host) {
      std::memcpy(out[i].data(), reinterpret_cast<void *>(ptr), bytes);
    } else if (original->cuMemcpyDtoH_v2(out[i].data(), ptr, bytes) !=
               CUDA_SUCCESS) {
      return false;
    }
  }
  return true;
}

bool Compare::restore(const Regions &list,
                      const std::vector<std::vector<uint8_t>> &from) {
  for (size_t i = 0; i < list.size() && i < from.size(); ++i) {
    auto [ptr, bytes] = list[i];
    size_t n = std::min(bytes, from[i].size());
    if (!n)
      continue;
    auto it = regions.find(ptr);
    if (it != regions.end() && it->second.host) {
      std::memcpy(reinterpret_cast<void *>(ptr), from[i].data(), n);
    } else if (original->cuMemcpyHtoD_v2(ptr, from[i].data(), n) !=
               CUDA_SUCCESS) {
      return false;
    }
  }
  return true;
}

void Compare::rememberPtx(Pair &p) {
  if (recorder && originalPtx && originalSha) {
    p.ptx = *originalPtx;
    p.ptxSha256 = *originalSha;
  }
}

bool Compare::paramLayout(const Function &fn, CUfunction theirs,
                          std::vector<std::pair<size_t, size_t>> &layout) {
  bool library = pairs[fn.container].library;
  if (library ? !original->cuKernelGetParamInfo : !original->cuFuncGetParamInfo)
    return false;
  // The driver answers CUDA_ERROR_INVALID_VALUE past the last parameter.
  for (size_t i = 0; i < 4096; ++i) {
    size_t offset = 0, size = 0;
    CUresult r =
        library ? original->cuKernelGetParamInfo(
                      reinterpret_cast<CUkernel>(theirs), i, &offset, &size)
                : original->cuFuncGetParamInfo(theirs, i, &offset, &size);
    if (r != CUDA_SUCCESS)
      return true;
    layout.emplace_back(offset, size);
  }
  return false;
}

void Compare::record(unsigned number, Function &fn, const LaunchShape &shape,
                     CUfunction theirs, const Regions &orig, size_t total,
                     const std::vector<std::vector<uint8_t>> &before,
                     const std::vector<std::vector<uint8_t>> &expected,
                     CUresult (*run)(void *, CUfunction), void *ctx) {
  const Pair &pair = pairs[fn.container];
  std::string why = recorder->refusal(pair.ptxSha256 + ":" + fn.name, shape,
                                      total, !pair.ptxSha256.empty());
  std::vector<std::pair<size_t, size_t>> layout;
  std::vector<uint8_t> params;
  if (why.empty() && !paramLayout(fn, theirs, layout))
    why = "the driver does not give the parameters' layout";
  if (why.empty() && !gatherParams(shape, layout, params))
    why = "the launch's parameters cannot be read (an `extra` list without "
          "a buffer)";
  if (!why.empty()) {
    recorder->skipped(number, fn.name, shape, why);
    return;
  }
  // NVIDIA's build once more, from the same memory: do its runs agree?
  std::vector<std::vector<uint8_t>> again;
  bool deterministic =
      restore(orig, before) && run(ctx, theirs) == CUDA_SUCCESS &&
      original->cuCtxSynchronize() == CUDA_SUCCESS && snapshot(orig, again) &&
      firstDifference(expected, again).same;
  std::vector<RecordedRegion> list;
  size_t allocations = orig.size() - pair.globals.size();
  for (size_t i = 0; i < orig.size(); ++i) {
    RecordedRegion g;
    g.bytes = orig[i].second;
    if (i < allocations) {
      g.addr = orig[i].first;
      auto it = regions.find(g.addr);
      g.host = it != regions.end() && it->second.host;
    } else {
      g.global = pair.globals[i - allocations];
    }
    list.push_back(g);
  }
  recorder->module(pair.ptxSha256, pair.ptx);
  recorder->launch(number, fn.name, pair.ptxSha256, shape, params, layout, list,
                   before, expected, deterministic);
}

CUresult Compare::runCompared(CUfunction f, Function &fn,
                              const LaunchShape &shape,
                              CUresult (*run)(void *, CUfunction), void *ctx) {
  unsigned n = ++launches;
  std::string head = "launch " + std::to_string(n) + " " + fn.name + ": ";
  if (++fn.compared > maxLaunchesPerKernel()) {
    ++skipped; // quietly: a loop of many launches of one kernel
    return run(ctx, f);
  }
  CUfunction theirs = originalOf(fn);
  auto once = [&](const std::string &why) {
    log(head + why + "; ours ran once");
    return run(ctx, f);
  };
  if (!theirs) {
    ++errors;
    return once("NVIDIA's build has no such kernel");
  }
  // The regions: every allocation, then the module's globals (ours, or the
  // original module's at the same positions).
  Regions ours, orig;
  size_t total = 0;
  for (const auto &[base, region] : regions) {
    ours.emplace_back(base, region.bytes);
    total += region.bytes;
  }
  orig = ours;
  const Pair &pair = resolveGlobals(fn.container);
  ours.insert(ours.end(), pair.ourGlobals.begin(), pair.ourGlobals.end());
  orig.insert(orig.end(), pair.theirGlobals.begin(), pair.theirGlobals.end());
  if (total > kMaxCompared) {
    ++skipped;
    return once("skipped (" + std::to_string(total >> 20) +
                " MiB of allocations)");
  }
  std::vector<std::vector<uint8_t>> before, expected, actual;
  if (original->cuCtxSynchronize() != CUDA_SUCCESS || !snapshot(ours, before) ||
      !restore(orig, before)) {
    ++errors;
    return once("cannot save memory");
  }
  CUresult r = run(ctx, theirs);
  if (r == CUDA_SUCCESS)
    r = original->cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    ++errors;
    restore(ours, before);
    return once("NVIDIA's build failed (error " + std::to_string(r) + ")");
  }
  snapshot(orig, expected);
  if (recorder)
    record(n, fn, shape, theirs, orig, total, before, expected, run, ctx);
  restore(ours, before);
  r = run(ctx, f);
  if (r == CUDA_SUCCESS)
    r = original->cuCtxSynchronize();
  if (r != CUDA_SUCCESS) {
    ++errors;
    log(head + "ours failed (error " + std::to_string(r) + ")");
    return r;
  }
  snapshot(ours, actual);
  Difference d = firstDifference(expected, actual);
  std::string sizes = std::to_string(ours.size()) + " regions, " +
                      std::to_string(total) + " bytes of allocations";
  if (d.same) {
    ++same;
    std::string timing;
    if (timedRuns() && fn.timed < timedLaunchesPerKernel() &&
        !timeLaunch(fn, shape, f, theirs, ours, orig, before, actual, run, ctx,
                    timing))
      timing = "; not timed: " + timing;
    log(head + "same (" + sizes + ")" + timing);
    return CUDA_SUCCESS;
  }
  // Does NVIDIA's build agree with itself?
  std::vector<std::vector<uint8_t>> again;
  restore(orig, before);
  bool rerun = run(ctx, theirs) == CUDA_SUCCESS &&
               original->cuCtxSynchronize() == CUDA_SUCCESS &&
               snapshot(orig, again);
  restore(ours, actual);
  auto word = [&](const std::vector<std::vector<uint8_t>> &from) {
    uint32_t w = 0;
    size_t at = d.offset & ~size_t(3);
    const std::vector<uint8_t> &bytes = from[d.region];
    std::memcpy(&w, bytes.data() + at, std::min<size_t>(4, bytes.size() - at));
    return hex(w);
  };
  std::string where = "region " + std::to_string(d.region) + " (" +
                      std::to_string(ours[d.region].second) + " bytes) byte " +
                      hex(d.offset) + ": nvidia " + hex(d.expected) +
                      ", ours " + hex(d.actual) + "; 32-bit word nvidia " +
                      word(expected) + ", ours " + word(actual);
  if (rerun && !firstDifference(expected, again).same) {
    ++nondeterministic;
    log(head + "nondeterministic (NVIDIA's own runs differ; first difference " +
        where + ")");
  } else {
    ++mismatches;
    log(head + "MISMATCH at " + where + " (" + sizes + ")");
  }
  return CUDA_SUCCESS;
}

bool Compare::timeLaunch(Function &fn, const LaunchShape &shape, CUfunction f,
                         CUfunction theirs, const Regions &ourRegions,
                         const Regions &theirRegions,
                         const std::vector<std::vector<uint8_t>> &before,
                         const std::vector<std::vector<uint8_t>> &after,
                         CUresult (*run)(void *, CUfunction), void *ctx,
                         std::string &line) {
  auto elapsed = original->cuEventElapsedTime_v2
                     ? original->cuEventElapsedTime_v2
                     : original->cuEventElapsedTime;
  if (!original->cuEventCreate || !original->cuEventRecord ||
      !original->cuEventSynchronize || !elapsed ||
      !original->cuEventDestroy_v2) {
    line = "the driver has no events";
    return false;
  }
  CUevent start = nullptr, stop = nullptr;
  if (original->cuEventCreate(&start, 0) != CUDA_SUCCESS ||
      original->cuEventCreate(&stop, 0) != CUDA_SUCCESS) {
    if (start)
      original->cuEventDestroy_v2(start);
    line = "cannot create events";
    return false;
  }
  // One run of `g` from `before` (in `regions`), in microseconds; < 0 on
  // failure.
  auto once = [&](CUfunction g, const Regions &regions) {
    float ms = 0;
    bool ok = restore(regions, before) &&
              original->cuCtxSynchronize() == CUDA_SUCCESS &&
              original->cuEventRecord(start, shape.stream) == CUDA_SUCCESS &&
              run(ctx, g) == CUDA_SUCCESS &&
              original->cuEventRecord(stop, shape.stream) == CUDA_SUCCESS &&
              original->cuEventSynchronize(stop) == CUDA_SUCCESS &&
              elapsed(&ms, start, stop) == CUDA_SUCCESS;
    return ok ? 1000.0 * ms : -1.0;
  };
  std::vector<double> nvidia, mine;
  bool ok = true;
  for (unsigned i = 0; ok && i < timedRuns(); ++i) {
    double a = once(theirs, theirRegions), b = once(f, ourRegions);
    ok = a >= 0 && b >= 0;
    nvidia.push_back(a);
    mine.push_back(b);
  }
  original->cuEventDestroy_v2(start);
  original->cuEventDestroy_v2(stop);
  // The application goes on with our build's results.
  ok = restore(ourRegions, after) && ok;
  if (!ok) {
    line = "a timed run failed";
    return false;
  }
  double a = median(nvidia), b = median(mine);
  if (!fn.timed++)
    timedKernels.push_back(&fn);
  fn.nvidiaUs += a;
  fn.oursUs += b;
  line = "; time nvidia " + microseconds(a) + ", ours " + microseconds(b) +
         " (medians of " + std::to_string(timedRuns()) + ")";
  return true;
}

void Compare::finish() {
  std::lock_guard<std::mutex> lock(mutex);
  if (finished)
    return;
  finished = true;
  log("compare summary: " + std::to_string(launches) + " launches, " +
      std::to_string(same) + " same, " + std::to_string(mismatches) +
      " mismatches, " + std::to_string(nondeterministic) +
      " nondeterministic, " + std::to_string(skipped) + " skipped, " +
      std::to_string(errors) + " errors");
  // Per kernel: NVIDIA's time / ours over its timed launches (> 1: ours is
  // faster), and their geometric mean.
  double logSum = 0;
  for (const Function *fn : timedKernels) {
    double speed = fn->oursUs > 0 ? fn->nvidiaUs / fn->oursUs : 1.0;
    logSum += std::log(speed);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", speed);
    log("kernel time " + fn->name + ": " + std::to_string(fn->timed) +
        " launches, nvidia " + microseconds(fn->nvidiaUs) + ", ours " +
        microseconds(fn->oursUs) + ", speed " + buf);
  }
  if (!timedKernels.empty()) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f",
                  std::exp(logSum / double(timedKernels.size())));
    log("time summary: " + std::to_string(timedKernels.size()) +
        " kernels, speed (nvidia time / ours) geometric mean " + buf);
  }
}
