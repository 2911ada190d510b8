// The `unsupported:` diagnostics of the lowering: what no pattern lowers
// and what a family's support check refuses (SupportCheck.cpp), each
// reported with its location and the function holding it, before any
// conversion, rather than skipped or crashed on. One split per check.
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s -split-input-file -verify-diagnostics

// The modifier gate (every instruction): a modifier outside the common set
// and the instruction family's own (.cc is add/sub/mad's). set's flag set
// in the dialect is the arithmetic one, so the gate is what refuses it.
ptx.func @set_cc attributes {params = [], returns = []} {
  %0 = ptx.undef : f32
  // expected-error @+2 {{unsupported: set.lt.cc.u32.f32}}
  // expected-note @+1 {{in 'set_cc'}}
  %1 = ptx.set "lt.cc.u32.f32" %0, %0 : (f32, f32) -> i32
  ptx.ret
}

// -----

// .relu is min/max/fma's (and cvt's).
ptx.func @set_relu attributes {params = [], returns = []} {
  %0 = ptx.undef : f32
  // expected-error @+2 {{unsupported: set.lt.relu.u32.f32}}
  // expected-note @+1 {{in 'set_relu'}}
  %1 = ptx.set "lt.relu.u32.f32" %0, %0 : (f32, f32) -> i32
  ptx.ret
}

// -----

// add, sub, mul, neg, setp and cvt take only their own flags, as ptxas
// does (mul.lo.cc and add.relu are refused by it): the dialect refuses the
// others when it reads them.
ptx.func @mul_cc attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+1 {{unknown modifier '.cc'}}
  %1 = ptx.mul "lo.cc.u32" %0, %0 : (i32, i32) -> i32
  ptx.ret
}

// -----

// Arithmetic: directed rounding only where the operation has a directed
// lowering (not f16).
ptx.func @add_rz_f16 attributes {params = [], returns = []} {
  %0 = ptx.undef : i16
  // expected-error @+2 {{unsupported: add.rz.f16}}
  // expected-note @+1 {{in 'add_rz_f16'}}
  %1 = ptx.add "rz.f16" %0, %0 : (i16, i16) -> i16
  ptx.ret
}

// -----

// Arithmetic: packed 16-bit integers without .sat; packed halves only for
// the elementwise operations (not div).
ptx.func @packed attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+2 {{unsupported: add.sat.s16x2}}
  // expected-note @+1 {{in 'packed'}}
  %1 = ptx.add "sat.s16x2" %0, %0 : (i32, i32) -> i32
  // expected-error @+2 {{unsupported: div.rn.f16x2}}
  // expected-note @+1 {{in 'packed'}}
  %2 = ptx.div "rn.f16x2" %0, %0 : (i32, i32) -> i32
  ptx.ret
}

// -----

// Video instructions: whole words only, and .add or no secondary op.
ptx.func @video attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+2 {{unsupported: vadd.u32.u32.u32 with operand selectors}}
  // expected-note @+1 {{in 'video'}}
  %1 = ptx.vadd "u32.u32.u32" %0, %0 {selectors = ["", "b0", "h1"]} : (i32, i32) -> i32
  // expected-error @+2 {{unsupported: vadd.max.u32.u32.u32}}
  // expected-note @+1 {{in 'video'}}
  %2 = ptx.vadd "max.u32.u32.u32" %0, %0, %0 : (i32, i32, i32) -> i32
  ptx.ret
}

// -----

// CompareSelect: packed halves, not packed integers.
ptx.func @set_s16x2 attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+2 {{unsupported: set.lt.u32.s16x2}}
  // expected-note @+1 {{in 'set_s16x2'}}
  %1 = ptx.set "lt.u32.s16x2" %0, %0 : (i32, i32) -> i32
  ptx.ret
}

// -----

// Bit: lop3's table must be a constant.
ptx.func @lop3_table attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+2 {{unsupported: lop3.b32}}
  // expected-note @+1 {{in 'lop3_table'}}
  %1 = ptx.lop3 "b32" %0, %0, %0, %0 : (i32, i32, i32, i32) -> i32
  ptx.ret
}

// -----

// Convert: .rs (stochastic rounding), .rna other than to tf32, .relu from
// a float to an integer, .satfinite other than to FP8, .sat on pairs.
ptx.func @cvt attributes {params = [], returns = []} {
  %0 = ptx.undef : f32
  %1 = ptx.undef : i16
  %2 = ptx.undef : i32
  // expected-error @+2 {{unsupported: cvt.rs.f16x2.f32}}
  // expected-note @+1 {{in 'cvt'}}
  %3 = ptx.cvt "rs.f16x2.f32" %0, %0, %2 : (f32, f32, i32) -> i32
  // expected-error @+2 {{unsupported: cvt.rna.f32.f16}}
  // expected-note @+1 {{in 'cvt'}}
  %4 = ptx.cvt "rna.f32.f16" %1 : (i16) -> f32
  // expected-error @+2 {{unsupported: cvt.rn.relu.s32.f32}}
  // expected-note @+1 {{in 'cvt'}}
  %5 = ptx.cvt "rn.relu.s32.f32" %0 : (f32) -> i32
  // expected-error @+2 {{unsupported: cvt.rn.satfinite.f16.f32}}
  // expected-note @+1 {{in 'cvt'}}
  %6 = ptx.cvt "rn.satfinite.f16.f32" %0 : (f32) -> i16
  // expected-error @+2 {{unsupported: cvt.rn.sat.f16x2.f32}}
  // expected-note @+1 {{in 'cvt'}}
  %7 = ptx.cvt "rn.sat.f16x2.f32" %0, %0 : (f32, f32) -> i32
  ptx.ret
}

// -----

// Convert: mov packs and unpacks, it does not take packed types.
ptx.func @mov_f16x2 attributes {params = [], returns = []} {
  %0 = ptx.undef : i32
  // expected-error @+2 {{unsupported: mov.b32.f16x2}}
  // expected-note @+1 {{in 'mov_f16x2'}}
  %1 = ptx.mov "b32.f16x2" %0 : (i32) -> i32
  ptx.ret
}

// -----

// Memory: cp.async needs a constant copy size and has no ignore-src form
// yet.
ptx.func @cp_async attributes {params = [], returns = []} {
  %0 = ptx.local_var "buf" : shared b8 {dims = array<i64: 16>} -> !ptx.ptr<shared>
  %1 = ptx.undef : i64
  %2 = ptx.undef : i32
  // expected-error @+2 {{unsupported: cp.async.shared.global.ca with a non-constant size}}
  // expected-note @+1 {{in 'cp_async'}}
  ptx.cp.async "shared.global.ca" %0, %1, %2 : (!ptx.ptr<shared>, i64, i32) -> ()
  %3 = ptx.constant 16 : i32
  %4 = ptx.undef : i1
  // expected-error @+2 {{unsupported: cp.async.shared.global.ca with an ignore-src predicate}}
  // expected-note @+1 {{in 'cp_async'}}
  ptx.cp.async "shared.global.ca" %0, %1, %3, %4 : (!ptx.ptr<shared>, i64, i32, i1) -> ()
  ptx.ret
}

// -----

// Atomic: vector atomics are adds only.
ptx.func @atom_v2_max attributes {params = [], returns = []} {
  %0 = ptx.undef : i64
  %1 = ptx.undef : i16
  // expected-error @+2 {{unsupported: atom.global.max.v2.noftz.f16}}
  // expected-note @+1 {{in 'atom_v2_max'}}
  %2:2 = ptx.atom "global.max.noftz.v2.f16" %0, %1, %1 {groups = array<i32: 1, 2>}
      : (i64, i16, i16) -> (i16, i16)
  ptx.ret
}

// -----

// Barrier: membar with a word other than .gl.
ptx.func @membar_word attributes {params = [], returns = []} {
  // expected-error @+2 {{unsupported: membar.foo}}
  // expected-note @+1 {{in 'membar_word'}}
  ptx.membar "foo" : () -> ()
  ptx.ret
}

// -----

// Barrier: fence's tensor-map proxy forms and a state space without proxy.
ptx.func @fence_proxy attributes {params = [], returns = []} {
  // expected-error @+2 {{unsupported: fence.release.gpu.proxy.tensormap::generic}}
  // expected-note @+1 {{in 'fence_proxy'}}
  ptx.fence "release.gpu.proxy.tensormap::generic" : () -> ()
  // expected-error @+2 {{unsupported: fence.acq_rel.gpu.shared}}
  // expected-note @+1 {{in 'fence_proxy'}}
  ptx.fence "acq_rel.gpu.shared" : () -> ()
  ptx.ret
}

// -----

// Barrier: griddepcontrol's modes are wait and launch_dependents.
ptx.func @griddep_mode attributes {params = [], returns = []} {
  // expected-error @+2 {{unsupported: griddepcontrol.foo}}
  // expected-note @+1 {{in 'griddep_mode'}}
  ptx.griddepcontrol "foo" : () -> ()
  ptx.ret
}

// -----

// Warp: redux's integer forms only (the float ones and .abs are sm_100's).
ptx.func @redux attributes {params = [], returns = []} {
  %0 = ptx.constant -1 : i32
  %1 = ptx.undef : f32
  // expected-error @+2 {{unsupported: redux.min.sync.f32}}
  // expected-note @+1 {{in 'redux'}}
  %2 = ptx.redux "min.sync.f32" %1, %0 : (f32, i32) -> f32
  // expected-error @+2 {{unsupported: redux.min.abs.sync.s32}}
  // expected-note @+1 {{in 'redux'}}
  %3 = ptx.redux "min.abs.sync.s32" %0, %0 : (i32, i32) -> i32
  ptx.ret
}

// -----

// Function: the CUDA runtime's device-side launch has no implementation.
ptx.func @cudaLaunchDeviceV2 attributes {
    linkage = #ptx<linkage extern>,
    params = [#ptx.param<name = "a", space = param, type = b64>],
    returns = [#ptx.param<name = "r", space = param, type = b32>]} {
}
ptx.func @launch attributes {params = [], returns = []} {
  %0 = ptx.local_var "a" : param b64 -> !ptx.ptr<param>
  %1 = ptx.local_var "r" : param b32 -> !ptx.ptr<param>
  // expected-error @+2 {{unsupported: call to the CUDA device runtime function 'cudaLaunchDeviceV2' (dynamic parallelism: a device-side launch)}}
  // expected-note @+1 {{in 'launch'}}
  ptx.call @cudaLaunchDeviceV2 returns(%1 : !ptx.ptr<param>) args(%0 : !ptx.ptr<param>)
  ptx.ret
}

// -----

// Global: initializers of vectors, or with more values than elements (no
// function holds them: no note).
// expected-error @+1 {{initializer shape of 'vec' (vectors, or more values than elements)}}
ptx.global @vec : global u32 {init = dense<[1, 2]> : tensor<2xi32>, vec = 2 : i32}
// expected-error @+1 {{initializer shape of 'toomany' (vectors, or more values}}
ptx.global @toomany : global u32 {dims = array<i64: 2>, init = dense<[1, 2, 3]> : tensor<3xi32>}

// -----

// Global: symbol addresses under byte masks.
ptx.global @data : global u32 {dims = array<i64: 2>, init = dense<[1, 2]> : tensor<2xi32>}
// expected-error @+1 {{unsupported: initializer of 'bytes' (nested lists, or symbol addresses}}
ptx.global @bytes : global b8 {dims = array<i64: 2>,
    init = [#ptx.symaddr<symbol = @data, mask = 255>, #ptx.symaddr<symbol = @data, mask = 65280>]}

// -----

// SpecialRegister: %envreg<n> on AMDGPU is the grid workspace's address
// (1 and 2) only.
ptx.func @envreg3 attributes {params = [], returns = []} {
  // expected-error @+2 {{unsupported: special register %envreg3}}
  // expected-note @+1 {{in 'envreg3'}}
  %0 = ptx.sreg <envreg3> : i32
  ptx.ret
}

// -----

// An op no pattern lowers on AMDGPU (a texture fetch; the NVPTX target
// emits it as written when it carries its `native` spelling).
ptx.func @tex attributes {params = [], returns = []} {
  %0 = ptx.undef : i64
  %1 = ptx.undef : f32
  // expected-error @+2 {{unsupported: tex.1d.v4.f32.f32}}
  // expected-note @+1 {{in 'tex'}}
  %2:4 = ptx.tex "1d.v4.f32.f32" %0, %1 {groups = array<i32: 2>}
      : (i64, f32) -> (f32, f32, f32, f32)
  ptx.ret
}
