//===- PTXDialect.td - The ptx dialect ---------------------*- tablegen -*-===//
//
// The `ptx` dialect models PTX (NVIDIA's virtual ISA, up to ISA 9.0) exactly:
// every type, state space and instruction modifier survives parsing as a typed
// attribute, so that later lowerings can implement PTX semantics precisely.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_DIALECTS_PTX_PTXDIALECT_TD
#define ZLUDA_DIALECTS_PTX_PTXDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def PTX_Dialect : Dialect {
  let name = "ptx";
  let cppNamespace = "::zluda::ptx";
  let summary = "NVIDIA PTX (parallel thread execution) virtual ISA";
  let description = [{
    The `ptx` dialect is the front end's output and the lowering's input. Its
    canonical form is SSA: PTX virtual registers are promoted while parsing,
    predicated instructions become explicit control flow, and every modifier of
    an instruction is kept in a typed `#ptx.mods` attribute.

    ```mlir
    ptx.entry @scale(%p: !ptx.ptr<param>) {
      %0 = ptx.ld <param.u64> %p : (!ptx.ptr<param>) -> i64
      %1 = ptx.sreg <tid.x> : i32
      ptx.ret <> : () -> ()
    }
    ```
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Spec of each instruction op, by PTX mnemonic (`add`, `cp.async`).
    llvm::StringMap<InstSpec> instSpecs;
    void registerAttributes();
    void registerTypes();
  }];
}

class PTX_Op<string mnemonic, list<Trait> traits = []>
    : Op<PTX_Dialect, mnemonic, traits>;
class PTX_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<PTX_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}
class PTX_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<PTX_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // ZLUDA_DIALECTS_PTX_PTXDIALECT_TD
