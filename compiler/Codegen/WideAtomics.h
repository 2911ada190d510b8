//===- WideAtomics.h - 128-bit atomics on AMDGPU ----------------*- C++ -*-===//

#ifndef ZLUDA_COMPILER_CODEGEN_WIDEATOMICS_H
#define ZLUDA_COMPILER_CODEGEN_WIDEATOMICS_H

namespace llvm {
class Module;
} // namespace llvm

namespace zluda::codegen {

/// AMDGPU has no 128-bit atomics: replaces each 128-bit `cmpxchg` and
/// `atomicrmw xchg` (the lowering of PTX's `atom.cas/exch.b128`) with a call
/// to a helper that performs it under a lock (the lowering accepts no other
/// 128-bit atomic). `waveSize`: the wave's lanes (32, or 64 on CDNA), which
/// take turns.
void expandWideAtomics(llvm::Module &m, unsigned waveSize);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_WIDEATOMICS_H
