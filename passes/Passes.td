//===- Passes.td - Passes over the ptx dialect -------------*- tablegen -*-===//

#ifndef ZLUDA_PASSES_PASSES_TD
#define ZLUDA_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def PTXInstructionStats : Pass<"ptx-instruction-stats", "mlir::ModuleOp"> {
  let summary = "Count kernels, functions and instructions per opcode";
  let description = [{
    Prints a table of the module's kernels, functions and instruction ops per
    PTX mnemonic, sorted by mnemonic, then the totals. The IR is unchanged.

    ```
    zluda-opt --ptx-instruction-stats=output=- in.mlir
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"\"",
           "File to write the table to ('-' for stdout; stderr when empty)">,
  ];
}

def ConvertPTXToLLVM : Pass<"convert-ptx-to-llvm", "mlir::ModuleOp"> {
  let summary = "Lower the ptx dialect to the LLVM dialect for AMDGPU";
  let description = [{
    Lowers kernels, functions, variables and the supported instruction
    families to the LLVM and ROCDL dialects, with PTX semantics exact
    (docs/lowering.md). Instructions not supported yet are reported as
    `unsupported: <instruction>` errors with their location and kernel.

    ```
    zluda-opt --convert-ptx-to-llvm=chip=gfx1100 k.mlir
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"amdgpu\"",
           "amdgpu, or nvptx (the verification target)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"gfx1100\"",
           "AMDGPU target ID (RDNA wave32, CDNA wave64) or sm_XY">,
    Option<"warpsPerWave", "warps-per-wave", "unsigned", /*default=*/"2",
           "wave64 processors: PTX warps a wave (2: both halves; 1: the "
           "upper half idle, launched with twice the threads in x)">,
  ];
  let dependentDialects = ["mlir::LLVM::LLVMDialect", "mlir::ROCDL::ROCDLDialect",
                           "mlir::NVVM::NVVMDialect"];
}

#endif // ZLUDA_PASSES_PASSES_TD
