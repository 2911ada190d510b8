//===- Codegen.h - ptx dialect to AMDGPU code objects ------------*- C++
//-*-===//
//
// Lowers a verified `ptx` module for one AMDGPU processor: the ptx-to-LLVM
// conversion, translation to LLVM IR, the ROCm device libraries (ocml, ockl)
// with the `__oclc_*` control constants synthesized here, O3, the AMDGPU
// backend and the in-process lld link into an HSA code object.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_CODEGEN_CODEGEN_H
#define ZLUDA_COMPILER_CODEGEN_CODEGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace zluda::codegen {

enum class Emit { LLVM, Asm, Obj, HSACO };

struct Options {
  /// `amdgpu`, or `nvptx` (the verification target: Asm is PTX).
  std::string target = "amdgpu";
  std::string chip = "gfx1100";
  /// 4, 5 or 6; 0: 5, or 6 for a generic processor (which needs 6).
  unsigned codeObjectVersion = 0;
  std::string deviceLibDir = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
  /// Like `make -k`: report each unsupported op, drop the kernels that hold
  /// (or call a function holding) one, and compile the rest.
  bool keepGoing = false;
  /// The modules of `linkWith` are parts of one program (a device-linked
  /// -rdc image): all of them is linked in, kernels included, instead of
  /// only what this module uses.
  bool linkWhole = false;
  /// wave64 processors: PTX warps a wave, 2 (both halves) or 1 (the upper
  /// half idle; the launch has twice the threads in x). Ignored on wave32.
  unsigned warpsPerWave = 2;
  /// Threads for code generation (0: all cores). A module with several
  /// kernels is split into partitions (how many depends on the module
  /// only, so the output bytes do not depend on this) that are
  /// code-generated in parallel and linked into one code object.
  unsigned jobs = 0;
  /// If set, receives (phase, seconds) for each phase of the compilation.
  std::vector<std::pair<std::string, double>> *phaseTimes = nullptr;
};

/// The code object version for `chip`: `requested`, or when it is 0 the
/// default (5, and 6 for the generic processors, which need it).
unsigned codeObjectVersionFor(llvm::StringRef chip, unsigned requested);

/// The most partitions a module is split into for code generation.
constexpr unsigned maxPartitions = 8;

struct Artifact {
  std::string bytes;
  /// With keepGoing: the kernels left out, in module order.
  std::vector<std::string> removedKernels;
};

/// A clang offload bundle holding one code object per processor, entries
/// `hipv4-amdgcn-amd-amdhsa--<gfx>` (and clang's empty host entry), each
/// aligned to 4096 bytes: what hipModuleLoadData accepts for several GPUs.
std::string makeOffloadBundle(
    const std::vector<std::pair<std::string, std::string>> &codeObjects);

/// Compiles a clone of `module` (left unchanged) and returns the artifact.
/// `linkWith`: other modules (of the same context) that define functions and
/// variables `module` declares `.extern` — relocatable device code, like
/// nvcc's -rdc or a library's module set. Only what `module` uses is linked
/// in (their kernels are not); a declaration that none defines is an error.
/// Diagnostics of the lowering go to the context's handler.
llvm::Expected<Artifact> compile(mlir::ModuleOp module, const Options &opts,
                                 Emit emit,
                                 llvm::ArrayRef<mlir::ModuleOp> linkWith = {});
/// The same, consuming `module`: no copy is made, and its memory is
/// released as soon as the LLVM IR exists (what `build` does, one processor
/// a parse).
llvm::Expected<Artifact> compile(mlir::OwningOpRef<mlir::ModuleOp> module,
                                 const Options &opts, Emit emit,
                                 llvm::ArrayRef<mlir::ModuleOp> linkWith = {});

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_CODEGEN_H
