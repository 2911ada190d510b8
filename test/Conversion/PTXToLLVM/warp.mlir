// The Warp family (WarpOpToLLVM.cpp) from ptx-dialect input: shfl's source
// lane (up/down/bfly/idx with the clamp and segment mask of c, the lane's
// own value when out of range, the predicate of validity) read through
// ds_bpermute, or ds_swizzle for a constant bfly (NVPTX: shfl.sync idx
// with the member mask); vote through a
// ballot masked by the member mask (any, all, uni, ballot); redux and match
// reading each lane at a constant index with readlane (redux skipping lanes
// outside the mask, from the operation's identity); activemask;
// bar.warp.sync as a wave barrier with wavefront-scope ordering (NVPTX:
// bar.warp.sync with the mask).
// Nothing of the ptx dialect may be left, op or type (--implicit-check-not).
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx1100 %s \
// RUN:   | FileCheck %s --implicit-check-not='{{[ !]ptx\.}}'
// RUN: zluda-opt --convert-ptx-to-llvm="target=nvptx chip=sm_90" %s \
// RUN:   | FileCheck %s --check-prefix=NV --implicit-check-not='{{[ !]ptx\.}}'
// wave64 (gfx942): every op takes the thread's half of the wave (lanes
// 0-31 or 32-63): the wave lane from mbcnt lo and hi, the half's first lane
// (lane & 32) or'ed into shuffle sources, ballots shifted right by it,
// constant lanes read in both halves; bar.warp.sync as on wave32.
// RUN: zluda-opt --convert-ptx-to-llvm=chip=gfx942 %s \
// RUN:   | FileCheck %s --check-prefix=W64 --implicit-check-not='{{[ !]ptx\.}}'
// W64-LABEL: llvm.func internal @shfl_idx(
// W64: %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// W64-NEXT: %[[BASE:.*]] = llvm.and %{{.*}}, %[[C32]] : i32
// W64-NEXT: %[[SRC:.*]] = llvm.or %{{.*}}, %[[BASE]] : i32
// W64: rocdl.ds_bpermute
// W64-LABEL: llvm.func internal @shfl_down(
// W64: rocdl.mbcnt.hi
// W64: llvm.or
// W64: rocdl.ds_bpermute
// W64-LABEL: llvm.func internal @shfl_up(
// W64: rocdl.mbcnt.hi
// W64: rocdl.ds_bpermute
// W64-LABEL: llvm.func internal @shfl_bfly(
// W64: rocdl.ds_swizzle
// W64-LABEL: llvm.func internal @vote_ballot(
// W64: %[[B:.*]] = rocdl.ballot %{{.*}} : i64
// W64: %[[H:.*]] = llvm.lshr %[[B]], %{{.*}} : i64
// W64: llvm.trunc %[[H]] : i64 to i32
// W64-LABEL: llvm.func internal @vote_any(
// W64: rocdl.ballot %{{.*}} : i64
// W64: llvm.lshr
// W64: llvm.icmp "ne"
// W64-LABEL: llvm.func internal @vote_all(
// W64: rocdl.ballot %{{.*}} : i64
// W64: llvm.icmp "eq"
// W64-LABEL: llvm.func internal @vote_uni(
// W64-COUNT-2: rocdl.ballot %{{.*}} : i64
// W64-LABEL: llvm.func internal @redux_add(
// W64-COUNT-64: rocdl.readlane
// W64-NOT: rocdl.readlane
// W64-LABEL: llvm.func internal @redux_min_s32(
// W64: rocdl.readlane
// W64-LABEL: llvm.func internal @redux_or(
// W64: rocdl.readlane
// W64-LABEL: llvm.func internal @match_any(
// W64-COUNT-64: rocdl.readlane
// W64-NOT: rocdl.readlane
// W64-LABEL: llvm.func internal @match_all_b64(
// W64-COUNT-128: rocdl.readlane
// W64-NOT: rocdl.readlane
// W64-LABEL: llvm.func internal @activemask(
// W64: rocdl.ballot %{{.*}} : i64
// W64: llvm.trunc %{{.*}} : i64 to i32
// W64-LABEL: llvm.func internal @warp_sync(
// W64-NEXT: llvm.fence syncscope("wavefront") acq_rel
// W64-NEXT: llvm.call_intrinsic "llvm.amdgcn.wave.barrier"() : () -> ()

module {
  // shfl.idx with c = 0x1f: j = (lane & segmask) | (b & ~segmask), the own
  // lane's value where j is beyond the clamp; ds_bpermute addresses bytes.
  // CHECK-LABEL: llvm.func internal @shfl_idx(
  // CHECK-SAME: %[[A:.*]]: i32, %[[B:.*]]: i32) -> i32
  // CHECK: %[[BL:.*]] = llvm.and %[[B]], %{{.*}} : i32
  // CHECK: %[[LANE0:.*]] = rocdl.mbcnt.lo %{{.*}}, %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[LANE:.*]] = llvm.and %[[LANE0]], %{{.*}} : i32
  // CHECK: %[[MAX:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
  // CHECK: %[[J0:.*]] = llvm.and %[[BL]], %{{.*}} : i32
  // CHECK: %[[J:.*]] = llvm.or %{{.*}}, %[[J0]] : i32
  // CHECK: %[[OK:.*]] = llvm.icmp "sle" %[[J]], %[[MAX]] : i32
  // CHECK: %[[SRC:.*]] = llvm.select %[[OK]], %[[J]], %[[LANE]] : i1, i32
  // CHECK: %[[C2:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[ADDR:.*]] = llvm.shl %[[SRC]], %[[C2]] : i32
  // CHECK: %[[R:.*]] = rocdl.ds_bpermute %[[ADDR]], %[[A]] : (i32, i32) -> i32
  // CHECK: llvm.return %[[R]] : i32
  // NV-LABEL: llvm.func internal @shfl_idx(
  // NV: nvvm.read.ptx.sreg.laneid : i32
  // NV: nvvm.shfl.sync  idx %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
  ptx.func @shfl_idx attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "b", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %b: i32):
    %0 = ptx.constant 31 : i32
    %1 = ptx.constant -1 : i32
    %2 = ptx.shfl "idx.sync.b32" %a, %b, %0, %1 : (i32, i32, i32, i32) -> i32
    ptx.ret %2 : i32
  }
  // shfl.down: j = lane + b, valid up to the segment's end; p is validity.
  // CHECK-LABEL: llvm.func internal @shfl_down(
  // CHECK: %[[L0:.*]] = rocdl.mbcnt.lo
  // CHECK: %[[LANE:.*]] = llvm.and %[[L0]], %{{.*}} : i32
  // CHECK: %[[MAX:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
  // CHECK: %[[J:.*]] = llvm.add %[[LANE]], %{{.*}} : i32
  // CHECK: %[[OK:.*]] = llvm.icmp "sle" %[[J]], %[[MAX]] : i32
  // CHECK: %[[SRC:.*]] = llvm.select %[[OK]], %[[J]], %[[LANE]] : i1, i32
  // CHECK: %[[R:.*]] = rocdl.ds_bpermute %{{.*}}, %{{.*}} : (i32, i32) -> i32
  // CHECK: llvm.insertvalue %[[R]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[OK]], %{{.*}}[1]
  // NV-LABEL: llvm.func internal @shfl_down(
  // NV-SAME: %{{.*}}: i32, %[[M:.*]]: i32)
  // NV: nvvm.shfl.sync  idx %[[M]], %{{.*}}, %{{.*}}, %{{.*}} : i32 -> i32
  ptx.func @shfl_down attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "m", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%d: i32, %p: i1, %a: i32, %m: i32):
    %0 = ptx.constant 1 : i32
    %1 = ptx.constant 31 : i32
    %2:2 = ptx.shfl "down.sync.b32" %a, %0, %1, %m : (i32, i32, i32, i32) -> (i32, i1)
    ptx.ret %2#0, %2#1 : i32, i1
  }
  // shfl.up: j = lane - b, valid down to the segment's start.
  // CHECK-LABEL: llvm.func internal @shfl_up(
  // CHECK: %[[L0:.*]] = rocdl.mbcnt.lo
  // CHECK: %[[LANE:.*]] = llvm.and %[[L0]], %{{.*}} : i32
  // CHECK: %[[MIN:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
  // CHECK: %[[J:.*]] = llvm.sub %[[LANE]], %{{.*}} : i32
  // CHECK: llvm.icmp "sge" %[[J]], %[[MIN]] : i32
  // CHECK: rocdl.ds_bpermute
  ptx.func @shfl_up attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant 2 : i32
    %1 = ptx.constant 0 : i32
    %2 = ptx.constant -1 : i32
    %3 = ptx.shfl "up.sync.b32" %a, %0, %1, %2 : (i32, i32, i32, i32) -> i32
    ptx.ret %3 : i32
  }
  // bfly with constant b and c: a fixed permute, ds_swizzle with and 31
  // and xor 4 (shfl-fixed.ptx has the other shapes).
  // CHECK-LABEL: llvm.func internal @shfl_bfly(
  // CHECK: %[[O:.*]] = llvm.mlir.constant(4127 : i32) : i32
  // CHECK: rocdl.ds_swizzle %{{.*}}, %[[O]] : (i32, i32) -> i32
  // CHECK-NOT: rocdl.ds_bpermute
  ptx.func @shfl_bfly attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant 4 : i32
    %1 = ptx.constant 31 : i32
    %2 = ptx.constant -1 : i32
    %3 = ptx.shfl "bfly.sync.b32" %a, %0, %1, %2 : (i32, i32, i32, i32) -> i32
    ptx.ret %3 : i32
  }
  // CHECK-LABEL: llvm.func internal @vote_ballot(
  // CHECK-SAME: %[[P:.*]]: i1) -> i32
  // CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[B:.*]] = rocdl.ballot %[[P]] : i32
  // CHECK: %[[R:.*]] = llvm.and %[[B]], %[[M]] : i32
  // CHECK: llvm.return %[[R]] : i32
  // NV-LABEL: llvm.func internal @vote_ballot(
  // NV: nvvm.vote.sync  ballot %{{.*}}, %{{.*}} -> i32
  ptx.func @vote_ballot attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %p: i1):
    %0 = ptx.constant -1 : i32
    %1 = ptx.vote "ballot.sync.b32" %p, %0 : (i1, i32) -> i32
    ptx.ret %1 : i32
  }
  // CHECK-LABEL: llvm.func internal @vote_any(
  // CHECK-SAME: %[[P:.*]]: i1, %[[M:.*]]: i32) -> i1
  // CHECK: %[[B:.*]] = rocdl.ballot %[[P]] : i32
  // CHECK: %[[MB:.*]] = llvm.and %[[B]], %[[M]] : i32
  // CHECK: llvm.icmp "ne" %[[MB]], %{{.*}} : i32
  // NV-LABEL: llvm.func internal @vote_any(
  // NV-SAME: %[[P:.*]]: i1, %[[M:.*]]: i32) -> i1
  // NV: nvvm.vote.sync  ballot %[[M]], %[[P]] -> i32
  ptx.func @vote_any attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>,
                #ptx.param<name = "m", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i1, %m: i32):
    %0 = ptx.vote "any.sync.pred" %p, %m : (i1, i32) -> i1
    ptx.ret %0 : i1
  }
  // all: no member lane where p is false (p negated first here).
  // CHECK-LABEL: llvm.func internal @vote_all(
  // CHECK-SAME: %[[P:.*]]: i1) -> i1
  // CHECK: %[[NP:.*]] = llvm.xor %[[P]], %{{.*}} : i1
  // CHECK: %[[NNP:.*]] = llvm.xor %[[NP]], %{{.*}} : i1
  // CHECK: %[[B:.*]] = rocdl.ballot %[[NNP]] : i32
  // CHECK: %[[MB:.*]] = llvm.and %[[B]], %{{.*}} : i32
  // CHECK: llvm.icmp "eq" %[[MB]], %{{.*}} : i32
  ptx.func @vote_all attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i1):
    %0 = ptx.not "pred" %p : (i1) -> i1
    %1 = ptx.constant -1 : i32
    %2 = ptx.vote "all.sync.pred" %0, %1 : (i1, i32) -> i1
    ptx.ret %2 : i1
  }
  // uni: none or every active member lane (the ballot of true).
  // CHECK-LABEL: llvm.func internal @vote_uni(
  // CHECK: %[[M:.*]] = llvm.mlir.constant(65535 : i32) : i32
  // CHECK: %[[B:.*]] = rocdl.ballot %{{.*}} : i32
  // CHECK: %[[MB:.*]] = llvm.and %[[B]], %[[M]] : i32
  // CHECK: %[[T:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[ACT:.*]] = rocdl.ballot %[[T]] : i32
  // CHECK: %[[MACT:.*]] = llvm.and %[[ACT]], %[[M]] : i32
  // CHECK: %[[NONE:.*]] = llvm.icmp "eq" %[[MB]], %{{.*}} : i32
  // CHECK: %[[ALL:.*]] = llvm.icmp "eq" %[[MB]], %[[MACT]] : i32
  // CHECK: llvm.or %[[NONE]], %[[ALL]] : i1
  ptx.func @vote_uni attributes {
      params = [#ptx.param<name = "p", space = reg, type = pred>],
      returns = [#ptx.param<name = "d", space = reg, type = pred>]} {
  ^bb0(%d: i1, %p: i1):
    %0 = ptx.constant 65535 : i32
    %1 = ptx.vote "uni.sync.pred" %p, %0 : (i1, i32) -> i1
    ptx.ret %1 : i1
  }
  // redux: lane k's value (k = 0..31) folded in when bit k of the mask is
  // set, starting from the identity (0 for add).
  // CHECK-LABEL: llvm.func internal @redux_add(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[ID:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[V0:.*]] = rocdl.readlane %[[A]], %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[S0:.*]] = llvm.add %[[ID]], %[[V0]] : i32
  // CHECK: %[[BIT:.*]] = llvm.lshr %[[M]], %{{.*}} : i32
  // CHECK: %[[IN:.*]] = llvm.icmp "ne" %{{.*}}, %{{.*}} : i32
  // CHECK: %[[R0:.*]] = llvm.select %[[IN]], %[[S0]], %[[ID]] : i1, i32
  // CHECK: %[[V1:.*]] = rocdl.readlane %[[A]], %{{.*}} : (i32, i32) -> i32
  // CHECK: llvm.add %[[R0]], %[[V1]] : i32
  // CHECK-COUNT-30: rocdl.readlane
  // CHECK-NOT: rocdl.readlane
  // CHECK: llvm.return
  ptx.func @redux_add attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant -1 : i32
    %1 = ptx.redux "add.sync.u32" %a, %0 : (i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // min.s32 starts from INT_MAX, with a register mask.
  // CHECK-LABEL: llvm.func internal @redux_min_s32(
  // CHECK-SAME: %[[A:.*]]: i32, %[[M:.*]]: i32) -> i32
  // CHECK: %[[ID:.*]] = llvm.mlir.constant(2147483647 : i32) : i32
  // CHECK: %[[V0:.*]] = rocdl.readlane %[[A]], %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[LT:.*]] = llvm.icmp "slt" %[[ID]], %[[V0]] : i32
  // CHECK: llvm.select %[[LT]], %[[ID]], %[[V0]] : i1, i32
  // CHECK: llvm.lshr %[[M]], %{{.*}} : i32
  // NV-LABEL: llvm.func internal @redux_min_s32(
  // NV-SAME: %[[A:.*]]: i32, %[[M:.*]]: i32) -> i32
  // NV-COUNT-32: nvvm.shfl.sync  idx %[[M]], %[[A]]
  ptx.func @redux_min_s32 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>,
                #ptx.param<name = "m", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32, %m: i32):
    %0 = ptx.redux "min.sync.s32" %a, %m : (i32, i32) -> i32
    ptx.ret %0 : i32
  }
  // CHECK-LABEL: llvm.func internal @redux_or(
  // CHECK: %[[V0:.*]] = rocdl.readlane
  // CHECK: llvm.or %{{.*}}, %[[V0]] : i32
  ptx.func @redux_or attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant -1 : i32
    %1 = ptx.redux "or.sync.b32" %a, %0 : (i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // match.any: bit k set where lane k holds the same value, then masked.
  // CHECK-LABEL: llvm.func internal @match_any(
  // CHECK-SAME: %[[A:.*]]: i32) -> i32
  // CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[V0:.*]] = rocdl.readlane %[[A]], %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[EQ:.*]] = llvm.icmp "eq" %[[V0]], %[[A]] : i32
  // CHECK: %[[BIT:.*]] = llvm.zext %[[EQ]] : i1 to i32
  // CHECK-COUNT-31: rocdl.readlane
  // CHECK: %[[ALL:.*]] = llvm.or %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[R:.*]] = llvm.and %[[ALL]], %[[M]] : i32
  // CHECK-NEXT: llvm.return %[[R]] : i32
  ptx.func @match_any attributes {
      params = [#ptx.param<name = "a", space = reg, type = b32>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32, %a: i32):
    %0 = ptx.constant -1 : i32
    %1 = ptx.match "any.sync.b32" %a, %0 : (i32, i32) -> i32
    ptx.ret %1 : i32
  }
  // match.all.b64: both halves compared; d is the mask if every member lane
  // matches, else 0, and p says which.
  // CHECK-LABEL: llvm.func internal @match_all_b64(
  // CHECK-SAME: %[[A:.*]]: i64) -> !llvm.struct<(i32, i1)>
  // CHECK: %[[M:.*]] = llvm.mlir.constant(-1 : i32) : i32
  // CHECK: %[[LO:.*]] = llvm.trunc %[[A]] : i64 to i32
  // CHECK: %[[HI:.*]] = llvm.trunc %{{.*}} : i64 to i32
  // CHECK: %[[VL:.*]] = rocdl.readlane %[[LO]], %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[EL:.*]] = llvm.icmp "eq" %[[VL]], %[[LO]] : i32
  // CHECK: %[[VH:.*]] = rocdl.readlane %[[HI]], %{{.*}} : (i32, i32) -> i32
  // CHECK: %[[EH:.*]] = llvm.icmp "eq" %[[VH]], %[[HI]] : i32
  // CHECK: llvm.and %[[EL]], %[[EH]] : i1
  // CHECK-COUNT-62: rocdl.readlane
  // CHECK: %[[SAME:.*]] = llvm.and %{{.*}}, %[[M]] : i32
  // CHECK: %[[P:.*]] = llvm.icmp "eq" %[[SAME]], %[[M]] : i32
  // CHECK: %[[D:.*]] = llvm.select %[[P]], %[[M]], %{{.*}} : i1, i32
  // CHECK: llvm.insertvalue %[[D]], %{{.*}}[0]
  // CHECK: llvm.insertvalue %[[P]], %{{.*}}[1]
  ptx.func @match_all_b64 attributes {
      params = [#ptx.param<name = "a", space = reg, type = b64>],
      returns = [#ptx.param<name = "d", space = reg, type = b32>,
                 #ptx.param<name = "p", space = reg, type = pred>]} {
  ^bb0(%d: i32, %p: i1, %a: i64):
    %0 = ptx.constant -1 : i32
    %1:2 = ptx.match "all.sync.b64" %a, %0 : (i64, i32) -> (i32, i1)
    ptx.ret %1#0, %1#1 : i32, i1
  }
  // CHECK-LABEL: llvm.func internal @activemask(
  // CHECK: %[[T:.*]] = llvm.mlir.constant(true) : i1
  // CHECK: %[[R:.*]] = rocdl.ballot %[[T]] : i32
  // CHECK: llvm.return %[[R]] : i32
  // NV-LABEL: llvm.func internal @activemask(
  // NV: llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
  ptx.func @activemask attributes {
      params = [],
      returns = [#ptx.param<name = "d", space = reg, type = b32>]} {
  ^bb0(%d: i32):
    %0 = ptx.activemask "b32" : () -> i32
    ptx.ret %0 : i32
  }
  // AMDGPU's wave32 lanes run in lockstep: a wave barrier with
  // wavefront-scope ordering, for any mask; NVPTX waits for the mask's lanes.
  // CHECK-LABEL: llvm.func internal @warp_sync(
  // CHECK-NEXT: llvm.fence syncscope("wavefront") acq_rel
  // CHECK-NEXT: llvm.call_intrinsic "llvm.amdgcn.wave.barrier"() : () -> ()
  // CHECK-NEXT: llvm.return
  // NV-LABEL: llvm.func internal @warp_sync(
  // NV-SAME: %[[M:.*]]: i32)
  // NV: llvm.call_intrinsic "llvm.nvvm.bar.warp.sync"(%[[M]]) : (i32) -> ()
  ptx.func @warp_sync attributes {
      params = [#ptx.param<name = "m", space = reg, type = b32>],
      returns = []} {
  ^bb0(%m: i32):
    ptx.bar.warp.sync "" %m : (i32) -> ()
    ptx.ret
  }
}
