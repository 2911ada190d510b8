//===- BuildCommand.h - `build`: whole applications into a cache -*- C++
//-*-===//

#ifndef ZLUDA_DRIVER_BUILDCOMMAND_H
#define ZLUDA_DRIVER_BUILDCOMMAND_H

#include <string>
#include <vector>

namespace zluda::driver {

struct BuildOptions {
  std::vector<std::string> paths;
  std::string archs; ///< comma-separated processors
  std::string cacheDir;
  std::string target = "amdgpu";
  unsigned codeObject = 0; ///< 0: the default for each processor
  unsigned jobs = 0;       ///< 0: all cores
  bool failFast = false;
  std::string jsonPath;   ///< summary and per-module results, if set
  std::string reportPath; ///< the HTML compatibility report, if set
};

/// `zluda-precompile build`: compiles every selected PTX module of the
/// inputs once per processor into the cache. Returns the exit code: 0 when
/// every kernel compiled, 1 otherwise (or on errors).
int runBuild(const BuildOptions &opts);

/// `zluda-precompile cache verify DIR`: reads every entry and checks it
/// (checksum, key); with `removeCorrupt`, deletes the bad ones. Exit code 1
/// if any was corrupt.
int runCacheVerify(const std::string &dir, bool removeCorrupt);

/// `zluda-precompile cache list DIR`: one line per entry.
int runCacheList(const std::string &dir);

/// `zluda-precompile cache prune DIR`: removes the entries no key of this
/// compiler can reach (other compiler versions), the corrupt ones and left-
/// over temporary files.
int runCachePrune(const std::string &dir);

} // namespace zluda::driver

#endif // ZLUDA_DRIVER_BUILDCOMMAND_H
