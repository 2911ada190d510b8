//===- RealDriver.cpp - The driver library behind the shim ----------------===//

#include "runtime-shim/RealDriver.h"

#include <climits>
#include <cstdlib>
#include <fstream>
#include <glob.h>

#include <dlfcn.h>

using namespace zluda::shim;

bool RealDriver::open(const std::string &file, std::string &error) {
  library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    error = why ? why : ("cannot load " + file);
    return false;
  }
  path = file;
#define ZLUDA_SHIM_LOOKUP(name, params, ...)                                   \
  name = reinterpret_cast<CUresult(*) params>(symbol(#name));
  ZLUDA_SHIM_LOADS(ZLUDA_SHIM_LOOKUP)
  ZLUDA_SHIM_LINKS(ZLUDA_SHIM_LOOKUP)
  ZLUDA_SHIM_ROUTED(ZLUDA_SHIM_LOOKUP)
  ZLUDA_SHIM_GUARDED(ZLUDA_SHIM_LOOKUP)
  ZLUDA_SHIM_TRACKED(ZLUDA_SHIM_LOOKUP)
  ZLUDA_SHIM_USED(ZLUDA_SHIM_LOOKUP)
#undef ZLUDA_SHIM_LOOKUP
  return true;
}

void *RealDriver::symbol(const char *name) const {
  return library ? dlsym(library, name) : nullptr;
}

std::string zluda::shim::directoryOf(const std::string &path) {
  char buf[PATH_MAX];
  std::string full = realpath(path.c_str(), buf) ? buf : path;
  size_t slash = full.rfind('/');
  return slash == std::string::npos ? "." : full.substr(0, slash);
}

std::vector<std::string> zluda::shim::driverCandidates(
    std::string_view explicitDriver, std::string_view libraryPath,
    std::string_view ownDir, const std::vector<std::string> &systemDirs) {
  if (!explicitDriver.empty())
    return {std::string(explicitDriver)};
  std::vector<std::string> dirs, out;
  for (size_t pos = 0; pos <= libraryPath.size();) {
    size_t end = libraryPath.find(':', pos);
    if (end == std::string_view::npos)
      end = libraryPath.size();
    if (end > pos)
      dirs.emplace_back(libraryPath.substr(pos, end - pos));
    pos = end + 1;
  }
  dirs.insert(dirs.end(), systemDirs.begin(), systemDirs.end());
  std::vector<std::string> seen;
  for (const std::string &dir : dirs) {
    char buf[PATH_MAX];
    std::string canonical = realpath(dir.c_str(), buf) ? buf : dir;
    if (canonical == ownDir)
      continue;
    bool repeat = false;
    for (const std::string &s : seen)
      repeat |= s == canonical;
    if (repeat)
      continue;
    seen.push_back(canonical);
    out.push_back(dir + "/libcuda.so.1");
  }
  return out;
}

namespace {

void readLdConf(const std::string &file, std::vector<std::string> &dirs,
                unsigned depth) {
  std::ifstream in(file);
  std::string line;
  while (depth < 8 && std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t");
    if (b == std::string::npos)
      continue;
    line = line.substr(b, e - b + 1);
    if (line.rfind("include", 0) == 0) {
      std::string pattern = line.substr(7);
      pattern = pattern.substr(pattern.find_first_not_of(" \t"));
      glob_t g;
      if (glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; ++i)
          readLdConf(g.gl_pathv[i], dirs, depth + 1);
      globfree(&g);
      continue;
    }
    dirs.push_back(line);
  }
}

} // namespace

std::vector<std::string> zluda::shim::systemLibraryDirs() {
  std::vector<std::string> dirs;
  readLdConf("/etc/ld.so.conf", dirs, 0);
  for (const char *d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                        "/lib64", "/usr/lib64", "/lib", "/usr/lib"})
    dirs.push_back(d);
  return dirs;
}
