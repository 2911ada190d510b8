// Every verifier error of the ptx dialect, and the parse errors of the
// instruction modifier string, `#ptx.mods` and `#ptx.sreg`.
// RUN: zluda-opt %s -split-input-file -verify-diagnostics

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.add' op does not accept modifier '.global'}}
  %0 = "ptx.add"(%c, %c) <{mods = #ptx.mods<"space:global type:s32">}> : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.add' op does not accept flag '.trans'}}
  %0 = "ptx.add"(%c, %c) <{mods = #ptx.mods<"flag:trans type:s32">}> : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  // expected-error @+1 {{'ptx.st' op writes no destination but has 1 results}}
  %0 = ptx.st "global.u64" %c, %c : (i64, i64) -> i64
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  // expected-error @+1 {{'ptx.st' op operand group sizes must be positive}}
  ptx.st "global.u64" %c, %c {groups = array<i32: 0, 2>} : (i64, i64) -> ()
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  // expected-error @+1 {{'ptx.st' op operand groups cover 3 operands but the op has 2}}
  ptx.st "global.v2.u64" %c, %c {groups = array<i32: 1, 2>} : (i64, i64) -> ()
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.add' op result of 64 bits does not match the .s32 instruction type (32 bits)}}
  %0 = ptx.add "s32" %c, %c : (i32, i32) -> i64
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.mul' op result of 32 bits does not match the .s32 instruction type (64 bits)}}
  %0 = ptx.mul "wide.s32" %c, %c : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.setp' op destinations must be predicates (i1)}}
  %0 = ptx.setp "eq.s32" %c, %c : (i32, i32) -> i32
  ptx.ret
}

// -----

// expected-error @+1 {{'ptx.global' op alignment 3 is not a power of two}}
ptx.global @g : global u32 {alignment = 3 : i64}

// -----

// expected-error @+1 {{'ptx.global' op cannot declare a module-scope variable in .param}}
ptx.global @g : param u32

// -----

// expected-error @+1 {{'ptx.global' op array dimension must not be negative}}
ptx.global @g : global u32 {dims = array<i64: -1>}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{'ptx.local_var' op alignment 6 is not a power of two}}
  %0 = ptx.local_var "x" : local b8 {alignment = 6 : i64} -> !ptx.ptr<local>
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{'ptx.local_var' op cannot declare a function-scope variable in .global}}
  %0 = ptx.local_var "x" : global b8 -> !ptx.ptr<global>
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{'ptx.local_var' op result must be an address in the variable's space}}
  %0 = ptx.local_var "x" : local b8 -> !ptx.ptr<shared>
  ptx.ret
}

// -----

// expected-error @+1 {{'ptx.entry' op thread-count directives take 1 to 3 values}}
ptx.entry @k attributes {params = [], maxntid = array<i32: 1, 2, 3, 4>} {
  ptx.ret
}

// -----

// expected-error @+1 {{'ptx.entry' op entry block has 0 arguments for 1 declared parameters}}
ptx.entry @k attributes {params = [#ptx.param<name = "p", space = param, type = u64>]} {
  ptx.ret
}

// -----

// expected-error @+1 {{'ptx.entry' op parameter 'p' has block argument type 'i64'}}
ptx.entry @k attributes {params = [#ptx.param<name = "p", space = param, type = u64>]} {
^bb0(%p: i64):
  ptx.ret
}

// -----

// expected-error @+1 {{'ptx.entry' op kernels cannot return parameters}}
ptx.entry @k attributes {params = [], returns = [#ptx.param<name = "r", space = param, type = u32>]} {
^bb0(%r: !ptx.ptr<param>):
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{'ptx.sreg' op %tid reads as i32}}
  %0 = ptx.sreg <tid.x> : i64
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{'ptx.call' op needs exactly one of a callee symbol or a target address}}
  "ptx.call"() <{operandSegmentSizes = array<i32: 0, 0, 0>}> : () -> ()
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{unknown modifier '.bogus'}}
  %0 = ptx.add "bogus.s32" %c, %c : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1.0 : f32
  // expected-error @+1 {{duplicate rounding modifier '.rz'}}
  %0 = ptx.add "rn.rz.f32" %c, %c : (f32, f32) -> f32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{unknown modifier class 'bogus'}}
  %0 = "ptx.add"(%c, %c) <{mods = #ptx.mods<"bogus:x">}> : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'.xx' is not a rounding}}
  %0 = "ptx.add"(%c, %c) <{mods = #ptx.mods<"rnd:xx">}> : (i32, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  // expected-error @+1 {{unknown special register 'tid.w'}}
  %0 = ptx.sreg <tid.w> : i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  %f = ptx.constant 1.0 : f32
  // expected-error @+1 {{'ptx.atom' op .cas takes .b16, .b32, .b64 or .b128, not .f32}}
  %0 = ptx.atom "global.cas.f32" %c, %f, %f : (i64, f32, f32) -> f32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  %v = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.atom' op .exch takes .b32, .b64 or .b128, not .u32}}
  %0 = ptx.atom "global.exch.u32" %c, %v : (i64, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  %v = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.red' op .and takes .b32 or .b64, not .u32}}
  ptx.red "global.and.u32" %c, %v : (i64, i32) -> ()
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  %v = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.atom' op .inc takes .u32, not .s32}}
  %0 = ptx.atom "global.inc.s32" %c, %v : (i64, i32) -> i32
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i64
  // expected-error @+1 {{'ptx.ld' op cannot load .f32 into a .pred register}}
  %0 = ptx.ld "global.f32" %c : (i64) -> i1
  ptx.ret
}

// -----

ptx.entry @k attributes {params = []} {
  %c = ptx.constant 1 : i32
  // expected-error @+1 {{'ptx.lop3' op takes .b32, not .pred}}
  %0 = ptx.lop3 "pred" %c, %c, %c, %c : (i32, i32, i32, i32) -> i32
  ptx.ret
}
