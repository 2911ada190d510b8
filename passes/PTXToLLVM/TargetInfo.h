//===- TargetInfo.h - Hardware-specific choices of the lowering -*- C++ -*-===//
//
// The lowering of the `ptx` dialect is target-independent wherever PTX
// semantics allow; every hardware-specific choice (address spaces, special
// registers, barriers, warp shuffles and votes, atomics' sync scopes, wave
// size, kernel attributes) sits behind this one seam: the lowering asks it,
// never the target's name. AMDGPU implements it, and NVPTX for the
// verification oracle.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_PASSES_PTXTOLLVM_TARGETINFO_H
#define ZLUDA_PASSES_PTXTOLLVM_TARGETINFO_H

#include "passes/PTXToLLVM/FloatOp.h"

#include "dialects/ptx/PTXDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <string>

namespace zluda::ptx {

class TargetInfo {
public:
  virtual ~TargetInfo();

  virtual llvm::StringRef getTriple() const = 0;
  virtual llvm::StringRef getDataLayout() const = 0;
  /// The processor (`gfx1100`) or SM (`sm_90`).
  virtual llvm::StringRef getChip() const = 0;
  /// The LLVM address space of a PTX state space.
  virtual unsigned getAddressSpace(StateSpace space) const = 0;
  /// How a kernel receives a `.param`: a pointer to it, in this address
  /// space, marked byval (true: the parameter is copied into the callee, as
  /// NVPTX's .param space is) or byref (false: AMDGPU's kernarg segment).
  virtual bool kernelParamsByValue() const = 0;
  virtual unsigned kernelParamAddressSpace() const = 0;
  /// Threads in a warp as the hardware runs them (PTX's is always 32).
  virtual unsigned getWaveSize() const = 0;
  /// Where allocas live (the data layout's A): AMDGPU 5 (private); NVPTX 0,
  /// whose backend lowers generic allocas to .local itself and miscompiles
  /// addrspace(5) ones (LLVM 22 stores through the generic %SP).
  virtual unsigned getAllocaAddressSpace() const = 0;

  /// Reads a special register; null when the target has no such register
  /// (the caller reports it).
  virtual mlir::Value getSpecialRegister(mlir::OpBuilder &b, mlir::Location loc,
                                         SReg reg, char dim,
                                         mlir::Type type) const = 0;
  /// The thread's index in its CTA, x fastest (tid.x + ntid.x * (tid.y +
  /// ntid.y * tid.z)), from getSpecialRegister.
  mlir::Value linearThreadIndex(mlir::OpBuilder &b, mlir::Location loc) const;
  /// `bar.sync id` for the whole CTA, with CTA-scope memory ordering.
  /// `%envreg<index>` (32 bits): values the driver sets up for the kernel;
  /// null where the target has none (the caller reports it).
  virtual mlir::Value readEnvironmentRegister(mlir::OpBuilder &b,
                                              mlir::Location loc,
                                              int64_t index) const {
    return {};
  }
  /// Whether `%envreg<index>` has a value here (readEnvironmentRegister is
  /// not null for it).
  virtual bool hasEnvironmentRegister(int64_t index) const = 0;
  /// Whether the target runs the families the parser keeps in NVIDIA's own
  /// spelling (textures, matrix instructions, barrier objects, bulk copies:
  /// the `native` attribute) as written, through inline PTX.
  virtual bool lowersNativeInstructions() const { return false; }
  /// A 64-bit count of the processor's clock cycles (%clock64).
  virtual mlir::Value readCycleCounter(mlir::OpBuilder &b,
                                       mlir::Location loc) const = 0;
  /// A 64-bit count of nanoseconds, constant-rate and device-wide
  /// (%globaltimer).
  virtual mlir::Value readGlobalTimer(mlir::OpBuilder &b,
                                      mlir::Location loc) const = 0;
  /// A call to one of the CUDA runtime's device functions (malloc, free,
  /// vprintf, __assertfail) with its C arguments: true after emitting the
  /// target's own implementation (`result` set unless void); false to keep
  /// the call (NVPTX, where the driver links them).
  virtual bool lowerRuntimeCall(mlir::OpBuilder &b, mlir::Location loc,
                                llvm::StringRef callee, mlir::ValueRange args,
                                mlir::Value &result) const = 0;
  virtual void createBarrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// `bar.warp.sync membermask`: the lanes of `memberMask` (i32) converge,
  /// with warp-scope ordering.
  virtual void createWarpBarrier(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value memberMask) const = 0;
  /// Reads `value` (32 bits) from lane `srcLane` of the warp; the lanes of
  /// `memberMask` take part.
  virtual mlir::Value createShuffle(mlir::OpBuilder &b, mlir::Location loc,
                                    mlir::Value value, mlir::Value srcLane,
                                    mlir::Value memberMask) const = 0;
  /// A shuffle whose source lane is the same function of the lane in every
  /// warp: lane j = ((i & andMask) | orMask) ^ xorMask (5-bit masks, i the
  /// lane in the warp), as the target's own permute of fixed pattern; null
  /// to use createShuffle.
  virtual mlir::Value createFixedShuffle(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value value, unsigned andMask,
                                         unsigned orMask,
                                         unsigned xorMask) const {
    return {};
  }
  /// The mask of the lanes of `memberMask` (32 bits) for which `pred`
  /// holds.
  virtual mlir::Value createBallot(mlir::OpBuilder &b, mlir::Location loc,
                                   mlir::Value pred,
                                   mlir::Value memberMask) const = 0;
  /// `isspacep.{global,shared,local,param}`: whether the generic pointer
  /// `ptr` points into `space` (i1); for `.param`, the kernel's parameters.
  virtual mlir::Value createIsSpace(mlir::OpBuilder &b, mlir::Location loc,
                                    StateSpace space,
                                    mlir::Value ptr) const = 0;
  /// The mask of the warp's active lanes.
  virtual mlir::Value createActiveMask(mlir::OpBuilder &b,
                                       mlir::Location loc) const = 0;
  /// `nanosleep`: a short pause (PTX allows anything in [0, 2t]).
  virtual void createSleep(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// cp.async: `size` bytes (4, 8 or 16) from global `src` to shared `dst`,
  /// those from `srcSize` on (when not null) zero; `cacheGlobal` is `.cg`
  /// (L2 only). True when the target copies asynchronously itself (its
  /// commit and wait forms are then createAsyncCopyCommit/Wait); false, the
  /// default: the caller copies synchronously and the groups are nothing.
  virtual bool createAsyncCopy(mlir::OpBuilder &b, mlir::Location loc,
                               mlir::Value dst, mlir::Value src, int64_t size,
                               mlir::Value srcSize, bool cacheGlobal) const {
    return false;
  }
  /// cp.async.commit_group.
  virtual void createAsyncCopyCommit(mlir::OpBuilder &b,
                                     mlir::Location loc) const {}
  /// cp.async.wait_group `pending` (wait_all: commit, then 0).
  virtual void createAsyncCopyWait(mlir::OpBuilder &b, mlir::Location loc,
                                   int64_t pending) const {}
  /// `griddepcontrol.wait` (`wait`) or `.launch_dependents`: programmatic
  /// dependent launch.
  virtual void createGridDependencyControl(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           bool wait) const = 0;
  /// `exit`: ends the thread, from a kernel or a function.
  virtual void createExit(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// An f32 `.approx` operation (`sin cos ex2 lg2 rsqrt tanh`, `sqrt.approx`,
  /// `div.approx`, `rcp.approx`, f64 `rcp.approx.ftz`) as the target's own fast
  /// instruction, on operands already flushed when `.ftz`; null to use the
  /// generic lowering (accurate library or native math, within the PTX ISA's
  /// bounds).
  virtual mlir::Value createApproxMath(mlir::OpBuilder &b, mlir::Location loc,
                                       FloatOp op,
                                       mlir::ValueRange operands) const {
    return {};
  }
  /// `cvt.rna.tf32.f32` or `cvt.rn.tf32.f32` (`rounding`) of the f32 `x` as
  /// the target's own instruction: the rounded bits as an i32; null for the
  /// shared lowering's integer rounding (AMDGPU).
  virtual mlir::Value createTf32Conversion(mlir::OpBuilder &b,
                                           mlir::Location loc, mlir::Value x,
                                           RoundingMode rounding) const {
    return {};
  }
  /// `fence.proxy.<kind>[.<space>]` (`instruction`, as spelled) as the
  /// target's own instruction: NVIDIA's async proxy (bulk copies, wgmma's
  /// operands) is another path to memory that an ordinary fence does not
  /// order. False: the target has no such proxy and an ordinary fence
  /// suffices (AMDGPU, whose lowering makes every access an ordinary one).
  virtual bool createProxyFence(mlir::OpBuilder &b, mlir::Location loc,
                                llvm::StringRef instruction) const {
    return false;
  }
  /// `div.full.f32` (a full-range approximation, at most 2 ulps from the
  /// quotient) as the target's own instruction, on operands already flushed
  /// when `.ftz`; null to divide exactly (within the bound; AMDGPU).
  virtual mlir::Value createFullRangeDivision(mlir::OpBuilder &b,
                                              mlir::Location loc, mlir::Value a,
                                              mlir::Value d) const {
    return {};
  }
  /// `add/sub/mul{.ftz}.f32|.f64` without a rounding modifier, which the PTX
  /// ISA lets the code generator fuse into an fma: the target's own
  /// instruction, left to its assembler to fuse as it does the original's
  /// (`a`, `c` unflushed); null for LLVM arithmetic with the `contract` flag.
  virtual mlir::Value createContractible(mlir::OpBuilder &b, mlir::Location loc,
                                         FloatOp op, bool ftz, mlir::Value a,
                                         mlir::Value c) const {
    return {};
  }
  /// An atomic read-modify-write of `value` at `ptr` with PTX's `ordering`
  /// and `scope`, as the target's own instruction where its LLVM backend
  /// would lose them; false to use LLVM's atomicrmw. `ptxOp` is the
  /// operation and type as PTX spells them (`add.u32`, `add.noftz.f16`);
  /// with `returnsOld` (atom, not red) `old` receives the old value.
  virtual bool createAtomicRMW(mlir::OpBuilder &b, mlir::Location loc,
                               llvm::StringRef ptxOp, mlir::Value ptr,
                               mlir::Value value,
                               mlir::LLVM::AtomicOrdering ordering,
                               MemScope scope, bool returnsOld,
                               mlir::Value &old) const {
    return false;
  }
  /// Whether LLVM's `fma` on bf16 is one rounding here (an instruction of
  /// the target's); when not, the shared lowering rounds it once itself.
  virtual bool hasBf16Fma() const { return false; }
  /// Whether LLVM's `atomicrmw fadd` of an f32 has PTX's semantics here:
  /// subnormal operands (the memory's and the register's) and results
  /// flushed to sign-preserving zero. When not, the shared lowering makes a
  /// compare-and-swap loop that flushes.
  virtual bool atomicAddF32FlushesSubnormals() const { return false; }
  /// The LLVM sync scope of a PTX memory scope.
  virtual llvm::StringRef getSyncScope(MemScope scope) const = 0;
  /// Once the module is lowered (`kernels`: its entries): what the target's
  /// lowering left to do module-wide.
  virtual void finishModule(mlir::ModuleOp module,
                            llvm::ArrayRef<llvm::StringRef> kernels) const {}
  /// Marks `func` as a kernel and maps the performance directives.
  virtual void setKernelAttributes(mlir::LLVM::LLVMFuncOp func,
                                   mlir::Operation *entry) const = 0;
};

/// A call of the module's internal function `name`(ptr) -> i1, declared on
/// first use; the lowering gives it its body once the module is lowered
/// (the address tests of `isspacep.const/.param`).
mlir::Value callAddressTest(mlir::OpBuilder &b, mlir::Location loc,
                            llvm::StringRef name, mlir::Value ptr);

/// An AMDGPU target ID as LLVM and the HSA runtime spell it: the processor
/// and, where it has them, its `sramecc` and `xnack` settings, each `+`,
/// `-` or left out (either: the code object runs in both modes).
struct AMDGPUTargetId {
  std::string processor;
  /// In LLVM's canonical order: `gfx942:sramecc+:xnack-`.
  std::string canonical;
  /// For the target machine: `+sramecc,-xnack` (empty for neither).
  std::string features;
  /// 32 (RDNA) or 64 (CDNA, where a PTX warp is half a wave).
  unsigned waveSize = 32;
};

/// Parses `id` (features in any order); nothing, with `error` set, for an
/// unknown or unsupported processor, an unknown feature, one the processor
/// does not have, or one given twice.
std::optional<AMDGPUTargetId> parseAMDGPUTargetId(llvm::StringRef id,
                                                  std::string &error);

/// AMDGPU: RDNA (gfx10.3, gfx11, gfx12; wave32) and CDNA (gfx90a, gfx942,
/// gfx950, gfx9-4-generic; wave64), `chip` a target ID; null with `error`
/// set for anything else. `warpsPerWave` (wave64 only): 2, a PTX warp in
/// each half of a wave; 1, one warp a wave, the upper half idle: the kernel
/// is launched with twice the threads in x (docs/lowering.md, Warps).
std::unique_ptr<TargetInfo> createAMDGPUTargetInfo(llvm::StringRef chip,
                                                   std::string &error,
                                                   unsigned warpsPerWave = 2);
/// NVPTX (`sm_70` and up): the verification target, run against NVIDIA's
/// own compilation of the same PTX.
std::unique_ptr<TargetInfo> createNVPTXTargetInfo(llvm::StringRef chip,
                                                  std::string &error);
/// By target name (`amdgpu`, `nvptx`).
std::unique_ptr<TargetInfo> createTargetInfo(llvm::StringRef target,
                                             llvm::StringRef chip,
                                             std::string &error,
                                             unsigned warpsPerWave = 2);

} // namespace zluda::ptx

#endif // ZLUDA_PASSES_PTXTOLLVM_TARGETINFO_H
