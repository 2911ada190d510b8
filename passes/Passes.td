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

#endif // ZLUDA_PASSES_PASSES_TD
