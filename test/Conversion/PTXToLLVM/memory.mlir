// The Memory family (MemoryOpToLLVM.cpp) from ptx-dialect input: ld/ldu/st
// in each state space (address registers to pointers of the space's
// address space, `.shared`/`.local` through 32 bits), vectors as element
// accesses, .volatile, memory-model orderings as atomic accesses with the
// scope's syncscope (.gpu "agent", .cta "workgroup", .sys ""), ordered
// vectors as one access (a 64-bit atomic; 128 bits volatile between
// fences), prefetch as nothing, cvta, isspacep through the flat apertures,
// cp.async as a synchronous copy (zero-filled past the source size), local
// variables (shared ones as module globals), alloca/stacksave/stackrestore
// in the alloca address space. NVPTX: its scopes, intrinsics and generic
// allocas cast to addrspace(5).
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'

module {
  // Shared local variables become internal LDS globals named after their
  // function.
  // CHECK: llvm.mlir.global internal @shared_addr.tile() {addr_space = 3 : i32,
  // CHECK-SAME: alignment = 4 : i64} : !llvm.array<64 x i8>
  // CHECK: llvm.mlir.global internal @cp_async.buf() {addr_space = 3 : i32, alignment = 16 : i64}
  // CHECK-SAME: : !llvm.array<32 x i8>

  // CHECK-LABEL: llvm.func internal @ld_global(
  // CHECK-SAME: %[[P:.*]]: i64) -> i32
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: %[[A:.*]] = llvm.add %[[P]], %[[OFF]] : i64
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<1>
  // CHECK: %[[V:.*]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  // CHECK: llvm.return %[[V]] : i32
  ptx.func @ld_global attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64):
    %0 = ptx.addr %p + 8 : i64
    %1 = ptx.ld "global.u32" %0 : (i64) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @ld_generic(
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  // CHECK: llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> f32
  ptx.func @ld_generic attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = f32>]} {
  ^bb0(%d: f32, %p: i64):
    %0 = ptx.ld "f32" %p : (i64) -> f32
    ptx.ret %0 : f32
  }
  // A .shared address is 32 bits; a plain vector is one load per element
  // (the first with the vector's alignment).
  // CHECK-LABEL: llvm.func internal @ld_v2_shared(
  // CHECK-SAME: %[[P:.*]]: i64) -> !llvm.struct<(i32, i32)>
  // CHECK: %[[A:.*]] = llvm.trunc %[[P]] : i64 to i32
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i32 to !llvm.ptr<3>
  // CHECK: %[[X:.*]] = llvm.load %[[PTR]] {alignment = 8 : i64} : !llvm.ptr<3> -> i32
  // CHECK: %[[P1:.*]] = llvm.getelementptr %[[PTR]][1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i32
  // CHECK: %[[Y:.*]] = llvm.load %[[P1]] {alignment = 4 : i64} : !llvm.ptr<3> -> i32
  // CHECK: llvm.insertvalue %[[X]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[Y]], %{{.*}}[1]
  ptx.func @ld_v2_shared attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "e", space = reg, type = b32>]} {
  ^bb0(%d: i32, %e: i32, %p: i64):
    %0:2 = ptx.ld "shared.v2.u32" %p : (i64) -> (i32, i32)
    ptx.ret %0#0, %0#1 : i32, i32
  }
  // CHECK-LABEL: llvm.func internal @ld_volatile(
  // CHECK: llvm.load volatile %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  ptx.func @ld_volatile attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64):
    %0 = ptx.ld "global.volatile.u32" %p : (i64) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @ld_acquire_gpu(
  // CHECK: llvm.load %{{.*}} atomic syncscope("agent") acquire {alignment = 4 : i64} : !llvm.ptr<1>
  // CHECK-SAME: -> i32
  // NV-LABEL: llvm.func internal @ld_acquire_gpu(
  // NV: llvm.load %{{.*}} atomic syncscope("device") acquire {alignment = 4 : i64} : !llvm.ptr<1>
  // NV-SAME: -> i32
  ptx.func @ld_acquire_gpu attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64):
    %0 = ptx.ld "acquire.gpu.global.u32" %p : (i64) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @ld_relaxed_sys(
  // CHECK: llvm.load %{{.*}} atomic syncscope("") monotonic {alignment = 8 : i64} : !llvm.ptr
  // CHECK-SAME: -> i64
  ptx.func @ld_relaxed_sys attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %p: i64):
    %0 = ptx.ld "relaxed.sys.u64" %p : (i64) -> i64
    ptx.ret %0 : i64
  }
  // An ordered vector is one access: two u32 as one atomic i64, then split.
  // CHECK-LABEL: llvm.func internal @ld_relaxed_v2(
  // CHECK: %[[W:.*]] = llvm.load %{{.*}} atomic syncscope("agent") monotonic {alignment = 8 : i64}
  // CHECK-SAME: : !llvm.ptr -> i64
  // CHECK-NOT: llvm.load
  // CHECK: llvm.trunc %{{.*}} : i64 to i32
  // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : i64) : i64
  // CHECK: llvm.lshr %[[W]], %[[C32]] : i64
  ptx.func @ld_relaxed_v2 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "e", space = reg, type = b32>]} {
  ^bb0(%d: i32, %e: i32, %p: i64):
    %0:2 = ptx.ld "relaxed.gpu.v2.u32" %p : (i64) -> (i32, i32)
    ptx.ret %0#0, %0#1 : i32, i32
  }
  // CHECK-LABEL: llvm.func internal @ld_nc(
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  ptx.func @ld_nc attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64):
    %0 = ptx.ld "global.nc.u32" %p : (i64) -> i32
    ptx.ret %0 : i32
  }
  // ldu is a plain load.
  // CHECK-LABEL: llvm.func internal @ldu_global(
  // CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<1> -> i32
  ptx.func @ldu_global attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i64):
    %0 = ptx.ldu "global.u32" %p : (i64) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @st_global(
  // CHECK-SAME: %[[P:.*]]: i64, %[[V:.*]]: i32)
  // CHECK: %[[A:.*]] = llvm.add %[[P]], %{{.*}} : i64
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<1>
  // CHECK: llvm.store %[[V]], %[[PTR]] {alignment = 4 : i64} : i32, !llvm.ptr<1>
  ptx.func @st_global attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = []} {
  ^bb0(%p: i64, %v: i32):
    %0 = ptx.addr %p + 4 : i64
    ptx.st "global.u32" %0, %v : (i64, i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @st_v4_f32(
  // CHECK-SAME: %{{.*}}: i64, %[[A:.*]]: f32, %[[B:.*]]: f32)
  // CHECK: %[[PTR:.*]] = llvm.inttoptr
  // CHECK: llvm.store %[[A]], %[[PTR]] {alignment = 16 : i64} : f32, !llvm.ptr<1>
  // CHECK: %[[P1:.*]] = llvm.getelementptr %[[PTR]][1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  // CHECK: llvm.store %[[B]], %[[P1]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
  // CHECK: llvm.getelementptr %[[PTR]][3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  ptx.func @st_v4_f32 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = f32>,
                #ptx.param<name = "b", space = reg, type = f32>],
      returns = []} {
  ^bb0(%p: i64, %a: f32, %b: f32):
    ptx.st "global.v4.f32" %p, %a, %b, %a, %b {groups = array<i32: 1, 4>}
        : (i64, f32, f32, f32, f32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @st_release_cta(
  // CHECK: llvm.store %{{.*}}, %{{.*}} atomic syncscope("workgroup") release {alignment = 4 : i64}
  // CHECK-SAME: : i32, !llvm.ptr<3>
  // NV-LABEL: llvm.func internal @st_release_cta(
  // NV: llvm.store %{{.*}}, %{{.*}} atomic syncscope("block") release {alignment = 4 : i64} : i32,
  // NV-SAME: !llvm.ptr<3>
  ptx.func @st_release_cta attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "v", space = reg, type = b32>],
      returns = []} {
  ^bb0(%p: i64, %v: i32):
    ptx.st "release.cta.shared.u32" %p, %v : (i64, i32) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @st_volatile_v4(
  // CHECK-COUNT-4: llvm.store volatile %{{.*}}, %{{.*}} : i32, !llvm.ptr
  ptx.func @st_volatile_v4 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = b32>],
      returns = []} {
  ^bb0(%p: i64, %a: i32):
    ptx.st "v4.volatile.u32" %p, %a, %a, %a, %a {groups = array<i32: 1, 4>}
        : (i64, i32, i32, i32, i32) -> ()
    ptx.ret
  }
  // 128 bits with an ordering: the release fence, then one volatile store.
  // CHECK-LABEL: llvm.func internal @st_release_v2_u64(
  // CHECK: %[[C64:.*]] = llvm.mlir.constant(64 : i128) : i128
  // CHECK: llvm.shl %{{.*}}, %[[C64]] : i128
  // CHECK: %[[Q:.*]] = llvm.or %{{.*}}, %{{.*}} : i128
  // CHECK-NEXT: llvm.fence syncscope("agent") release
  // CHECK: %[[V:.*]] = llvm.bitcast %[[Q]] : i128 to vector<4xi32>
  // CHECK: llvm.store volatile %[[V]], %{{.*}} {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
  // CHECK-NOT: llvm.store
  ptx.func @st_release_v2_u64 attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "a", space = reg, type = b64>],
      returns = []} {
  ^bb0(%p: i64, %a: i64):
    ptx.st "release.gpu.v2.u64" %p, %a, %a {groups = array<i32: 1, 2>} : (i64, i64, i64) -> ()
    ptx.ret
  }
  // Prefetches are hints: nothing.
  // CHECK-LABEL: llvm.func internal @prefetch_only(
  // CHECK-NEXT: llvm.return
  ptx.func @prefetch_only attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = []} {
  ^bb0(%p: i64):
    ptx.prefetch "global.L2" %p : (i64) -> ()
    ptx.prefetchu "L1" %p : (i64) -> ()
    ptx.ret
  }
  // CHECK-LABEL: llvm.func internal @cvta_to_global(
  // CHECK: %[[G:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  // CHECK: %[[C:.*]] = llvm.addrspacecast %[[G]] : !llvm.ptr to !llvm.ptr<1>
  // CHECK: llvm.ptrtoint %[[C]] : !llvm.ptr<1> to i64
  ptx.func @cvta_to_global attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %p: i64):
    %0 = ptx.cvta "global.to.u64" %p : (i64) -> i64
    ptx.ret %0 : i64
  }
  // CHECK-LABEL: llvm.func internal @cvta_shared(
  // CHECK: %[[S:.*]] = llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
  // CHECK: %[[C:.*]] = llvm.addrspacecast %[[S]] : !llvm.ptr<3> to !llvm.ptr
  // CHECK: llvm.ptrtoint %[[C]] : !llvm.ptr to i64
  ptx.func @cvta_shared attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64, %p: i64):
    %0 = ptx.cvta "shared.u64" %p : (i64) -> i64
    ptx.ret %0 : i64
  }
  // Global is neither of AMDGPU's other apertures.
  // CHECK-LABEL: llvm.func internal @isspacep_global(
  // CHECK: %[[PTR:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
  // CHECK: %[[S:.*]] = llvm.call_intrinsic "llvm.amdgcn.is.shared"(%[[PTR]]) : (!llvm.ptr) -> i1
  // CHECK: %[[L:.*]] = llvm.call_intrinsic "llvm.amdgcn.is.private"(%[[PTR]]) : (!llvm.ptr) -> i1
  // CHECK: %[[E:.*]] = llvm.or %[[S]], %[[L]] : i1
  // CHECK: llvm.xor %[[E]], %{{.*}} : i1
  // NV-LABEL: llvm.func internal @isspacep_global(
  // NV: llvm.call_intrinsic "llvm.nvvm.isspacep.global"(%{{.*}}) : (!llvm.ptr) -> i1
  ptx.func @isspacep_global attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i64):
    %0 = ptx.isspacep "global" %p : (i64) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @isspacep_shared(
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.is.shared"
  // NV-LABEL: llvm.func internal @isspacep_shared(
  // NV: llvm.call_intrinsic "llvm.nvvm.isspacep.shared"
  ptx.func @isspacep_shared attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i64):
    %0 = ptx.isspacep "shared" %p : (i64) -> i1
    ptx.ret %0 : i1
  }
  // CHECK-LABEL: llvm.func internal @isspacep_local(
  // CHECK: llvm.call_intrinsic "llvm.amdgcn.is.private"
  // NV-LABEL: llvm.func internal @isspacep_local(
  // NV: llvm.call_intrinsic "llvm.nvvm.isspacep.local"
  ptx.func @isspacep_local attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i64):
    %0 = ptx.isspacep "local" %p : (i64) -> i1
    ptx.ret %0 : i1
  }
  // cp.async copies at once (commit/wait are nothing); with a source size
  // each byte below it is read (masked: the others are never read), the
  // others are zero.
  // CHECK-LABEL: llvm.func internal @cp_async(
  // CHECK-SAME: %[[P:.*]]: i64, %[[N:.*]]: i32)
  // CHECK: %[[BUF:.*]] = llvm.mlir.addressof @cp_async.buf : !llvm.ptr<3>
  // CHECK: %[[SRC:.*]] = llvm.inttoptr %[[P]] : i64 to !llvm.ptr<1>
  // CHECK: %[[SIZE:.*]] = llvm.mlir.constant(16 : i32) : i32
  // CHECK: "llvm.intr.memcpy"(%[[BUF]], %[[SRC]], %[[SIZE]]) <{isVolatile = false}>
  // CHECK-SAME: : (!llvm.ptr<3>, !llvm.ptr<1>, i32) -> ()
  // CHECK: %[[DST:.*]] = llvm.getelementptr %[[BUF]][%{{.*}}] : (!llvm.ptr<3>, i64)
  // CHECK-SAME: -> !llvm.ptr<3>, i8
  // CHECK: %[[IN:.*]] = llvm.icmp "slt" %{{.*}}, %[[N]] : i32
  // CHECK: %[[M:.*]] = llvm.bitcast %[[IN]] : i1 to vector<1xi1>
  // CHECK: %[[Z:.*]] = llvm.mlir.zero : vector<1xi8>
  // CHECK: %[[B:.*]] = llvm.intr.masked.load %{{.*}}, %[[M]], %[[Z]] {alignment = 1 : i32}
  // CHECK-SAME: : (!llvm.ptr<1>, vector<1xi1>, vector<1xi8>) -> vector<1xi8>
  // CHECK: %[[V:.*]] = llvm.bitcast %[[B]] : vector<1xi8> to i8
  // CHECK: llvm.store %[[V]], %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
  // CHECK-COUNT-3: llvm.store %{{.*}}, %{{.*}} {alignment = 1 : i64} : i8, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  // CHECK: llvm.return
  ptx.func @cp_async attributes {
      params = [#ptx.param<name = "p", space = reg, type = b64>,
                #ptx.param<name = "n", space = reg, type = b32>],
      returns = []} {
  ^bb0(%p: i64, %n: i32):
    %0 = ptx.local_var "buf" : shared b8
        {alignment = 16 : i64, dims = array<i64: 32>} -> !ptx.ptr<shared>
    %1 = ptx.constant 16 : i32
    ptx.cp.async "shared.global.ca" %0, %p, %1 : (!ptx.ptr<shared>, i64, i32) -> ()
    %2 = ptx.addr %0 + 16 : !ptx.ptr<shared>
    %3 = ptx.constant 4 : i32
    ptx.cp.async "shared.global.ca" %2, %p, %3, %n : (!ptx.ptr<shared>, i64, i32, i32) -> ()
    ptx.cp.async.commit_group "" : () -> ()
    %4 = ptx.constant 0 : i32
    ptx.cp.async.wait_group "" %4 : (i32) -> ()
    ptx.cp.async.wait_all "" : () -> ()
    ptx.ret
  }
  // A .local variable is a stack slot in addrspace(5) (NVPTX: a generic
  // alloca cast to it).
  // CHECK-LABEL: llvm.func internal @local_var(
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x i8> {alignment = 8 : i64} : (i32)
  // CHECK-SAME: -> !llvm.ptr<5>
  // CHECK: %[[P:.*]] = llvm.getelementptr %[[SLOT]][%{{.*}}] : (!llvm.ptr<5>, i64)
  // CHECK-SAME: -> !llvm.ptr<5>, i8
  // CHECK: llvm.store %{{.*}}, %[[P]] {alignment = 4 : i64} : i32, !llvm.ptr<5>
  // NV-LABEL: llvm.func internal @local_var(
  // NV: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.array<8 x i8> {alignment = 8 : i64} : (i32)
  // NV-SAME: -> !llvm.ptr
  // NV: llvm.addrspacecast %[[SLOT]] : !llvm.ptr to !llvm.ptr<5>
  ptx.func @local_var attributes {
      params = [#ptx.param<name = "v", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %v: i32):
    %0 = ptx.local_var "tmp" : local b32
        {alignment = 8 : i64, dims = array<i64: 2>} -> !ptx.ptr<local>
    %1 = ptx.addr %0 + 4 : !ptx.ptr<local>
    ptx.st "local.u32" %1, %v : (!ptx.ptr<local>, i32) -> ()
    %2 = ptx.addr %0 + 4 : !ptx.ptr<local>
    %3 = ptx.ld "local.u32" %2 : (!ptx.ptr<local>) -> i32
    ptx.ret %3 : i32
  }
  // mov of a variable's name is its address in its own space.
  // CHECK-LABEL: llvm.func internal @shared_addr(
  // CHECK: %[[G:.*]] = llvm.mlir.addressof @shared_addr.tile : !llvm.ptr<3>
  // CHECK: %[[A:.*]] = llvm.ptrtoint %[[G]] : !llvm.ptr<3> to i64
  // CHECK: llvm.return %[[A]] : i64
  ptx.func @shared_addr attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b64>]} {
  ^bb0(%d: i64):
    %0 = ptx.local_var "tile" : shared b32
        {alignment = 4 : i64, dims = array<i64: 16>} -> !ptx.ptr<shared>
    %1 = ptx.mov "u64" %0 : (!ptx.ptr<shared>) -> i64
    ptx.ret %1 : i64
  }
  // CHECK-LABEL: llvm.func internal @alloca_stack(
  // CHECK-SAME: %[[N:.*]]: i64) -> i32
  // CHECK: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr<5>
  // CHECK: %[[SPI:.*]] = llvm.ptrtoint %[[SP]] : !llvm.ptr<5> to i64
  // CHECK: llvm.alloca %[[N]] x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr<5>
  // CHECK: %[[R:.*]] = llvm.inttoptr %[[SPI]] : i64 to !llvm.ptr<5>
  // CHECK: llvm.intr.stackrestore %[[R]] : !llvm.ptr<5>
  // NV-LABEL: llvm.func internal @alloca_stack(
  // NV: %[[SP:.*]] = llvm.intr.stacksave : !llvm.ptr
  // NV: llvm.addrspacecast %[[SP]] : !llvm.ptr to !llvm.ptr<5>
  // NV: %[[A:.*]] = llvm.alloca %{{.*}} x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  // NV: llvm.addrspacecast %[[A]] : !llvm.ptr to !llvm.ptr<5>
  ptx.func @alloca_stack attributes {
      params = [#ptx.param<name = "n", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %n: i64):
    %0 = ptx.stacksave "u64" : () -> i64
    %1 = ptx.constant 16 : i64
    %2 = ptx.alloca "u64" %n, %1 : (i64, i64) -> i64
    %3 = ptx.constant 1 : i32
    ptx.st "local.u32" %2, %3 : (i64, i32) -> ()
    %4 = ptx.ld "local.u32" %2 : (i64) -> i32
    ptx.stackrestore "u64" %0 : (i64) -> ()
    ptx.ret %4 : i32
  }
}
