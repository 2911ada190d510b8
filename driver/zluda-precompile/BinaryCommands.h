//===- BinaryCommands.h - `list` and `extract` ------------------*- C++ -*-===//

#ifndef ZLUDA_DRIVER_BINARYCOMMANDS_H
#define ZLUDA_DRIVER_BINARYCOMMANDS_H

#include <string>
#include <vector>

namespace zluda::driver {

struct ListOptions {
  std::vector<std::string> paths;
  bool json = false;
  bool summary = false;
};
/// `zluda-precompile list`: returns the exit code.
int runList(const ListOptions &opts);

struct ExtractOptions {
  std::vector<std::string> paths;
  std::string outputDir;
  /// Write payloads as stored: ZSTD frames (`.ptx.zst`), LZ4 blocks
  /// (`.ptx.lz4block`) or plain PTX.
  bool raw = false;
  /// Only the PTX entry the selection policy picks in each container.
  bool selectedOnly = false;
};
/// `zluda-precompile extract`: returns the exit code.
int runExtract(const ExtractOptions &opts);

} // namespace zluda::driver

#endif // ZLUDA_DRIVER_BINARYCOMMANDS_H
