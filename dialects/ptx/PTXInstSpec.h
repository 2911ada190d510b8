//===- PTXInstSpec.h - What each PTX instruction accepts --------*- C++ -*-===//
//
// Every instruction op of the `ptx` dialect carries a constexpr `InstSpec`
// (written in PTXOps.td): which modifier classes and flags it accepts, and
// whether its first operand group is a destination. The front end classifies
// modifiers with it and the verifier checks ops against it.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_DIALECTS_PTX_PTXINSTSPEC_H
#define ZLUDA_DIALECTS_PTX_PTXINSTSPEC_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

#include "dialects/ptx/PTXEnums.h.inc"

#include <cstdint>

namespace zluda::ptx {

/// Modifier classes (fields of `#ptx.mods`).
namespace mc {
enum : uint32_t {
  None = 0,
  T = 1u << 0,      ///< types, in order
  SP = 1u << 1,     ///< state spaces, in order
  RND = 1u << 2,    ///< rounding
  CMP = 1u << 3,    ///< comparison
  BOOL = 1u << 4,   ///< predicate combination
  CACHE = 1u << 5,  ///< cache operator
  SEM = 1u << 6,    ///< memory-ordering semantics
  SCOPE = 1u << 7,  ///< memory scope
  RED = 1u << 8,    ///< reduction operation
  MODE = 1u << 9,   ///< per-family mode
  GEOM = 1u << 10,  ///< texture geometry
  VEC = 1u << 11,   ///< .v2/.v4/.v8
  FL = 1u << 12,    ///< boolean flags
  SHAPE = 1u << 13, ///< .mMnNkK
  COUNT = 1u << 14, ///< .xN
  EXTRA = 1u << 15, ///< other qualifiers, verbatim (sm_90+ families)
};
} // namespace mc

/// Instruction properties.
namespace p {
enum : uint32_t {
  None = 0,
  Dest = 1u << 0,       ///< the first operand (group) is written
  SameWidth = 1u << 1,  ///< the result has the instruction type's width
  PredResult = 1u << 2, ///< every result is a predicate
  // What its operands may be besides registers and immediates (ptxas
  // refuses the rest: "Arguments mismatch", "Vector operand is not allowed",
  // "Result discard mode is not allowed", "must be register";
  // test/fuzz/ptxas_operand_grid.py).
  Addr = 1u << 3,    ///< addresses `[a]`
  Vec = 1u << 4,     ///< vectors `{a, b}`
  Discard = 1u << 5, ///< the sink `_` as its destination
  Negate = 1u << 6,  ///< negated predicates `!p`
  Symbol = 1u << 7,  ///< a variable's name, for its address
};
} // namespace p

/// Flag groups (masks over the `Flag` bit enum of PTXEnums.td).
namespace fl {
constexpr uint64_t f(Flag x) { return static_cast<uint64_t>(x); }
constexpr uint64_t None = 0;
constexpr uint64_t All = ~uint64_t(0);
constexpr uint64_t Sync = f(Flag::sync) | f(Flag::aligned) | f(Flag::uni);
constexpr uint64_t Conv = f(Flag::to);
constexpr uint64_t Arith =
    f(Flag::ftz) | f(Flag::sat) | f(Flag::approx) | f(Flag::full) |
    f(Flag::relu) | f(Flag::NaN) | f(Flag::xorsign) | f(Flag::abs) |
    f(Flag::cc) | f(Flag::shiftamt) | f(Flag::clamp) | f(Flag::wrap) |
    f(Flag::noftz) | f(Flag::satfinite) | f(Flag::oob) | Sync;
/// shfl, vote and match: .sync alone (ptxas: "Illegal modifier '.aligned'
/// for instruction 'shfl'"; the differential fuzzer, seed 19).
constexpr uint64_t WarpSync = f(Flag::sync);
/// cp.async.bulk: its completion, multicast and cache policy (ptxas
/// refuses cp.async.bulk.wrap, cp.async.bulk.ftz; seed 19).
constexpr uint64_t Bulk = f(Flag::mbarrier_complete_tx_bytes) |
                          f(Flag::multicast_cluster) | f(Flag::bulk_group) |
                          f(Flag::L2_cache_hint);
/// min/max: .ftz, .NaN, .xorsign.abs and .relu (ptxas refuses min.full,
/// min.approx, min.sat; the differential fuzzer, seed 30).
constexpr uint64_t MinMax = f(Flag::ftz) | f(Flag::NaN) | f(Flag::xorsign) |
                            f(Flag::abs) | f(Flag::relu);
/// shf: what a shift past 31 does (ptxas refuses shf.aligned, shf.ftz).
constexpr uint64_t Shift = f(Flag::clamp) | f(Flag::wrap);
/// redux: .sync, and .abs/.NaN of its .f32 forms (ptxas refuses
/// redux.clamp, redux.sync.aligned, redux.ftz; the differential fuzzer,
/// seed 14).
constexpr uint64_t Redux = f(Flag::sync) | f(Flag::abs) | f(Flag::NaN);
/// div: .ftz, .approx, .full (ptxas refuses div.sat, div.clamp).
constexpr uint64_t Div = f(Flag::ftz) | f(Flag::approx) | f(Flag::full);
/// fma: .ftz, .sat, .relu (halves), .oob; mad: .ftz, .sat and its carry
/// (ptxas refuses fma.approx, fma.clamp, mad.relu).
constexpr uint64_t Fma =
    f(Flag::ftz) | f(Flag::sat) | f(Flag::relu) | f(Flag::oob);
constexpr uint64_t Mad = f(Flag::ftz) | f(Flag::sat) | f(Flag::cc);
/// The flags of the plain arithmetic instructions ptxas checks one by one
/// (it refuses add.aligned, add.shiftamt, mul.any, setp.sat, cvt.idx...).
constexpr uint64_t AddSub = f(Flag::ftz) | f(Flag::sat) | f(Flag::cc);
constexpr uint64_t Mul = f(Flag::ftz) | f(Flag::sat);
constexpr uint64_t Neg = f(Flag::ftz);
constexpr uint64_t Setp = f(Flag::ftz);
constexpr uint64_t Cvt =
    f(Flag::ftz) | f(Flag::sat) | f(Flag::relu) | f(Flag::satfinite);
/// L1 eviction priorities, L2 ones, and a load's L2 prefetch size.
constexpr uint64_t L1Eviction =
    f(Flag::L1_evict_normal) | f(Flag::L1_evict_unchanged) |
    f(Flag::L1_evict_first) | f(Flag::L1_evict_last) | f(Flag::L1_no_allocate);
constexpr uint64_t L2Eviction =
    f(Flag::L2_evict_first) | f(Flag::L2_evict_last) |
    f(Flag::L2_evict_normal) | f(Flag::L2_evict_unchanged);
constexpr uint64_t PrefetchSize =
    f(Flag::L2_64B) | f(Flag::L2_128B) | f(Flag::L2_256B);
constexpr uint64_t Mem = f(Flag::nc) | f(Flag::volatile_) | f(Flag::noftz) |
                         f(Flag::mmio) | L1Eviction | L2Eviction |
                         f(Flag::L2_cache_hint) | PrefetchSize | f(Flag::L1) |
                         f(Flag::L2);
/// ld, ldu, st: Mem without atom's .noftz and prefetch's bare levels
/// (ptxas refuses ld.noftz, ld.L2; the differential fuzzer, seeds 41, 44).
constexpr uint64_t LoadStore =
    Mem & ~(f(Flag::noftz) | f(Flag::L1) | f(Flag::L2));
/// prefetch: a level and L2's eviction priority (ptxas refuses
/// prefetch.volatile, prefetch.L1::evict_last; seed 38).
constexpr uint64_t Prefetch = f(Flag::L1) | f(Flag::L2) |
                              f(Flag::L2_evict_last) | f(Flag::L2_evict_normal);
/// cp.async: its cache hint and L2 prefetch size (ptxas refuses
/// cp.async.clamp; seed 41).
constexpr uint64_t CpAsync = f(Flag::L2_cache_hint) | PrefetchSize;
/// ldmatrix, stmatrix: .sync.aligned and .trans (seed 38).
constexpr uint64_t Matrix = f(Flag::sync) | f(Flag::aligned) | f(Flag::trans);
/// mma, wgmma.mma_async: .sync.aligned and .satfinite (ptxas refuses
/// mma.ftz, seed 38; wgmma took any flag, ptxas_flag_grid.py).
constexpr uint64_t Mma = f(Flag::sync) | f(Flag::aligned) | f(Flag::satfinite);
/// The mbarriers' waits and arrivals (ptxas refuses mbarrier.test_wait.ftz;
/// seed 39).
constexpr uint64_t Mbarrier = f(Flag::parity) | f(Flag::noComplete) |
                              f(Flag::expect_tx) | f(Flag::complete_tx);
/// addc, subc, madc: the carry alone (ptxas refuses addc.approx; seed 44).
constexpr uint64_t Carry = f(Flag::cc);
/// rcp, sqrt and the approximate functions: .ftz and .approx (ptxas
/// refuses rcp.full, sin.relu, ex2.satfinite; seed 48, each function's
/// flags probed).
constexpr uint64_t Approx = f(Flag::ftz) | f(Flag::approx);
/// abs: .ftz (of floats); bfind: .shiftamt; mad24: .sat (of .hi.s32).
constexpr uint64_t Ftz = f(Flag::ftz);
constexpr uint64_t ShiftAmt = f(Flag::shiftamt);
constexpr uint64_t Sat = f(Flag::sat);
/// createpolicy: L2's eviction priorities, and .L2 of its .cvt form.
constexpr uint64_t CreatePolicy = L2Eviction | f(Flag::L2);
/// The flags each of these takes, from ptxas one flag at a time (seed 49
/// and test/fuzz/ptxas_flag_grid.py): atom/red no .mmio; ldu a
/// cache hint and prefetch size; prefetchu .L1, discard .L2,
/// applypriority L2's normal priority; the .aligned barriers (bar.sync
/// and barrier.sync a second .sync besides); elect .sync; the warpgroup
/// ones and setmaxnreg .sync.aligned; the mbarrier
/// arrivals without .parity, its waits .parity alone.
constexpr uint64_t Atomic = Mem & ~f(Flag::mmio);
constexpr uint64_t Ldu = f(Flag::L2_cache_hint) | PrefetchSize;
constexpr uint64_t L1 = f(Flag::L1);
constexpr uint64_t L2 = f(Flag::L2);
constexpr uint64_t L2Normal = f(Flag::L2_evict_normal);
constexpr uint64_t Aligned = f(Flag::aligned);
constexpr uint64_t SyncAligned = f(Flag::sync) | f(Flag::aligned);
constexpr uint64_t MbarrierArrive = Mbarrier & ~f(Flag::parity);
constexpr uint64_t MbarrierWait = f(Flag::parity);
/// The asynchronous stores, bulk copies and their kin (ptxas_flag_grid.py:
/// each took any flag): st.async and red.async their completion;
/// cp.async.bulk.prefetch(.tensor) .L2, its cache hint and the tensor's
/// load mode; cp.async.bulk.wait_group .read; cp.reduce.async.bulk .noftz
/// besides the copies' own; the tensor copies their load mode;
/// cp.async.mbarrier.arrive .noinc; tensormap.replace .tile;
/// clusterlaunchcontrol.try_cancel .async and its completion.
constexpr uint64_t AsyncStore = f(Flag::mbarrier_complete_tx_bytes);
constexpr uint64_t BulkPrefetch =
    f(Flag::L2) | f(Flag::L2_cache_hint) | f(Flag::tile) | f(Flag::im2col);
constexpr uint64_t BulkWait = f(Flag::read);
constexpr uint64_t BulkReduce = Bulk | f(Flag::noftz);
constexpr uint64_t BulkTensor = Bulk | f(Flag::tile) | f(Flag::im2col);
constexpr uint64_t CpAsyncArrive = f(Flag::noinc);
constexpr uint64_t Tile = f(Flag::tile);
constexpr uint64_t ClusterLaunch =
    f(Flag::async) | f(Flag::mbarrier_complete_tx_bytes);
} // namespace fl

struct InstSpec {
  uint32_t classes;
  uint64_t flags;
  uint32_t props;
  constexpr bool accepts(uint32_t cls) const { return (classes & cls) != 0; }
  constexpr bool hasDest() const { return (props & p::Dest) != 0; }
  constexpr bool has(uint32_t prop) const { return (props & prop) != 0; }
};

} // namespace zluda::ptx

#endif // ZLUDA_DIALECTS_PTX_PTXINSTSPEC_H
