//===- PTXAttrs.td - Attributes and types of the ptx dialect -*- tablegen -*-===//

#ifndef ZLUDA_DIALECTS_PTX_PTXATTRS_TD
#define ZLUDA_DIALECTS_PTX_PTXATTRS_TD

include "dialects/ptx/PTXEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def PTX_PtrType : PTX_Type<"Ptr", "ptr"> {
  let summary = "address of a variable or parameter in a PTX state space";
  let description = [{
    The value of a symbol or parameter used as an address (`[sym+4]`,
    `mov.u64 %rd, sym`). Registers never hold this type: `mov` turns it into
    an integer of the address size.

    ```mlir
    %0 = ptx.addressof @buf : !ptx.ptr<global>
    ```
  }];
  let parameters = (ins "::zluda::ptx::StateSpace":$space);
  let assemblyFormat = "`<` $space `>`";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def PTX_ModifiersAttr : PTX_Attr<"Modifiers", "mods"> {
  let summary = "the modifiers of one PTX instruction, each typed";
  let description = [{
    Everything after the opcode of a PTX instruction: types (in order, e.g.
    `cvt.f32.s32` has `[f32, s32]`), state spaces (in order, e.g. destination
    and source of `cp.async.bulk`), rounding, comparison, boolean combination,
    cache operator, memory semantics and scope, reduction operation, mode,
    geometry, vector width, matrix shape and count, boolean flags, and for the
    sm_90+ families the remaining qualifiers verbatim.

    It prints in PTX's own dot syntax, classified by the opcode it belongs to
    (`.lo` is a comparison on `setp` and a multiply mode on `mul`):

    ```mlir
    %2 = ptx.add <rn.ftz.f32> %0, %1 : (f32, f32) -> f32
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::zluda::ptx::TypeKind">:$types,
    OptionalArrayRefParameter<"::zluda::ptx::StateSpace">:$spaces,
    OptionalParameter<"std::optional<::zluda::ptx::RoundingMode>">:$rounding,
    OptionalParameter<"std::optional<::zluda::ptx::CmpOp>">:$cmp,
    OptionalParameter<"std::optional<::zluda::ptx::BoolOp>">:$boolOp,
    OptionalParameter<"std::optional<::zluda::ptx::CacheOp>">:$cache,
    OptionalParameter<"std::optional<::zluda::ptx::MemSemantics>">:$sem,
    OptionalParameter<"std::optional<::zluda::ptx::MemScope>">:$scope,
    OptionalParameter<"std::optional<::zluda::ptx::ReduceOp>">:$redOp,
    OptionalParameter<"std::optional<::zluda::ptx::Mode>">:$mode,
    OptionalParameter<"std::optional<::zluda::ptx::Geometry>">:$geometry,
    DefaultValuedParameter<"unsigned", "0">:$vec,
    DefaultValuedParameter<"::zluda::ptx::Flag", "::zluda::ptx::Flag::none">:$flags,
    OptionalArrayRefParameter<"int64_t">:$shape,
    DefaultValuedParameter<"unsigned", "0">:$count,
    OptionalParameter<"::mlir::ArrayAttr">:$extras
  );
  // Printed and parsed in C++: the spelling depends on the opcode (see above),
  // which only the owning op knows; the attribute form lists the classes.
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// The first type modifier, if any (the instruction type of most ops).
    std::optional<TypeKind> getType(unsigned i = 0) const {
      if (i < getTypes().size())
        return getTypes()[i];
      return std::nullopt;
    }
    std::optional<StateSpace> getSpace(unsigned i = 0) const {
      if (i < getSpaces().size())
        return getSpaces()[i];
      return std::nullopt;
    }
    bool has(Flag f) const { return (getFlags() & f) == f; }
  }];
}

def PTX_ParamAttr : PTX_Attr<"Param", "param"> {
  let summary = "one parameter of a kernel, function or call prototype";
  let description = [{
    A parameter exactly as declared: its name, state space (`param` or `reg`),
    type, vector width, alignment, array dimensions and the `.ptr` attributes
    of kernel parameters.

    ```mlir
    #ptx.param<name = "p", space = param, type = b8, align = 8, dims = [16]>
    ```
  }];
  let parameters = (ins
    StringRefParameter<"parameter name">:$name,
    "::zluda::ptx::StateSpace":$space,
    "::zluda::ptx::TypeKind":$type,
    DefaultValuedParameter<"unsigned", "0">:$vec,
    DefaultValuedParameter<"uint64_t", "0">:$align,
    OptionalArrayRefParameter<"int64_t">:$dims,
    DefaultValuedParameter<"bool", "false">:$ptr,
    OptionalParameter<"::zluda::ptx::StateSpaceAttr">:$ptrSpace,
    DefaultValuedParameter<"uint64_t", "0">:$ptrAlign
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def PTX_SymbolAddrAttr : PTX_Attr<"SymbolAddr", "symaddr"> {
  let summary = "address of a symbol inside a variable initializer";
  let description = [{
    `sym`, `sym+4`, `generic(sym)`, and the byte-mask form `0xff00(sym)` of a
    PTX initializer.

    ```mlir
    #ptx.symaddr<symbol = @table, offset = 8, generic = true>
    ```
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$symbol,
    DefaultValuedParameter<"int64_t", "0">:$offset,
    DefaultValuedParameter<"bool", "false">:$generic,
    DefaultValuedParameter<"uint64_t", "0">:$mask
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

def PTX_SpecialRegAttr : PTX_Attr<"SpecialReg", "sreg"> {
  let summary = "a PTX special register, with its component or index";
  let description = [{
    `%tid.x`, `%envreg3`, `%lanemask_lt`, `%clock64`, `WARP_SZ`...

    ```mlir
    %0 = ptx.sreg <tid.x> : i32
    ```
  }];
  let parameters = (ins
    "::zluda::ptx::SReg":$reg,
    DefaultValuedParameter<"char", "0">:$dim,
    DefaultValuedParameter<"int64_t", "-1">:$index
  );
  // Printed as PTX spells the register (`tid.x`, `envreg3`).
  let hasCustomAssemblyFormat = 1;
}

def PTX_TargetAttr : PTX_Attr<"Target", "target"> {
  let summary = "module header: .version, .target and .address_size";
  let description = [{
    ```mlir
    module attributes {ptx.module = #ptx.target<version = "9.0", targets = ["sm_90a", "debug"], address_size = 64>} {}
    ```
  }];
  let parameters = (ins
    StringRefParameter<"PTX ISA version">:$version,
    "::mlir::ArrayAttr":$targets,
    DefaultValuedParameter<"unsigned", "64">:$address_size
  );
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // ZLUDA_DIALECTS_PTX_PTXATTRS_TD
