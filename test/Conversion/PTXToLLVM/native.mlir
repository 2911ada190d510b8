// The Native family (NativeOpToLLVM.cpp) from ptx-dialect input: the ops
// the AMDGPU lowering leaves out (barrier objects, matrix instructions,
// textures, surfaces), carrying NVIDIA's own spelling in their `native`
// attribute (the parser sets it for the NVPTX target), are inline PTX on
// NVPTX: results and operands in registers of their width (a predicate in
// a predicate register, several results as a struct), with side effects.
// AMDGPU lowers mbarrier and the matrix instructions itself
// (MbarrierOpToLLVM.cpp, MatrixOpToLLVM.cpp, not checked here) and reports
// each of the others as unsupported, in its function; pmevent, which the
// Function family lowers (to nothing), is not reported.
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s -verify-diagnostics

module {
  // NV-LABEL: llvm.func internal @mbarrier(
  // NV-SAME: %[[BAR:.*]]: i32)
  // NV: %[[N:.*]] = llvm.mlir.constant(32 : i32) : i32
  // NV: llvm.inline_asm has_side_effects "mbarrier.init.shared.b64 [$0], 32;", "r,r" %[[BAR]],
  // NV-SAME: %[[N]] : (i32, i32) -> ()
  // NV: llvm.inline_asm has_side_effects "mbarrier.arrive.shared::cta.b64 $0, [$1], 1;",
  // NV-SAME: "=l,r,r" %[[BAR]], %{{.*}} : (i32, i32) -> i64
  // NV: llvm.inline_asm has_side_effects "mbarrier.try_wait.parity.shared.b64 $0, [$1], 0;",
  // NV-SAME: "=b,r,r" %[[BAR]], %{{.*}} : (i32, i32) -> i1
  ptx.func @mbarrier attributes {
      params = [#ptx.param<name = "bar", space = reg, type = b32>],
      returns = []} {
  ^bb0(%bar: i32):
    %0 = ptx.constant 32 : i32
    ptx.mbarrier.init "shared.b64" %bar, %0 {native = "mbarrier.init.shared.b64 [$0], 32;"}
        : (i32, i32) -> ()
    %1 = ptx.constant 1 : i32
    %2 = ptx.mbarrier.arrive "shared::cta.b64" %bar, %1
        {native = "mbarrier.arrive.shared::cta.b64 $0, [$1], 1;"} : (i32, i32) -> i64
    %3 = ptx.constant 0 : i32
    %4 = ptx.mbarrier.try_wait "shared.parity.b64" %bar, %3
        {native = "mbarrier.try_wait.parity.shared.b64 $0, [$1], 0;"} : (i32, i32) -> i1
    ptx.ret
  }
  // NV-LABEL: llvm.func internal @mma(
  // NV-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: f32)
  // NV: %[[R:.*]] = llvm.inline_asm has_side_effects
  // NV-SAME: "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7},
  // NV-SAME: {$8, $9}, {$10, $11, $12, $13};",
  // NV-SAME: "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f" %[[A]], %[[A]], %[[A]], %[[A]], %[[B]], %[[B]],
  // NV-SAME: %[[C]], %[[C]], %[[C]], %[[C]]
  // NV-SAME: -> !llvm.struct<(f32, f32, f32, f32)>
  // NV: llvm.extractvalue %[[R]][0] : !llvm.struct<(f32, f32, f32, f32)>
  // NV: llvm.extractvalue %[[R]][3] : !llvm.struct<(f32, f32, f32, f32)>
  ptx.func @mma attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>,
                #ptx.param<name = "c", space = reg, type = f32>],
      returns = [#ptx.param<name = "d0", space = reg, type = f32>,
                 #ptx.param<name = "d1", space = reg, type = f32>,
                 #ptx.param<name = "d2", space = reg, type = f32>,
                 #ptx.param<name = "d3", space = reg, type = f32>]} {
  ^bb0(%d0: f32, %d1: f32, %d2: f32, %d3: f32, %a: i32, %b: i32, %c: f32):
    %0:4 = ptx.mma "m16n8k16.sync.aligned.row.col.f32.f16.f16.f32"
        %a, %a, %a, %a, %b, %b, %c, %c, %c, %c {groups = array<i32: 4, 2, 4>,
        native = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};"}
        : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> (f32, f32, f32, f32)
    ptx.ret %0#0, %0#1, %0#2, %0#3 : f32, f32, f32, f32
  }
  // The texture handle is a 64-bit register ("l").
  // NV-LABEL: llvm.func internal @tex2d(
  // NV: llvm.inline_asm has_side_effects "tex.2d.v4.f32.f32 {$0, $1, $2, $3}, [$4, {$5, $6}];",
  // NV-SAME: "=f,=f,=f,=f,l,f,f"
  ptx.func @tex2d attributes {
      params = [#ptx.param<name = "t", space = reg, type = b64>,
                #ptx.param<name = "x", space = reg, type = f32>,
                #ptx.param<name = "y", space = reg, type = f32>],
      returns = [#ptx.param<name = "r", space = reg, type = f32>,
                 #ptx.param<name = "g", space = reg, type = f32>]} {
  ^bb0(%r: f32, %g: f32, %t: i64, %x: f32, %y: f32):
    // expected-error @+2 {{unsupported: tex.2d.v4.f32.f32}}
    // expected-note @+1 {{in 'tex2d'}}
    %0:4 = ptx.tex "2d.v4.f32.f32" %t, %x, %y {groups = array<i32: 3>,
        native = "tex.2d.v4.f32.f32 {$0, $1, $2, $3}, [$4, {$5, $6}];"}
        : (i64, f32, f32) -> (f32, f32, f32, f32)
    ptx.ret %0#0, %0#1 : f32, f32
  }
  // NV-LABEL: llvm.func internal @surface(
  // NV: %[[V:.*]] = llvm.inline_asm has_side_effects "suld.b.2d.b32.trap {$0}, [$1, {$2, $3}];",
  // NV-SAME: "=r,l,r,r"
  // NV: llvm.inline_asm has_side_effects "sust.b.2d.b32.trap [$0, {$1, $2}], {$3};",
  // NV-SAME: "l,r,r,r" %{{.*}}, %{{.*}}, %{{.*}}, %[[V]]
  ptx.func @surface attributes {
      params = [#ptx.param<name = "s", space = reg, type = b64>,
                #ptx.param<name = "x", space = reg, type = b32>,
                #ptx.param<name = "y", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %s: i64, %x: i32, %y: i32):
    // expected-error @+2 {{unsupported: suld.2d.trap.b.b32}}
    // expected-note @+1 {{in 'surface'}}
    %0 = ptx.suld "2d.trap.b.b32" %s, %x, %y {groups = array<i32: 3>,
        native = "suld.b.2d.b32.trap {$0}, [$1, {$2, $3}];"} : (i64, i32, i32) -> i32
    // expected-error @+2 {{unsupported: sust.2d.trap.b.b32}}
    // expected-note @+1 {{in 'surface'}}
    ptx.sust "2d.trap.b.b32" %s, %x, %y, %0 {groups = array<i32: 3, 1>,
        native = "sust.b.2d.b32.trap [$0, {$1, $2}], {$3};"} : (i64, i32, i32, i32) -> ()
    ptx.ret %0 : i32
  }
  // NV-LABEL: llvm.func internal @profile(
  // NV: llvm.inline_asm has_side_effects "pmevent 3;", "r"
  ptx.func @profile attributes {params = [], returns = []} {
    %0 = ptx.constant 3 : i32
    ptx.pmevent "" %0 {native = "pmevent 3;"} : (i32) -> ()
    ptx.ret
  }
}
