//===- PTXOps.td - Operations of the ptx dialect -----------*- tablegen -*-===//
//
// Structure ops (module-level variables, kernels and functions, constants,
// addresses, special registers, control flow) have their own definitions. PTX
// instructions share one shape: operands, a typed `#ptx.mods` attribute and
// results; each carries an `InstSpec` saying which modifier classes and flags
// it accepts and whether its first operand group is a destination. The front
// end and the verifier both read that spec, so this file is the one list of
// the instructions the toolchain knows.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_DIALECTS_PTX_PTXOPS_TD
#define ZLUDA_DIALECTS_PTX_PTXOPS_TD

include "dialects/ptx/PTXAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Module structure
//===----------------------------------------------------------------------===//

def PTX_GlobalOp : PTX_Op<"global", [Symbol]> {
  let summary = "a module-scope variable in any state space";
  let description = [{
    A `.global`, `.const`, `.shared`, `.local` or texture/surface variable at
    module scope, with its linkage, alignment, vector width, array dimensions
    (0 for an unsized `[]` dimension, e.g. `.extern .shared` dynamic shared
    memory) and initializer. Initializers are integers, floats, nested arrays
    and `#ptx.symaddr` for addresses of symbols.

    ```mlir
    ptx.global @table : global u32 {linkage = #ptx.linkage<visible>, alignment = 4 : i64, dims = array<i64: 3>, init = [1 : i32, 2 : i32, 3 : i32]}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, PTX_StateSpaceAttr:$space,
                   PTX_TypeKindAttr:$type, OptionalAttr<PTX_LinkageAttr>:$linkage,
                   OptionalAttr<I64Attr>:$alignment, OptionalAttr<I32Attr>:$vec,
                   OptionalAttr<DenseI64ArrayAttr>:$dims, OptionalAttr<AnyAttr>:$init,
                   UnitAttr:$managed);
  let assemblyFormat = "$sym_name `:` $space $type attr-dict";
  let hasVerifier = 1;
}

def PTX_LocalVarOp : PTX_Op<"local_var"> {
  let summary = "a function-scope variable (`.local`, `.shared`, `.param`)";
  let description = [{
    A variable declared inside a kernel or function body, e.g. the local
    stack `__local_depot0` or a call-site `.param`. Its result is its address.

    ```mlir
    %0 = ptx.local_var "__local_depot0" : local b8 {alignment = 8 : i64, dims = array<i64: 16>} -> !ptx.ptr<local>
    ```
  }];
  let arguments = (ins StrAttr:$name, PTX_StateSpaceAttr:$space,
                   PTX_TypeKindAttr:$type, OptionalAttr<I64Attr>:$alignment,
                   OptionalAttr<I32Attr>:$vec, OptionalAttr<DenseI64ArrayAttr>:$dims,
                   OptionalAttr<AnyAttr>:$init);
  let results = (outs PTX_PtrType:$addr);
  let assemblyFormat = "$name `:` $space $type attr-dict `->` qualified(type($addr))";
  let hasVerifier = 1;
}

class PTX_FunctionLikeOp<string mnemonic, string kindText>
    : PTX_Op<mnemonic, [Symbol, IsolatedFromAbove]> {
  let description = kindText # [{

    The entry block has one argument per declared parameter, in declaration
    order (return parameters first for `.func`): a `!ptx.ptr<param>` for a
    `.param` parameter, the register's value for a `.reg` parameter. `params`
    and `returns` keep each declaration exactly (`#ptx.param`). A declaration
    without a body has an empty region.

    ```mlir
    ptx.entry @k attributes {params = [#ptx.param<name = "k_param_0", space = param, type = u64>]} {
    ^bb0(%arg0: !ptx.ptr<param>):
      ptx.ret <> : () -> ()
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                   OptionalAttr<PTX_LinkageAttr>:$linkage,
                   TypedArrayAttrBase<PTX_ParamAttr, "parameters">:$params,
                   OptionalAttr<TypedArrayAttrBase<PTX_ParamAttr, "return parameters">>:$returns,
                   OptionalAttr<DenseI32ArrayAttr>:$maxntid,
                   OptionalAttr<DenseI32ArrayAttr>:$reqntid,
                   OptionalAttr<I32Attr>:$minnctapersm,
                   OptionalAttr<I32Attr>:$maxnreg,
                   OptionalAttr<I32Attr>:$maxclusterrank,
                   OptionalAttr<DenseI32ArrayAttr>:$reqnctapercluster,
                   OptionalAttr<DenseI32ArrayAttr>:$explicitcluster,
                   UnitAttr:$noreturn,
                   OptionalAttr<StrArrayAttr>:$pragmas);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def PTX_EntryOp : PTX_FunctionLikeOp<"entry",
    "A kernel (`.entry`) with its performance directives.">;
def PTX_FuncOp : PTX_FunctionLikeOp<"func",
    "A device function (`.func`), possibly returning parameters.">;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

def PTX_ConstantOp : PTX_Op<"constant", [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "an immediate operand";
  let description = [{
    An integer or float immediate, typed as the instruction reads it. Float
    immediates keep their exact bits (`0f3F800000` is 1.0 : f32).

    ```mlir
    %0 = ptx.constant 5 : i32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def PTX_UndefOp : PTX_Op<"undef", [Pure]> {
  let summary = "the value of a register read before any write";
  let description = [{
    ```mlir
    %0 = ptx.undef : i32
    ```
  }];
  let results = (outs AnyType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def PTX_AddressOfOp : PTX_Op<"addressof", [Pure]> {
  let summary = "address of a module-scope variable or function";
  let description = [{
    ```mlir
    %0 = ptx.addressof @buf : !ptx.ptr<global>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$symbol);
  let results = (outs PTX_PtrType:$addr);
  let assemblyFormat = "$symbol attr-dict `:` qualified(type($addr))";
}

def PTX_AddrOp : PTX_Op<"addr", [Pure, AllTypesMatch<["base", "result"]>]> {
  let summary = "address operand `[base+offset]`";
  let description = [{
    The address `[%rd+16]`, `[sym+-4]` of a memory operand: `base` plus an
    immediate byte offset, in the address's own width.

    ```mlir
    %1 = ptx.addr %0 + 16 : i64
    ```
  }];
  let arguments = (ins AnyType:$base, I64Attr:$offset);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$base `+` $offset attr-dict `:` type($result)";
}

def PTX_SRegOp : PTX_Op<"sreg"> {
  let summary = "read a special register";
  let description = [{
    Reads `%tid.x`, `%laneid`, `%clock64`, `%envreg3`, `WARP_SZ`... Reads of
    clocks and timers are not pure, so this op is never merged.

    ```mlir
    %0 = ptx.sreg <tid.x> : i32
    ```
  }];
  let arguments = (ins PTX_SpecialRegAttr:$reg);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$reg attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def PTX_BraOp : PTX_Op<"bra", [Terminator,
    DeclareOpInterfaceMethods<BranchOpInterface, ["getSuccessorForOperands"]>]> {
  let summary = "unconditional branch (`bra`, `bra.uni`)";
  let description = [{
    ```mlir
    ptx.bra ^bb2(%0 : i32)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$destOperands, UnitAttr:$uni);
  let successors = (successor AnySuccessor:$dest);
  let assemblyFormat = "$dest (`(` $destOperands^ `:` type($destOperands) `)`)? attr-dict";
}

def PTX_CondBraOp : PTX_Op<"cond_bra", [Terminator, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<BranchOpInterface, ["getSuccessorForOperands"]>]> {
  let summary = "predicated branch (`@%p bra L`) and predicated-execution split";
  let description = [{
    Branches to `trueDest` when `condition` holds. The front end also uses it
    to guard a predicated instruction `@%p op` with a block of its own.

    ```mlir
    ptx.cond_bra %p, ^bb1, ^bb2(%0 : i32)
    ```
  }];
  let arguments = (ins I1:$condition, Variadic<AnyType>:$trueDestOperands,
                   Variadic<AnyType>:$falseDestOperands, UnitAttr:$uni);
  let successors = (successor AnySuccessor:$trueDest, AnySuccessor:$falseDest);
  let assemblyFormat = [{
    $condition `,` $trueDest (`(` $trueDestOperands^ `:` type($trueDestOperands) `)`)? `,`
    $falseDest (`(` $falseDestOperands^ `:` type($falseDestOperands) `)`)? attr-dict
  }];
}

def PTX_BrxIdxOp : PTX_Op<"brx.idx", [Terminator]> {
  let summary = "indirect branch through a label list (`brx.idx`)";
  let description = [{
    Branches to `targets[index]`; the front end routes each target through a
    block of its own, so the targets take no operands. The index is the raw
    operand; an index out of range is undefined behaviour in PTX.

    ```mlir
    ptx.brx.idx %i [^bb1, ^bb2]
    ```
  }];
  let arguments = (ins AnyInteger:$index, UnitAttr:$uni);
  let successors = (successor VariadicSuccessor<AnySuccessor>:$targets);
  let assemblyFormat = "$index `[` $targets `]` attr-dict `:` type($index)";
}

def PTX_RetOp : PTX_Op<"ret", [Terminator]> {
  let summary = "return from a function or kernel (`ret`)";
  let description = [{
    Carries the final values of the function's `.reg` return parameters, in
    declaration order (`.param` returns are stored before `ret`).

    ```mlir
    ptx.ret %0 : i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values, UnitAttr:$uni);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def PTX_ExitOp : PTX_Op<"exit", [Terminator]> {
  let summary = "terminate the thread (`exit`)";
  let description = [{
    ```mlir
    ptx.exit
    ```
  }];
  let assemblyFormat = "attr-dict";
}

def PTX_CallOp : PTX_Op<"call", [AttrSizedOperandSegments]> {
  let summary = "direct or indirect call (`call`, `call.uni`)";
  let description = [{
    A call of `callee`, or through the function address `target` with the
    `prototype` its `.callprototype` declares (or the `targets` list of a
    `.calltargets` label). `retParams` and `args` are the call-site `.param`
    addresses, or register values for `.reg` parameters; results are the
    registers a `.reg` return parameter writes.

    ```mlir
    ptx.call @f returns(%ret : !ptx.ptr<param>) args(%a : !ptx.ptr<param>) {uni}
    ```
  }];
  let arguments = (ins Optional<AnyType>:$target, Variadic<AnyType>:$retParams,
                   Variadic<AnyType>:$args, OptionalAttr<FlatSymbolRefAttr>:$callee,
                   OptionalAttr<TypedArrayAttrBase<PTX_ParamAttr, "prototype">>:$prototype,
                   OptionalAttr<TypedArrayAttrBase<PTX_ParamAttr, "prototype returns">>:$prototypeReturns,
                   OptionalAttr<SymbolRefArrayAttr>:$targets,
                   UnitAttr:$uni);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    ($callee^)? (`indirect` $target^ `:` type($target))?
    (`returns` `(` $retParams^ `:` type($retParams) `)`)?
    (`args` `(` $args^ `:` type($args) `)`)? attr-dict (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

// cls: modifier classes accepted (mc::*), fl: flags accepted (fl::*),
// props: p::Dest when the first operand group is written; p::Addr, p::Vec,
// p::Discard, p::Negate, p::Symbol for the operand kinds it takes besides
// registers and immediates (PTXInstSpec.h).
class PTX_InstOp<string mnemonic, string summ, string example, string cls,
                 string fl, string props = "p::Dest", list<Trait> traits = []>
    : PTX_Op<mnemonic, traits> {
  let summary = summ;
  let description = "The PTX `" # mnemonic # "` instruction (" # summ # "), "
    # "with its modifiers typed in `mods` and vector operand groups sized in "
    # "`groups`. PTX form:\n\n```\n" # example # "\n```\n";
  let arguments = (ins Variadic<AnyType>:$args, PTX_ModifiersAttr:$mods,
                   OptionalAttr<DenseI32ArrayAttr>:$groups);
  let results = (outs Variadic<AnyType>:$results);
  // The modifiers print in PTX's dot syntax, classified by this opcode.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = "static constexpr ::zluda::ptx::InstSpec kSpec{"
    # cls # ", " # fl # ", " # props # "};";
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::zluda::ptx::parseInstOp(parser, result, kSpec);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::zluda::ptx::printInstOp(getOperation(), getModsAttr(), printer);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::zluda::ptx::verifyInstOp(getOperation(), getModsAttr(), kSpec);
    }
  }];
}

// Integer and floating-point arithmetic.
def PTX_AddOp : PTX_InstOp<"add", "addition", "add.rn.ftz.f32 d, a, b; add.cc.u32 d, a, b;", "mc::T | mc::RND | mc::FL", "fl::AddSub", "p::Dest | p::SameWidth">;
def PTX_SubOp : PTX_InstOp<"sub", "subtraction", "sub.sat.s32 d, a, b;", "mc::T | mc::RND | mc::FL", "fl::AddSub", "p::Dest | p::SameWidth">;
def PTX_MulOp : PTX_InstOp<"mul", "multiplication", "mul.wide.s32 d, a, b; mul.rz.f64 d, a, b;", "mc::T | mc::RND | mc::MODE | mc::FL", "fl::Mul", "p::Dest | p::SameWidth">;
def PTX_MadOp : PTX_InstOp<"mad", "multiply-add", "mad.lo.cc.u32 d, a, b, c; mad.rn.f32 d, a, b, c;", "mc::T | mc::RND | mc::MODE | mc::FL", "fl::Mad", "p::Dest | p::SameWidth">;
def PTX_FmaOp : PTX_InstOp<"fma", "fused multiply-add", "fma.rn.relu.bf16x2 d, a, b, c;", "mc::T | mc::RND | mc::FL", "fl::Fma", "p::Dest | p::SameWidth">;
def PTX_AddcOp : PTX_InstOp<"addc", "addition with carry-in", "addc.cc.u32 d, a, b;", "mc::T | mc::FL", "fl::Carry", "p::Dest | p::SameWidth">;
def PTX_SubcOp : PTX_InstOp<"subc", "subtraction with borrow-in", "subc.cc.u32 d, a, b;", "mc::T | mc::FL", "fl::Carry", "p::Dest | p::SameWidth">;
def PTX_MadcOp : PTX_InstOp<"madc", "multiply-add with carry-in", "madc.hi.cc.u32 d, a, b, c;", "mc::T | mc::MODE | mc::FL", "fl::Carry", "p::Dest | p::SameWidth">;
def PTX_Mul24Op : PTX_InstOp<"mul24", "24-bit multiplication", "mul24.lo.s32 d, a, b;", "mc::T | mc::MODE", "fl::None">;
def PTX_Mad24Op : PTX_InstOp<"mad24", "24-bit multiply-add", "mad24.hi.sat.s32 d, a, b, c;", "mc::T | mc::MODE | mc::FL", "fl::Sat">;
def PTX_SadOp : PTX_InstOp<"sad", "sum of absolute differences", "sad.u32 d, a, b, c;", "mc::T", "fl::None">;
def PTX_DivOp : PTX_InstOp<"div", "division", "div.rn.ftz.f32 d, a, b; div.full.f32 d, a, b;", "mc::T | mc::RND | mc::FL", "fl::Div", "p::Dest | p::SameWidth">;
def PTX_RemOp : PTX_InstOp<"rem", "remainder", "rem.s32 d, a, b;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_AbsOp : PTX_InstOp<"abs", "absolute value", "abs.ftz.f32 d, a;", "mc::T | mc::FL", "fl::Ftz", "p::Dest | p::SameWidth">;
def PTX_NegOp : PTX_InstOp<"neg", "negation", "neg.f64 d, a;", "mc::T | mc::FL", "fl::Neg", "p::Dest | p::SameWidth">;
def PTX_MinOp : PTX_InstOp<"min", "minimum", "min.NaN.f32 d, a, b; min.relu.s32 d, a, b;", "mc::T | mc::FL", "fl::MinMax", "p::Dest | p::SameWidth">;
def PTX_MaxOp : PTX_InstOp<"max", "maximum", "max.xorsign.abs.f16 d, a, b;", "mc::T | mc::FL", "fl::MinMax", "p::Dest | p::SameWidth">;
def PTX_PopcOp : PTX_InstOp<"popc", "population count", "popc.b64 d, a;", "mc::T", "fl::None">;
def PTX_ClzOp : PTX_InstOp<"clz", "count leading zeros", "clz.b32 d, a;", "mc::T", "fl::None">;
def PTX_BfindOp : PTX_InstOp<"bfind", "find most significant non-sign bit", "bfind.shiftamt.u32 d, a;", "mc::T | mc::FL", "fl::ShiftAmt">;
def PTX_FnsOp : PTX_InstOp<"fns", "find n-th set bit", "fns.b32 d, mask, base, offset;", "mc::T", "fl::None">;
def PTX_BrevOp : PTX_InstOp<"brev", "bit reverse", "brev.b32 d, a;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_BfeOp : PTX_InstOp<"bfe", "bit field extract", "bfe.s32 d, a, pos, len;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_BfiOp : PTX_InstOp<"bfi", "bit field insert", "bfi.b32 d, f, b, pos, len;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_BmskOp : PTX_InstOp<"bmsk", "bit mask", "bmsk.clamp.b32 d, a, b;", "mc::T | mc::FL", "fl::Shift">;
def PTX_SzextOp : PTX_InstOp<"szext", "sign or zero extend a bit field", "szext.clamp.s32 d, a, b;", "mc::T | mc::FL", "fl::Shift">;
def PTX_Dp4aOp : PTX_InstOp<"dp4a", "four-way byte dot product with accumulate", "dp4a.u32.s32 d, a, b, c;", "mc::T", "fl::None">;
def PTX_Dp2aOp : PTX_InstOp<"dp2a", "two-way dot product with accumulate", "dp2a.lo.u32.u32 d, a, b, c;", "mc::T | mc::MODE", "fl::None">;
def PTX_TestpOp : PTX_InstOp<"testp", "test a float's class", "testp.notanumber.f32 p, a;", "mc::T | mc::MODE", "fl::None">;
def PTX_CopysignOp : PTX_InstOp<"copysign", "copy the sign of a float", "copysign.f32 d, a, b;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_RcpOp : PTX_InstOp<"rcp", "reciprocal", "rcp.rn.ftz.f32 d, a; rcp.approx.ftz.f64 d, a;", "mc::T | mc::RND | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_SqrtOp : PTX_InstOp<"sqrt", "square root", "sqrt.approx.f32 d, a;", "mc::T | mc::RND | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_RsqrtOp : PTX_InstOp<"rsqrt", "reciprocal square root", "rsqrt.approx.ftz.f64 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_SinOp : PTX_InstOp<"sin", "sine", "sin.approx.ftz.f32 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_CosOp : PTX_InstOp<"cos", "cosine", "cos.approx.f32 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_Lg2Op : PTX_InstOp<"lg2", "base-2 logarithm", "lg2.approx.ftz.f32 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_Ex2Op : PTX_InstOp<"ex2", "base-2 exponential", "ex2.approx.f16x2 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;
def PTX_TanhOp : PTX_InstOp<"tanh", "hyperbolic tangent", "tanh.approx.f32 d, a;", "mc::T | mc::FL", "fl::Approx", "p::Dest | p::SameWidth">;

// Comparison and selection.
def PTX_SetOp : PTX_InstOp<"set", "compare and set a register", "set.lt.and.u32.f32 d, a, b, p;", "mc::T | mc::CMP | mc::BOOL | mc::FL", "fl::Arith", "p::Dest | p::Negate">;
def PTX_SetpOp : PTX_InstOp<"setp", "compare and set predicates", "setp.lt.and.s32 p|q, a, b, r;", "mc::T | mc::CMP | mc::BOOL | mc::FL", "fl::Setp", "p::Dest | p::PredResult | p::Discard | p::Negate">;
def PTX_SelpOp : PTX_InstOp<"selp", "select on a predicate", "selp.b32 d, a, b, p;", "mc::T", "fl::None", "p::Dest | p::SameWidth | p::Negate">;
def PTX_SlctOp : PTX_InstOp<"slct", "select on the sign of an operand", "slct.ftz.f32.f32 d, a, b, c;", "mc::T | mc::FL", "fl::Ftz">;

// Logic and shifts.
def PTX_AndOp : PTX_InstOp<"and", "bitwise and", "and.b32 d, a, b;", "mc::T", "fl::None", "p::Dest | p::SameWidth | p::Negate">;
def PTX_OrOp : PTX_InstOp<"or", "bitwise or", "or.pred p, q, r;", "mc::T", "fl::None", "p::Dest | p::SameWidth | p::Negate">;
def PTX_XorOp : PTX_InstOp<"xor", "bitwise exclusive or", "xor.b64 d, a, b;", "mc::T", "fl::None", "p::Dest | p::SameWidth | p::Negate">;
def PTX_NotOp : PTX_InstOp<"not", "bitwise not", "not.b32 d, a;", "mc::T", "fl::None", "p::Dest | p::SameWidth | p::Negate">;
def PTX_CnotOp : PTX_InstOp<"cnot", "C-style logical not", "cnot.b32 d, a;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_Lop3Op : PTX_InstOp<"lop3", "arbitrary three-input logic", "lop3.b32 d, a, b, c, 0x96; lop3.or.b32 d|p, a, b, c, 0x96, q;", "mc::T | mc::BOOL", "fl::None", "p::Dest | p::Discard | p::Negate">;
def PTX_ShfOp : PTX_InstOp<"shf", "funnel shift", "shf.l.clamp.b32 d, a, b, c;", "mc::T | mc::MODE | mc::FL", "fl::Shift">;
def PTX_ShlOp : PTX_InstOp<"shl", "shift left", "shl.b32 d, a, 3;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;
def PTX_ShrOp : PTX_InstOp<"shr", "shift right", "shr.s32 d, a, b;", "mc::T", "fl::None", "p::Dest | p::SameWidth">;

// Data movement and conversion.
def PTX_MovOp : PTX_InstOp<"mov", "move, pack and unpack", "mov.b64 d, {lo, hi}; mov.u64 d, sym;", "mc::T | mc::VEC", "fl::None", "p::Dest | p::Vec | p::Negate | p::Symbol">;
def PTX_ShflOp : PTX_InstOp<"shfl", "warp shuffle (`shfl.sync` and the pre-sm_70 form)", "shfl.sync.bfly.b32 d|p, a, b, c, membermask;", "mc::T | mc::MODE | mc::FL", "fl::WarpSync">;
def PTX_PrmtOp : PTX_InstOp<"prmt", "byte permute", "prmt.b32.f4e d, a, b, c;", "mc::T | mc::MODE", "fl::None">;
def PTX_LdOp : PTX_InstOp<"ld", "load", "ld.global.nc.v4.f32 {a, b, c, d}, [addr+16];", "mc::T | mc::SP | mc::CACHE | mc::SEM | mc::SCOPE | mc::VEC | mc::FL", "fl::LoadStore", "p::Dest | p::Addr | p::Vec">;
def PTX_LduOp : PTX_InstOp<"ldu", "load uniform", "ldu.global.f32 d, [a];", "mc::T | mc::SP | mc::VEC | mc::FL", "fl::Ldu", "p::Dest | p::Addr | p::Vec">;
def PTX_StOp : PTX_InstOp<"st", "store", "st.shared.v2.u32 [addr], {a, b};", "mc::T | mc::SP | mc::CACHE | mc::SEM | mc::SCOPE | mc::VEC | mc::FL", "fl::LoadStore", "p::Addr | p::Vec">;
def PTX_StAsyncOp : PTX_InstOp<"st.async", "asynchronous store to distributed shared memory", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [addr], b, [mbar];", "mc::T | mc::SP | mc::VEC | mc::FL | mc::SEM | mc::SCOPE", "fl::AsyncStore", "p::Addr | p::Vec">;
def PTX_StBulkOp : PTX_InstOp<"st.bulk", "bulk zero-initialization of shared memory", "st.bulk.weak.shared::cta [a], size, 0;", "mc::SP | mc::SEM", "fl::None", "p::Addr">;
def PTX_PrefetchOp : PTX_InstOp<"prefetch", "prefetch to a cache level", "prefetch.global.L2::evict_last [a];", "mc::SP | mc::FL | mc::EXTRA", "fl::Prefetch", "p::Addr">;
def PTX_PrefetchuOp : PTX_InstOp<"prefetchu", "prefetch to the uniform cache", "prefetchu.L1 [a];", "mc::FL", "fl::L1", "p::Addr">;
def PTX_ApplyPriorityOp : PTX_InstOp<"applypriority", "apply a cache eviction priority", "applypriority.global.L2::evict_normal [a], 128;", "mc::SP | mc::FL", "fl::L2Normal", "p::Addr">;
def PTX_DiscardOp : PTX_InstOp<"discard", "discard a cache line", "discard.global.L2 [a], 128;", "mc::SP | mc::FL", "fl::L2", "p::Addr">;
def PTX_CreatePolicyOp : PTX_InstOp<"createpolicy", "create a cache eviction policy", "createpolicy.fractional.L2::evict_last.b64 pol, 1.0;", "mc::T | mc::FL | mc::EXTRA", "fl::CreatePolicy", "p::Dest | p::Addr">;
def PTX_IsspacepOp : PTX_InstOp<"isspacep", "test a generic address's state space", "isspacep.shared p, a;", "mc::SP", "fl::None">;
def PTX_CvtaOp : PTX_InstOp<"cvta", "convert an address between generic and a state space", "cvta.to.global.u64 d, a;", "mc::T | mc::SP | mc::FL", "fl::Conv", "p::Dest | p::Symbol">;
def PTX_CvtOp : PTX_InstOp<"cvt", "convert between types", "cvt.rni.sat.s32.f32 d, a; cvt.rn.satfinite.e4m3x2.f32 d, a, b;", "mc::T | mc::RND | mc::FL | mc::EXTRA", "fl::Cvt">;
def PTX_CvtPackOp : PTX_InstOp<"cvt.pack", "convert and pack", "cvt.pack.sat.u8.s32.b32 d, a, b, c;", "mc::T | mc::FL", "fl::Sat">;
def PTX_MapaOp : PTX_InstOp<"mapa", "map a shared address to another CTA of the cluster", "mapa.shared::cluster.u32 d, a, b;", "mc::T | mc::SP", "fl::None", "p::Dest | p::Symbol">;
def PTX_GetctarankOp : PTX_InstOp<"getctarank", "CTA rank of a distributed shared address", "getctarank.shared::cluster.u32 d, a;", "mc::T | mc::SP", "fl::None", "p::Dest | p::Symbol">;
def PTX_AllocaOp : PTX_InstOp<"alloca", "allocate local stack memory", "alloca.u64 ptr, size, 16;", "mc::T | mc::SP", "fl::None">;
def PTX_StacksaveOp : PTX_InstOp<"stacksave", "save the stack pointer", "stacksave.u64 d;", "mc::T", "fl::None">;
def PTX_StackrestoreOp : PTX_InstOp<"stackrestore", "restore the stack pointer", "stackrestore.u64 a;", "mc::T", "fl::None", "p::None">;

// Asynchronous copies, bulk copies and tensor maps.
def PTX_CpAsyncOp : PTX_InstOp<"cp.async", "asynchronous copy global to shared", "cp.async.cg.shared.global.L2::128B [d], [s], 16, 8;", "mc::SP | mc::CACHE | mc::FL", "fl::CpAsync", "p::Addr">;
def PTX_CpAsyncCommitGroupOp : PTX_InstOp<"cp.async.commit_group", "commit the pending cp.async operations as a group", "cp.async.commit_group;", "mc::None", "fl::None", "p::None">;
def PTX_CpAsyncWaitGroupOp : PTX_InstOp<"cp.async.wait_group", "wait for cp.async groups", "cp.async.wait_group 1;", "mc::None", "fl::None", "p::None">;
def PTX_CpAsyncWaitAllOp : PTX_InstOp<"cp.async.wait_all", "wait for all cp.async operations", "cp.async.wait_all;", "mc::None", "fl::None", "p::None">;
def PTX_CpAsyncMbarrierArriveOp : PTX_InstOp<"cp.async.mbarrier.arrive", "mbarrier arrive on completion of cp.async", "cp.async.mbarrier.arrive.noinc.shared.b64 [mbar];", "mc::T | mc::SP | mc::FL", "fl::CpAsyncArrive", "p::Addr">;
def PTX_CpAsyncBulkOp : PTX_InstOp<"cp.async.bulk", "asynchronous bulk copy", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [d], [s], size, [mbar];", "mc::SP | mc::FL | mc::EXTRA", "fl::Bulk", "p::Addr">;
def PTX_CpReduceAsyncBulkOp : PTX_InstOp<"cp.reduce.async.bulk", "asynchronous bulk copy with reduction", "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [d], [s], size;", "mc::T | mc::SP | mc::RED | mc::FL | mc::EXTRA", "fl::BulkReduce", "p::Addr">;
def PTX_CpAsyncBulkTensorOp : PTX_InstOp<"cp.async.bulk.tensor", "asynchronous bulk tensor copy", "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [d], [tmap, {x, y}], [mbar];", "mc::SP | mc::GEOM | mc::FL | mc::EXTRA", "fl::BulkTensor", "p::Addr | p::Vec">;
def PTX_CpReduceAsyncBulkTensorOp : PTX_InstOp<"cp.reduce.async.bulk.tensor", "asynchronous bulk tensor copy with reduction", "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [tmap, {x}], [s];", "mc::SP | mc::GEOM | mc::RED | mc::FL | mc::EXTRA", "fl::BulkTensor", "p::Addr | p::Vec">;
def PTX_CpAsyncBulkPrefetchOp : PTX_InstOp<"cp.async.bulk.prefetch", "bulk prefetch to L2", "cp.async.bulk.prefetch.L2.global [a], size;", "mc::SP | mc::FL | mc::EXTRA", "fl::BulkPrefetch", "p::Addr">;
def PTX_CpAsyncBulkPrefetchTensorOp : PTX_InstOp<"cp.async.bulk.prefetch.tensor", "bulk tensor prefetch to L2", "cp.async.bulk.prefetch.tensor.2d.L2.global.tile [tmap, {x, y}];", "mc::SP | mc::GEOM | mc::FL | mc::EXTRA", "fl::BulkPrefetch", "p::Addr | p::Vec">;
def PTX_CpAsyncBulkCommitGroupOp : PTX_InstOp<"cp.async.bulk.commit_group", "commit bulk async operations as a group", "cp.async.bulk.commit_group;", "mc::None", "fl::None", "p::None">;
def PTX_CpAsyncBulkWaitGroupOp : PTX_InstOp<"cp.async.bulk.wait_group", "wait for bulk async groups", "cp.async.bulk.wait_group.read 0;", "mc::FL", "fl::BulkWait", "p::None">;
def PTX_TensormapReplaceOp : PTX_InstOp<"tensormap.replace", "modify a tensor map", "tensormap.replace.tile.global_address.global.b1024.b64 [tmap], addr;", "mc::T | mc::SP | mc::FL | mc::EXTRA", "fl::Tile", "p::Addr">;
def PTX_TensormapCpFenceproxyOp : PTX_InstOp<"tensormap.cp_fenceproxy", "copy a tensor map and fence the proxy", "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [d], [s], 128;", "mc::SP | mc::SEM | mc::SCOPE | mc::FL | mc::EXTRA", "fl::SyncAligned", "p::Addr">;

// Matrix load/store/move.
def PTX_LdmatrixOp : PTX_InstOp<"ldmatrix", "load matrices from shared memory", "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {a, b, c, d}, [p];", "mc::T | mc::SP | mc::SHAPE | mc::COUNT | mc::FL | mc::EXTRA", "fl::Matrix", "p::Dest | p::Addr | p::Vec">;
def PTX_StmatrixOp : PTX_InstOp<"stmatrix", "store matrices to shared memory", "stmatrix.sync.aligned.m8n8.x2.shared.b16 [p], {a, b};", "mc::T | mc::SP | mc::SHAPE | mc::COUNT | mc::FL | mc::EXTRA", "fl::Matrix", "p::Addr | p::Vec">;
def PTX_MovmatrixOp : PTX_InstOp<"movmatrix", "transpose a matrix in registers", "movmatrix.sync.aligned.m8n8.trans.b16 d, a;", "mc::T | mc::SHAPE | mc::FL", "fl::Matrix">;

// Textures and surfaces.
def PTX_TexOp : PTX_InstOp<"tex", "texture fetch", "tex.2d.v4.f32.f32 {r, g, b, a}, [tex, {x, y}];", "mc::T | mc::GEOM | mc::VEC | mc::FL | mc::EXTRA", "fl::All", "p::Dest | p::Addr | p::Vec">;
def PTX_Tld4Op : PTX_InstOp<"tld4", "texture gather of four texels", "tld4.r.2d.v4.f32.f32 {a, b, c, d}, [tex, {x, y}];", "mc::T | mc::GEOM | mc::MODE | mc::VEC | mc::FL | mc::EXTRA", "fl::None", "p::Dest | p::Addr | p::Vec">;
def PTX_TxqOp : PTX_InstOp<"txq", "texture or sampler query", "txq.width.b32 d, [tex];", "mc::T | mc::FL | mc::EXTRA", "fl::None", "p::Dest | p::Addr">;
def PTX_IstypepOp : PTX_InstOp<"istypep", "test the type of an opaque handle", "istypep.texref p, a;", "mc::T", "fl::None", "p::Dest | p::Symbol">;
def PTX_SuldOp : PTX_InstOp<"suld", "surface load", "suld.b.2d.v4.b32.trap {a, b, c, d}, [surf, {x, y}];", "mc::T | mc::GEOM | mc::VEC | mc::CACHE | mc::FL | mc::EXTRA", "fl::All", "p::Dest | p::Addr | p::Vec">;
def PTX_SustOp : PTX_InstOp<"sust", "surface store", "sust.b.2d.b32.clamp [surf, {x, y}], {a};", "mc::T | mc::GEOM | mc::VEC | mc::CACHE | mc::FL | mc::EXTRA", "fl::All", "p::Addr | p::Vec">;
def PTX_SuredOp : PTX_InstOp<"sured", "surface reduction", "sured.b.add.2d.u32.trap [surf, {x, y}], a;", "mc::T | mc::GEOM | mc::RED | mc::FL | mc::EXTRA", "fl::All", "p::Addr">;
def PTX_SuqOp : PTX_InstOp<"suq", "surface query", "suq.width.b32 d, [surf];", "mc::T | mc::FL | mc::EXTRA", "fl::None", "p::Dest | p::Addr">;

// Barriers, ordering and atomics.
def PTX_BarSyncOp : PTX_InstOp<"bar.sync", "CTA barrier: wait (`bar.sync`, `bar`)", "bar.sync 1, 64;", "mc::SCOPE | mc::FL", "fl::WarpSync", "p::None">;
def PTX_BarArriveOp : PTX_InstOp<"bar.arrive", "CTA barrier: arrive without waiting", "bar.arrive 1, 64;", "mc::SCOPE | mc::FL", "fl::None", "p::None">;
def PTX_BarRedOp : PTX_InstOp<"bar.red", "CTA barrier with reduction", "bar.red.popc.u32 d, 0, p;", "mc::T | mc::RED | mc::SCOPE | mc::FL", "fl::None", "p::Dest | p::Negate">;
def PTX_BarrierSyncOp : PTX_InstOp<"barrier.sync", "CTA barrier, non-aligned form", "barrier.sync.aligned 0;", "mc::SCOPE | mc::FL", "fl::SyncAligned", "p::None">;
def PTX_BarrierArriveOp : PTX_InstOp<"barrier.arrive", "CTA barrier arrive, non-aligned form", "barrier.arrive 1, 64;", "mc::SCOPE | mc::FL", "fl::Aligned", "p::None">;
def PTX_BarrierRedOp : PTX_InstOp<"barrier.red", "CTA barrier with reduction, non-aligned form", "barrier.red.and.pred p, 0, q;", "mc::T | mc::RED | mc::SCOPE | mc::FL", "fl::Aligned", "p::Dest | p::Negate">;
def PTX_BarWarpSyncOp : PTX_InstOp<"bar.warp.sync", "warp barrier", "bar.warp.sync -1;", "mc::FL", "fl::WarpSync", "p::None">;
def PTX_BarrierClusterArriveOp : PTX_InstOp<"barrier.cluster.arrive", "cluster barrier arrive", "barrier.cluster.arrive.release.aligned;", "mc::SEM | mc::FL", "fl::Aligned", "p::None">;
def PTX_BarrierClusterWaitOp : PTX_InstOp<"barrier.cluster.wait", "cluster barrier wait", "barrier.cluster.wait.acquire.aligned;", "mc::SEM | mc::FL", "fl::Aligned", "p::None">;
def PTX_MembarOp : PTX_InstOp<"membar", "memory barrier", "membar.gl;", "mc::SCOPE | mc::FL | mc::EXTRA", "fl::All", "p::None">;
def PTX_FenceOp : PTX_InstOp<"fence", "memory fence, including proxy fences", "fence.acq_rel.gpu; fence.proxy.async.shared::cta;", "mc::SEM | mc::SCOPE | mc::SP | mc::FL | mc::EXTRA", "fl::All", "p::Addr">;
def PTX_AtomOp : PTX_InstOp<"atom", "atomic read-modify-write", "atom.acq_rel.gpu.global.add.u32 d, [a], b; atom.cas.b64 d, [a], b, c;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::RED | mc::VEC | mc::FL", "fl::Atomic", "p::Dest | p::Addr | p::Vec | p::Discard">;
def PTX_RedOp : PTX_InstOp<"red", "atomic reduction without result", "red.relaxed.sys.global.add.f32 [a], b;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::RED | mc::VEC | mc::FL", "fl::Atomic", "p::Addr | p::Vec">;
def PTX_RedAsyncOp : PTX_InstOp<"red.async", "asynchronous reduction on distributed shared memory", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [a], b, [mbar];", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::RED | mc::FL", "fl::AsyncStore", "p::Addr">;
def PTX_MbarrierInitOp : PTX_InstOp<"mbarrier.init", "initialize an mbarrier", "mbarrier.init.shared.b64 [a], count;", "mc::T | mc::SP", "fl::None", "p::Addr">;
def PTX_MbarrierInvalOp : PTX_InstOp<"mbarrier.inval", "invalidate an mbarrier", "mbarrier.inval.shared.b64 [a];", "mc::T | mc::SP", "fl::None", "p::Addr">;
def PTX_MbarrierArriveOp : PTX_InstOp<"mbarrier.arrive", "arrive on an mbarrier", "mbarrier.arrive.release.cta.shared::cta.b64 state, [a];", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::FL", "fl::MbarrierArrive", "p::Dest | p::Addr | p::Discard">;
def PTX_MbarrierArriveDropOp : PTX_InstOp<"mbarrier.arrive_drop", "arrive on an mbarrier and drop out", "mbarrier.arrive_drop.shared.b64 state, [a];", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::FL", "fl::MbarrierArrive", "p::Dest | p::Addr | p::Discard">;
def PTX_MbarrierExpectTxOp : PTX_InstOp<"mbarrier.expect_tx", "expect transaction bytes on an mbarrier", "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [a], 64;", "mc::T | mc::SP | mc::SEM | mc::SCOPE", "fl::None", "p::Addr">;
def PTX_MbarrierCompleteTxOp : PTX_InstOp<"mbarrier.complete_tx", "complete transaction bytes on an mbarrier", "mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [a], 64;", "mc::T | mc::SP | mc::SEM | mc::SCOPE", "fl::None", "p::Addr">;
def PTX_MbarrierTestWaitOp : PTX_InstOp<"mbarrier.test_wait", "test an mbarrier phase", "mbarrier.test_wait.parity.shared::cta.b64 p, [a], phase;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::FL", "fl::MbarrierWait", "p::Dest | p::Addr">;
def PTX_MbarrierTryWaitOp : PTX_InstOp<"mbarrier.try_wait", "wait on an mbarrier phase, with a time limit", "mbarrier.try_wait.parity.shared::cta.b64 p, [a], phase, 1000;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::FL", "fl::MbarrierWait", "p::Dest | p::Addr">;
def PTX_MbarrierPendingCountOp : PTX_InstOp<"mbarrier.pending_count", "pending count of an mbarrier state", "mbarrier.pending_count.b64 d, state;", "mc::T", "fl::None">;

// Warp-level operations.
def PTX_VoteOp : PTX_InstOp<"vote", "warp vote", "vote.sync.ballot.b32 d, p, membermask;", "mc::T | mc::MODE | mc::FL", "fl::WarpSync", "p::Dest | p::Negate">;
def PTX_MatchOp : PTX_InstOp<"match", "warp match", "match.any.sync.b32 d, a, membermask;", "mc::T | mc::MODE | mc::FL", "fl::WarpSync">;
def PTX_ReduxOp : PTX_InstOp<"redux", "warp reduction", "redux.sync.add.s32 d, a, membermask;", "mc::T | mc::RED | mc::FL", "fl::Redux">;
def PTX_ActivemaskOp : PTX_InstOp<"activemask", "mask of active threads", "activemask.b32 d;", "mc::T", "fl::None">;
def PTX_ElectOp : PTX_InstOp<"elect", "elect one leader thread", "elect.sync d|p, membermask;", "mc::FL", "fl::WarpSync">;

// Warp-level and warpgroup matrix multiply.
def PTX_WmmaLoadOp : PTX_InstOp<"wmma.load", "load a wmma fragment", "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {a0, ..., a7}, [p], stride;", "mc::T | mc::SP | mc::SHAPE | mc::FL | mc::EXTRA", "fl::All", "p::Dest | p::Addr | p::Vec">;
def PTX_WmmaStoreOp : PTX_InstOp<"wmma.store", "store a wmma fragment", "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [p], {d0, ..., d7}, stride;", "mc::T | mc::SP | mc::SHAPE | mc::FL | mc::EXTRA", "fl::All", "p::Addr | p::Vec">;
def PTX_WmmaMmaOp : PTX_InstOp<"wmma.mma", "wmma matrix multiply-accumulate", "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {d}, {a}, {b}, {c};", "mc::T | mc::SHAPE | mc::RND | mc::FL | mc::EXTRA", "fl::All", "p::Dest | p::Vec">;
def PTX_MmaOp : PTX_InstOp<"mma", "warp matrix multiply-accumulate", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {d}, {a}, {b}, {c};", "mc::T | mc::SHAPE | mc::RND | mc::FL | mc::EXTRA", "fl::Mma", "p::Dest | p::Vec">;
def PTX_MmaSpOp : PTX_InstOp<"mma.sp", "sparse warp matrix multiply-accumulate", "mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {d}, {a}, {b}, {c}, e, 0x0;", "mc::T | mc::SHAPE | mc::FL | mc::EXTRA", "fl::Mma", "p::Dest | p::Vec | p::Negate">;
def PTX_WgmmaMmaAsyncOp : PTX_InstOp<"wgmma.mma_async", "warpgroup matrix multiply-accumulate", "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {d}, adesc, bdesc, p, 1, 1, 0, 0;", "mc::T | mc::SHAPE | mc::FL | mc::EXTRA", "fl::Mma", "p::Dest | p::Vec | p::Negate">;
def PTX_WgmmaMmaAsyncSpOp : PTX_InstOp<"wgmma.mma_async.sp", "sparse warpgroup matrix multiply-accumulate", "wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {d}, adesc, bdesc, e, 0, p, 1, 1, 0, 0;", "mc::T | mc::SHAPE | mc::FL | mc::EXTRA", "fl::Mma", "p::Dest | p::Vec | p::Negate">;
def PTX_WgmmaFenceOp : PTX_InstOp<"wgmma.fence", "order register accesses before wgmma", "wgmma.fence.sync.aligned;", "mc::FL", "fl::SyncAligned", "p::None">;
def PTX_WgmmaCommitGroupOp : PTX_InstOp<"wgmma.commit_group", "commit wgmma operations as a group", "wgmma.commit_group.sync.aligned;", "mc::FL", "fl::SyncAligned", "p::None">;
def PTX_WgmmaWaitGroupOp : PTX_InstOp<"wgmma.wait_group", "wait for wgmma groups", "wgmma.wait_group.sync.aligned 0;", "mc::FL", "fl::SyncAligned", "p::None">;

// tcgen05 (sm_100 tensor core generation 5).
class PTX_Tcgen05Op<string name, string summ, string example, string props = "p::Addr | p::Vec | p::Negate">
    : PTX_InstOp<"tcgen05." # name, summ, example,
                 "mc::T | mc::SP | mc::SHAPE | mc::COUNT | mc::VEC | mc::FL | mc::EXTRA", "fl::All", props>;
def PTX_Tcgen05AllocOp : PTX_Tcgen05Op<"alloc", "allocate tensor memory", "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [d], 32;">;
def PTX_Tcgen05DeallocOp : PTX_Tcgen05Op<"dealloc", "free tensor memory", "tcgen05.dealloc.cta_group::1.sync.aligned.b32 taddr, 32;">;
def PTX_Tcgen05RelinquishOp : PTX_Tcgen05Op<"relinquish_alloc_permit", "give up the right to allocate tensor memory", "tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;">;
def PTX_Tcgen05LdOp : PTX_Tcgen05Op<"ld", "load from tensor memory", "tcgen05.ld.sync.aligned.16x64b.x2.b32 {a, b}, [taddr];", "p::Dest | p::Addr | p::Vec">;
def PTX_Tcgen05StOp : PTX_Tcgen05Op<"st", "store to tensor memory", "tcgen05.st.sync.aligned.16x64b.x2.b32 [taddr], {a, b};">;
def PTX_Tcgen05WaitOp : PTX_Tcgen05Op<"wait", "wait for tcgen05 loads or stores", "tcgen05.wait::ld.sync.aligned;">;
def PTX_Tcgen05CpOp : PTX_Tcgen05Op<"cp", "copy shared memory to tensor memory", "tcgen05.cp.cta_group::1.128x256b [taddr], sdesc;">;
def PTX_Tcgen05ShiftOp : PTX_Tcgen05Op<"shift", "shift tensor memory rows", "tcgen05.shift.cta_group::1.down [taddr];">;
def PTX_Tcgen05MmaOp : PTX_Tcgen05Op<"mma", "tensor-memory matrix multiply-accumulate", "tcgen05.mma.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;">;
def PTX_Tcgen05MmaSpOp : PTX_Tcgen05Op<"mma.sp", "sparse tcgen05 matrix multiply-accumulate", "tcgen05.mma.sp.cta_group::1.kind::f16 [d], adesc, bdesc, [e], idesc, p;">;
def PTX_Tcgen05MmaWsOp : PTX_Tcgen05Op<"mma.ws", "weight-stationary tcgen05 matrix multiply-accumulate", "tcgen05.mma.ws.cta_group::1.kind::f16 [d], adesc, bdesc, idesc, p;">;
def PTX_Tcgen05CommitOp : PTX_Tcgen05Op<"commit", "make an mbarrier track tcgen05 operations", "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [mbar];">;
def PTX_Tcgen05FenceOp : PTX_Tcgen05Op<"fence", "order tcgen05 operations", "tcgen05.fence::before_thread_sync;">;

// Multimem (NVLS) and cluster control.
def PTX_MultimemLdReduceOp : PTX_InstOp<"multimem.ld_reduce", "load and reduce over a multimem address", "multimem.ld_reduce.relaxed.sys.global.add.f32 d, [a];", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::RED | mc::VEC | mc::FL | mc::EXTRA", "fl::None", "p::Dest | p::Addr | p::Vec">;
def PTX_MultimemStOp : PTX_InstOp<"multimem.st", "store to a multimem address", "multimem.st.relaxed.sys.global.f32 [a], b;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::VEC | mc::FL", "fl::None", "p::Addr | p::Vec">;
def PTX_MultimemRedOp : PTX_InstOp<"multimem.red", "reduction on a multimem address", "multimem.red.relaxed.sys.global.add.u32 [a], b;", "mc::T | mc::SP | mc::SEM | mc::SCOPE | mc::RED | mc::VEC | mc::FL | mc::EXTRA", "fl::None", "p::Addr | p::Vec">;
def PTX_ClcTryCancelOp : PTX_InstOp<"clusterlaunchcontrol.try_cancel", "request cancellation of a not-yet-launched cluster", "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [d], [mbar];", "mc::T | mc::SP | mc::FL | mc::EXTRA", "fl::ClusterLaunch", "p::Addr">;
def PTX_ClcQueryCancelOp : PTX_InstOp<"clusterlaunchcontrol.query_cancel", "decode a cluster cancellation response", "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, resp;", "mc::T | mc::FL | mc::EXTRA", "fl::None", "p::Dest | p::Vec">;


// Video (SIMD within a register) instructions. Operand selectors (`%r.b0`,
// `%r.h1`, `%r.b3210`) are kept per PTX operand in `selectors`.
class PTX_VideoOp<string mnemonic, string summ, string example>
    : PTX_InstOp<mnemonic, summ, example, "mc::T | mc::RED | mc::CMP | mc::FL", "fl::Arith"> {
  let arguments = (ins Variadic<AnyType>:$args, PTX_ModifiersAttr:$mods,
                   OptionalAttr<DenseI32ArrayAttr>:$groups,
                   OptionalAttr<StrArrayAttr>:$selectors);
}
def PTX_VaddOp : PTX_VideoOp<"vadd", "scalar video add", "vadd.u32.u32.u32.sat d, a, b, c;">;
def PTX_VsubOp : PTX_VideoOp<"vsub", "scalar video subtract", "vsub.u32.u32.u32.sat d, a, b, c;">;
def PTX_VabsdiffOp : PTX_VideoOp<"vabsdiff", "scalar video absolute difference", "vabsdiff.u32.u32.u32.sat d, a, b, c;">;
def PTX_VminOp : PTX_VideoOp<"vmin", "scalar video minimum", "vmin.u32.u32.u32.sat d, a, b, c;">;
def PTX_VmaxOp : PTX_VideoOp<"vmax", "scalar video maximum", "vmax.u32.u32.u32.sat d, a, b, c;">;
def PTX_VshlOp : PTX_VideoOp<"vshl", "scalar video shift left", "vshl.u32.u32.u32.sat d, a, b, c;">;
def PTX_VshrOp : PTX_VideoOp<"vshr", "scalar video shift right", "vshr.u32.u32.u32.sat d, a, b, c;">;
def PTX_VmadOp : PTX_VideoOp<"vmad", "scalar video multiply-add", "vmad.u32.u32.u32.sat d, a, b, c;">;
def PTX_VsetOp : PTX_VideoOp<"vset", "scalar video compare", "vset.u32.u32.lt d, a, b, c;">;
def PTX_Vadd2Op : PTX_VideoOp<"vadd2", "SIMD add of half-words", "vadd2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vsub2Op : PTX_VideoOp<"vsub2", "SIMD subtract of half-words", "vsub2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vavrg2Op : PTX_VideoOp<"vavrg2", "SIMD average of half-words", "vavrg2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vabsdiff2Op : PTX_VideoOp<"vabsdiff2", "SIMD absolute difference of half-words", "vabsdiff2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vmin2Op : PTX_VideoOp<"vmin2", "SIMD minimum of half-words", "vmin2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vmax2Op : PTX_VideoOp<"vmax2", "SIMD maximum of half-words", "vmax2.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vset2Op : PTX_VideoOp<"vset2", "SIMD compare of half-words", "vset2.u32.u32.lt d, a, b, c;">;
def PTX_Vadd4Op : PTX_VideoOp<"vadd4", "SIMD add of bytes", "vadd4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vsub4Op : PTX_VideoOp<"vsub4", "SIMD subtract of bytes", "vsub4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vavrg4Op : PTX_VideoOp<"vavrg4", "SIMD average of bytes", "vavrg4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vabsdiff4Op : PTX_VideoOp<"vabsdiff4", "SIMD absolute difference of bytes", "vabsdiff4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vmin4Op : PTX_VideoOp<"vmin4", "SIMD minimum of bytes", "vmin4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vmax4Op : PTX_VideoOp<"vmax4", "SIMD maximum of bytes", "vmax4.u32.u32.u32.sat d, a, b, c;">;
def PTX_Vset4Op : PTX_VideoOp<"vset4", "SIMD compare of bytes", "vset4.u32.u32.lt d, a, b, c;">;

// Miscellaneous.
def PTX_TrapOp : PTX_InstOp<"trap", "abort execution with an error", "trap;", "mc::None", "fl::None", "p::None">;
def PTX_BrkptOp : PTX_InstOp<"brkpt", "breakpoint", "brkpt;", "mc::None", "fl::None", "p::None">;
def PTX_NanosleepOp : PTX_InstOp<"nanosleep", "suspend the thread for about a time", "nanosleep.u32 100;", "mc::T", "fl::None", "p::None">;
def PTX_PmeventOp : PTX_InstOp<"pmevent", "trigger a performance-monitor event", "pmevent 1; pmevent.mask 0x3;", "mc::EXTRA", "fl::None", "p::None">;
def PTX_SetmaxnregOp : PTX_InstOp<"setmaxnreg", "adjust the warp's register budget", "setmaxnreg.inc.sync.aligned.u32 240;", "mc::T | mc::FL | mc::EXTRA", "fl::SyncAligned", "p::None">;
def PTX_GriddepcontrolOp : PTX_InstOp<"griddepcontrol", "programmatic dependent launch control", "griddepcontrol.launch_dependents;", "mc::EXTRA", "fl::None", "p::None">;

#endif // ZLUDA_DIALECTS_PTX_PTXOPS_TD
