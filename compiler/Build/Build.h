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

#include "compiler/Cache/Cache.h"

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
  /// `--shard I/N` (1 <= I <= N): only the jobs of shard I, a partition of
  /// the (module x processor) jobs by their cache keys, stable across
  /// machines; N caches filled so merge into the unsharded one.
  unsigned shard = 1, shards = 1;
  /// The shared second level (`--remote`, $ZLUDA_REMOTE_CACHE): looked up
  /// after the local cache, a hit copied into it; what is compiled is
  /// uploaded unless read-only (cache::RemoteCache).
  std::string remoteUrl, remoteToken;
  bool remoteReadOnly = false;
  /// `cache pull`: fetch what the inputs need from the remote, compile
  /// nothing.
  bool pullOnly = false;
};

/// Whether the job with cache key `key` belongs to shard `shard` of
/// `shards` (its key's first 32 bits modulo `shards`, 1-based).
bool inShard(const std::string &key, unsigned shard, unsigned shards);

/// Writes `cache`'s v1/manifest.json from its entries (atomically);
/// false with `error` set on failure.
bool writeManifest(const cache::Cache &cache, std::string &error);

/// `zluda-precompile build`: compiles every selected PTX module of the
/// inputs once per processor into the cache. Returns the exit code: 0 when
/// every kernel compiled, 1 otherwise (or on errors).
int runBuild(const BuildOptions &opts);

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_BUILD_H
