//===- Record.h - Launches written out for replay elsewhere -----*- C++ -*-===//
//
// ZLUDA_SHIM_RECORD=DIR, with ZLUDA_SHIM_COMPARE (the `cuda` backend, on
// NVIDIA): a bounded sample of the launches the comparison runs is written to
// DIR so that another implementation can replay them and compare with
// NVIDIA's results (test/emu/replay-launches.py runs our AMDGPU build of the
// same PTX in an ISA emulator):
//   DIR/modules/SHA.ptx      the module's PTX as the build selected it
//                            (SHA: its SHA-256, the cache key's PTX hash)
//   DIR/PROGRAM.PID.jsonl    one line per launch: kernel, geometry, dynamic
//                            shared memory, parameter bytes and layout, the
//                            memory regions, whether NVIDIA's build gave the
//                            same bytes twice; or why it was not recorded
//   DIR/PROGRAM.PID.N.bin    every region before the launch, then NVIDIA's
//                            bytes after it of each region that changed
// Bounds (launches of one kernel, bytes of memory, threads) keep the sample
// small enough to replay in an emulator; a launch over them is listed with
// the reason, never dropped silently.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_RECORD_H
#define ZLUDA_RUNTIME_SHIM_RECORD_H

#include "runtime-shim/CudaApi.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace zluda::shim {

/// What a launch entry point was given besides the function.
struct LaunchShape {
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  unsigned shared = 0;
  void **params = nullptr;
  void **extra = nullptr;
  CUstream stream = nullptr;
};

/// The geometry and parameters of each launch entry point's arguments.
LaunchShape shapeOf(unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                    unsigned by, unsigned bz, unsigned shmem, CUstream,
                    void **params, void **extra);
LaunchShape shapeOf(unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                    unsigned by, unsigned bz, unsigned shmem, CUstream,
                    void **params);
LaunchShape shapeOf(const CUlaunchConfig *config, void **params, void **extra);

/// A region of a recorded launch: an allocation (device or pinned host
/// memory) at its address, or a module variable by name.
struct RecordedRegion {
  CUdeviceptr addr = 0;
  size_t bytes = 0;
  bool host = false;
  std::string global; ///< non-empty: a module variable
};

/// The number in environment variable `name` (decimal, 0x hex), or `dflt`
/// when it is unset or not a number.
uint64_t envNumber(const char *name, uint64_t dflt);

/// The limits of the sample, from the environment.
struct RecordLimits {
  unsigned perKernel = 8;               ///< ZLUDA_SHIM_RECORD_PER_KERNEL
  size_t bytes = size_t(8) << 20;       ///< ZLUDA_SHIM_RECORD_MAX_BYTES
  uint64_t threads = uint64_t(1) << 16; ///< ZLUDA_SHIM_RECORD_MAX_THREADS
  static RecordLimits fromEnvironment();
};

class Recorder {
public:
  /// Null with `error` when DIR cannot be made.
  static std::unique_ptr<Recorder> open(const std::string &dir,
                                        std::string &error);

  /// Why a launch is not recorded, or "" to record it (counts it).
  std::string refusal(const std::string &kernelKey, const LaunchShape &shape,
                      size_t bytes, bool hasPTX);
  /// Writes the module's PTX once.
  void module(const std::string &sha256, const std::string &ptx);
  /// Writes one launch.
  void launch(unsigned number, const std::string &kernel,
              const std::string &ptxSha256, const LaunchShape &shape,
              const std::vector<uint8_t> &params,
              const std::vector<std::pair<size_t, size_t>> &layout,
              const std::vector<RecordedRegion> &regions,
              const std::vector<std::vector<uint8_t>> &before,
              const std::vector<std::vector<uint8_t>> &after,
              bool deterministic);
  /// Lists a launch that was not recorded, with the reason.
  void skipped(unsigned number, const std::string &kernel,
               const LaunchShape &shape, const std::string &why);

  ~Recorder();

private:
  Recorder(std::string dir, FILE *index, std::string stem);
  void line(const std::string &json);

  std::string dir, stem;
  FILE *index;
  RecordLimits limits;
  std::set<std::string> modules;
  std::vector<std::pair<std::string, unsigned>> perKernel;
  unsigned files = 0;
};

/// The parameter bytes of a launch: from `extra`'s buffer, or gathered from
/// `params` by `layout` (offset, size of each parameter, from the driver).
bool gatherParams(const LaunchShape &shape,
                  const std::vector<std::pair<size_t, size_t>> &layout,
                  std::vector<uint8_t> &out);

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_RECORD_H
