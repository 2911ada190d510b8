//===- BuildResults.h - What `build` records per module and job -*- C++ -*-===//
//
// Internal to compiler/Build: the distinct PTX modules a build found and
// the result of compiling one of them for one processor, shared by the
// build (Build.cpp) and its compatibility report (Report.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_BUILD_BUILDRESULTS_H
#define ZLUDA_COMPILER_BUILD_BUILDRESULTS_H

#include <map>
#include <set>
#include <string>
#include <vector>

namespace zluda::build {

/// One distinct PTX module and where it was seen.
struct Module {
  std::string sha256;
  std::string text;
  std::set<std::string> sources;
  std::vector<std::string> kernels; // as the PTX declares them
  /// Device link (relocatable device code, a library's module set): the
  /// modules of the same binaries that define the functions this one
  /// declares `.extern`, found by name, transitively.
  std::vector<size_t> linkWith;
  /// A device-linked image (-rdc): this module and every one of linkWith
  /// make one program, stored under cache::linkedImageHash (sha256).
  bool linkedImage = false;
  /// Other machine-code-only containers of the same binary: the same
  /// program is stored under their hashes too (one compilation).
  std::vector<std::string> aliases;
};

enum class Status { hit, compiled, partial, failed };

inline const char *statusName(Status s) {
  switch (s) {
  case Status::hit:
    return "hit";
  case Status::compiled:
    return "compiled";
  case Status::partial:
    return "partial";
  case Status::failed:
    return "failed";
  }
  return "?";
}

/// One module for one processor.
struct Job {
  size_t module;
  std::string chip;
  unsigned codeObject = 0; ///< the version compiled for (in the key too)
  /// Code-changing options in the key ("warps-per-wave=1"), "" by default.
  std::string options;
  std::string key;
  Status status = Status::failed;
  std::vector<std::string> compiled, missing;
  /// "instruction" (or a short reason) -> count, from the diagnostics.
  std::map<std::string, unsigned> reasons;
  std::string error; ///< first error, with its location
  /// Per left-out kernel or function: the first unsupported instruction in
  /// it, with its location.
  std::map<std::string, std::string> whyMissing;
  bool cached = false;   ///< the result came from the cache
  bool remote = false;   ///< ... the remote one (copied into the local one)
  bool notFound = false; ///< `cache pull`: in neither cache
  double seconds = 0;
};

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_BUILDRESULTS_H
