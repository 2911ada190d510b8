//===- Build.h - `build`: whole applications into a cache -------*- C++ -*-===//
//
// The build job as a library (the CLI's `build` command calls it, as
// CIRCT's firtool calls lib/Firtool): every PTX module of the inputs, once
// per processor, into a content-addressed cache, with a summary, a JSON
// record and an HTML compatibility report.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_BUILD_BUILD_H
#define ZLUDA_COMPILER_BUILD_BUILD_H

#include <string>
#include <vector>

namespace zluda::build {

struct BuildOptions {
  std::vector<std::string> paths;
  std::string archs; ///< comma-separated processors
  std::string cacheDir;
  std::string target = "amdgpu";
  unsigned codeObject = 0; ///< 0: the default for each processor
  /// wave64 processors: PTX warps a wave (1 or 2; codegen::Options).
  unsigned warpsPerWave = 2;
  unsigned jobs = 0; ///< 0: all cores
  bool failFast = false;
  std::string jsonPath;   ///< summary and per-module results, if set
  std::string reportPath; ///< the HTML compatibility report, if set
};

/// `zluda-precompile build`: compiles every selected PTX module of the
/// inputs once per processor into the cache. Returns the exit code: 0 when
/// every kernel compiled, 1 otherwise (or on errors).
int runBuild(const BuildOptions &opts);

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_BUILD_H
