//===- RunCommand.cpp - `zluda-precompile run` ----------------------------===//

#include "RunCommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <unistd.h>

using namespace zluda::driver;

int zluda::driver::runWithShim(const RunOptions &opts, const char *argv0) {
  std::string shimDir = opts.shimDir;
  if (shimDir.empty()) {
    static int anchor;
    std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "lib", "zluda-shim");
    shimDir = std::string(dir);
  }
  llvm::SmallString<256> shim(shimDir);
  llvm::sys::path::append(shim, "libcuda.so.1");
  if (!llvm::sys::fs::exists(shim)) {
    fmt::print(stderr, "zluda-precompile: error: no runtime shim at {}\n",
               std::string(shim));
    return 1;
  }
  llvm::SmallString<256> cache(opts.cacheDir);
  llvm::sys::fs::make_absolute(cache);
  if (!llvm::sys::fs::is_directory(cache)) {
    fmt::print(stderr, "zluda-precompile: error: no cache at {}\n",
               std::string(cache));
    return 1;
  }
  llvm::SmallString<256> realShimDir;
  if (llvm::sys::fs::real_path(shimDir, realShimDir))
    realShimDir = shimDir;
  const char *old = std::getenv("LD_LIBRARY_PATH");
  std::string path = std::string(realShimDir) +
                     (old && *old ? ":" + std::string(old) : std::string());
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
  setenv("ZLUDA_SHIM_CACHE", std::string(cache).c_str(), 1);
  if (opts.strict)
    setenv("ZLUDA_SHIM_STRICT", "1", 1);
  // The application may change directory: absolute paths.
  auto setPath = [](const char *name, const std::string &value) {
    if (value.empty())
      return;
    llvm::SmallString<256> path(value);
    llvm::sys::fs::make_absolute(path);
    setenv(name, std::string(path).c_str(), 1);
  };
  setPath("ZLUDA_SHIM_LOG", opts.logPath);
  setPath("ZLUDA_SHIM_COMPARE", opts.comparePath);
  if (!opts.backend.empty())
    setenv("ZLUDA_SHIM_BACKEND", opts.backend.c_str(), 1);

  std::vector<char *> args;
  for (const std::string &a : opts.command)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  execvp(args[0], args.data());
  fmt::print(stderr, "zluda-precompile: error: cannot run {}: {}\n",
             opts.command[0], std::strerror(errno));
  return 127;
}
