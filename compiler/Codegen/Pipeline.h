//===- Pipeline.h - The optimizer's pipeline for AMDGPU ---------*- C++ -*-===//
//
// The LLVM optimization pipeline run on each AMDGPU partition: LLVM's O3
// pruned for PTX that NVVM has already optimized (docs/benchmarks.md).
//
//===----------------------------------------------------------------------===//
#ifndef ZLUDA_COMPILER_CODEGEN_PIPELINE_H
#define ZLUDA_COMPILER_CODEGEN_PIPELINE_H

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace zluda::codegen {

/// The AMDGPU pipeline in LLVM's textual pass-pipeline syntax (as `opt
/// -passes=`).
const std::string &amdgpuPipeline();

/// Runs the optimizer on `module`: amdgpuPipeline() for AMDGPU, LLVM's O3
/// for NVPTX (the differential oracle compares NVIDIA's build with an O3
/// build). LLVM's standard instrumentation applies (-time-passes and the
/// other options given with --mllvm).
void optimize(llvm::TargetMachine &tm, llvm::Module &module, bool amdgpu);

} // namespace zluda::codegen

#endif // ZLUDA_COMPILER_CODEGEN_PIPELINE_H
