//===- TargetFeatures.h - What each instruction needs of .target -*- C++
//-*-===//
//
// The processor a PTX module names in `.target` bounds what it may use:
// ptxas (CUDA 13) refuses `min.relu.s32` for sm_80 ("Feature 'min.relu'
// requires .target sm_90 or higher"). The parser checks every instruction
// and special register against this table, each entry measured against
// ptxas at its lowest target and the one below (test/Frontend/errors/
// target-features.ptx).
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_FRONTEND_TARGETFEATURES_H
#define ZLUDA_COMPILER_FRONTEND_TARGETFEATURES_H

#include "dialects/ptx/PTXDialect.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace zluda::frontend {

/// A module's processor as `.target` names it: sm_XY or compute_XY, with
/// the `a` (architecture-specific) or `f` (family) suffix of sm_90 on.
struct SmTarget {
  unsigned sm = 0;
  bool archSpecific = false;
  bool family = false;

  /// The processor `name` names, if it is one (not a target option).
  static std::optional<SmTarget> parse(llvm::StringRef name);
  /// As written: `sm_90a`.
  std::string str() const;
  /// The first PTX ISA version with this processor, as major * 10 + minor
  /// (sm_80: 70); none for a processor ptxas does not know (sm_99, sm_90f).
  std::optional<unsigned> minPtxVersion() const;
};

/// What an instruction or special register needs of the target.
struct TargetNeed {
  /// What it is, as the message names it: `min.relu`, `.cluster scope`.
  std::string feature;
  unsigned sm = 0;
  /// Only the architecture-specific targets (sm_90a) have it.
  bool archSpecific = false;

  bool metBy(const SmTarget &target) const {
    return target.sm >= sm && (!archSpecific || target.archSpecific);
  }
  /// `sm_90 or higher`, `sm_90a`.
  std::string required() const;
};

/// What instruction `mnemonic` (the longest known prefix, `cp.async.bulk`)
/// with modifiers `mods` and `numOperands` operands needs; empty when every
/// target has it.
llvm::SmallVector<TargetNeed, 2> instructionNeeds(llvm::StringRef mnemonic,
                                                  ptx::ModifiersAttr mods,
                                                  unsigned numOperands);

/// What reading special register `reg` needs.
std::optional<TargetNeed> specialRegisterNeed(ptx::SReg reg);

/// The lowest of `mods`' flags in the group `mask` (an `fl::` mask).
std::optional<ptx::Flag> firstFlag(ptx::ModifiersAttr mods, uint64_t mask);

/// What a value of type `type` needs (.b128: sm_70).
std::optional<TargetNeed> typeNeed(ptx::TypeKind type);

} // namespace zluda::frontend

#endif // ZLUDA_COMPILER_FRONTEND_TARGETFEATURES_H
