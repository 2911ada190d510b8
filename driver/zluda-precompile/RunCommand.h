//===- RunCommand.h - `zluda-precompile run` --------------------*- C++ -*-===//

#ifndef ZLUDA_DRIVER_RUNCOMMAND_H
#define ZLUDA_DRIVER_RUNCOMMAND_H

#include <string>
#include <vector>

namespace zluda::driver {

struct RunOptions {
  std::string cacheDir;
  bool strict = false;
  std::string logPath;
  std::string comparePath; ///< ZLUDA_SHIM_COMPARE (cuda backend)
  std::string backend;     ///< cuda, hip, or "" (detect)
  std::string shimDir;     ///< default: ../lib/zluda-shim beside the executable
  std::vector<std::string> command;
};

/// Runs `command` with the runtime shim in front of the driver library:
/// LD_LIBRARY_PATH starts with the shim's directory, ZLUDA_SHIM_* set from
/// the options. Returns only on failure: 1, or 127 (like env) when the
/// command cannot be run.
int runWithShim(const RunOptions &opts, const char *argv0);

} // namespace zluda::driver

#endif // ZLUDA_DRIVER_RUNCOMMAND_H
