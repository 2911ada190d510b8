//===- TargetInfoAMDGPU.cpp - AMDGPU side of the lowering seam ------------===//

#include "passes/PTXToLLVM/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace zluda::ptx;

namespace {

class AMDGPUTargetInfo : public TargetInfo {
public:
  AMDGPUTargetInfo(StringRef chip, unsigned waveSize, bool oneWarp)
      : chip(chip.str()), wave64(waveSize == 64), oneWarp(oneWarp) {}

  StringRef getTriple() const override { return "amdgcn-amd-amdhsa"; }
  StringRef getDataLayout() const override {
    return "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-"
           "p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-"
           "v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-"
           "v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";
  }
  StringRef getChip() const override { return chip; }
  unsigned getAllocaAddressSpace() const override { return 5; }
  unsigned getWaveSize() const override { return wave64 ? 64 : 32; }
  bool kernelParamsByValue() const override { return false; }
  unsigned kernelParamAddressSpace() const override { return 4; }

  unsigned getAddressSpace(StateSpace space) const override {
    switch (space) {
    case StateSpace::global:
      return 1;
    case StateSpace::shared:
    case StateSpace::shared_cta:
    case StateSpace::shared_cluster:
      return 3;
    case StateSpace::const_:
      return 4;
    case StateSpace::local:
      return 5;
    default:
      return 0; // generic (flat); .param is reached through flat pointers
    }
  }

  Value getSpecialRegister(OpBuilder &b, Location loc, SReg reg, char dim,
                           Type type) const override {
    Type i32 = b.getI32Type();
    auto pick = [&](auto x, auto y, auto z) -> Value {
      switch (dim) {
      case 'x':
        return decltype(x)::create(b, loc, i32);
      case 'y':
        return decltype(y)::create(b, loc, i32);
      default:
        return decltype(z)::create(b, loc, i32);
      }
    };
    switch (reg) {
    case SReg::tid: {
      Value id = pick(ROCDL::ThreadIdXOp(), ROCDL::ThreadIdYOp(),
                      ROCDL::ThreadIdZOp());
      if (!oneWarp || dim != 'x')
        return id;
      // One warp a wave: hardware x = 64 w + l (l < 32 run) is PTX
      // x = 32 w + l.
      auto c = [&](int64_t v) {
        return LLVM::ConstantOp::create(b, loc, i32, v);
      };
      return LLVM::OrOp::create(
          b, loc,
          LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, id, c(1)),
                              c(~31)),
          LLVM::AndOp::create(b, loc, id, c(31)));
    }
    case SReg::ctaid:
      return pick(ROCDL::BlockIdXOp(), ROCDL::BlockIdYOp(),
                  ROCDL::BlockIdZOp());
    case SReg::ntid:
    case SReg::nctaid: {
      // The device library's __ockl_get_local_size/num_groups return i64.
      Type i64 = b.getI64Type();
      bool block = reg == SReg::ntid;
      Value v;
      switch (dim) {
      case 'x':
        v = block ? Value(ROCDL::BlockDimXOp::create(b, loc, i64))
                  : Value(ROCDL::GridDimXOp::create(b, loc, i64));
        break;
      case 'y':
        v = block ? Value(ROCDL::BlockDimYOp::create(b, loc, i64))
                  : Value(ROCDL::GridDimYOp::create(b, loc, i64));
        break;
      default:
        v = block ? Value(ROCDL::BlockDimZOp::create(b, loc, i64))
                  : Value(ROCDL::GridDimZOp::create(b, loc, i64));
        break;
      }
      if (oneWarp && block && dim == 'x') // launched with twice the threads
        v = LLVM::LShrOp::create(b, loc, v,
                                 LLVM::ConstantOp::create(b, loc, i64, 1));
      return LLVM::TruncOp::create(b, loc, i32, v);
    }
    case SReg::laneid: {
      // wave64: a warp is half a wave (docs/lowering.md, "Warps").
      Value lane = waveLane(b, loc);
      return wave64
                 ? LLVM::AndOp::create(
                       b, loc, lane, LLVM::ConstantOp::create(b, loc, i32, 31))
                 : lane;
    }
    case SReg::WARP_SZ:
      return LLVM::ConstantOp::create(b, loc, i32, 32);
    default:
      return machineRegister(b, loc, reg, dim);
    }
  }

  /// The thread's lane in its wave: 0-31, or 0-63 on wave64.
  Value waveLane(OpBuilder &b, Location loc) const {
    Type i32 = b.getI32Type();
    Value allOnes = LLVM::ConstantOp::create(b, loc, i32, -1);
    Value lane = ROCDL::MbcntLoOp::create(
        b, loc, i32, allOnes, LLVM::ConstantOp::create(b, loc, i32, 0),
        ArrayAttr(), ArrayAttr());
    if (wave64)
      lane = ROCDL::MbcntHiOp::create(b, loc, i32, allOnes, lane, ArrayAttr(),
                                      ArrayAttr());
    return lane;
  }

  /// wave64: the wave lane where the thread's warp begins, 0 or 32.
  Value warpBase(OpBuilder &b, Location loc) const {
    return LLVM::AndOp::create(
        b, loc, waveLane(b, loc),
        LLVM::ConstantOp::create(b, loc, b.getI32Type(), 32));
  }

  /// The 32 bits of a wave-wide lane mask (`llvm.amdgcn.ballot`) that
  /// belong to the thread's warp.
  Value warpBallot(OpBuilder &b, Location loc, Value pred) const {
    Type i32 = b.getI32Type();
    if (!wave64)
      return ROCDL::BallotOp::create(b, loc, i32, pred);
    Type i64 = b.getI64Type();
    Value mask = ROCDL::BallotOp::create(b, loc, i64, pred);
    Value shift = LLVM::ZExtOp::create(b, loc, i64, warpBase(b, loc));
    return LLVM::TruncOp::create(b, loc, i32,
                                 LLVM::LShrOp::create(b, loc, mask, shift));
  }

  /// NVIDIA's reserved shared memory a block (cudaDevAttrReservedShared-
  /// MemoryPerBlock).
  static constexpr int64_t kReservedSharedBytes = 1024;

  /// The LDS offset `offset` bytes into the module's reserved-shared-memory
  /// array (made at the first use).
  Value reservedShared(OpBuilder &b, Location loc, int64_t offset) const {
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    StringRef name = "__zluda_reserved_smem";
    Type bytes = LLVM::LLVMArrayType::get(b.getI8Type(), kReservedSharedBytes);
    if (!module.lookupSymbol(name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto g =
          LLVM::GlobalOp::create(b, loc, bytes, false, LLVM::Linkage::Internal,
                                 name, Attribute(), 16, 3);
      b.createBlock(&g.getInitializerRegion());
      LLVM::ReturnOp::create(b, loc, LLVM::PoisonOp::create(b, loc, bytes));
    }
    Value addr = LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3), name);
    Value base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), addr);
    return LLVM::AddOp::create(
        b, loc, base, LLVM::ConstantOp::create(b, loc, b.getI32Type(), offset));
  }

  /// What PTX leaves to the machine and the launch: warp and SM numbers
  /// (any stable numbering within the documented ranges), the launch's
  /// shared memory sizes, and the cluster registers of a launch without
  /// clusters (HIP has none: each CTA is a cluster of one).
  Value machineRegister(OpBuilder &b, Location loc, SReg reg, char dim) const {
    Type i32 = b.getI32Type(), i64 = b.getI64Type();
    auto c = [&](int64_t v) {
      return LLVM::ConstantOp::create(b, loc, i32, v);
    };
    auto sreg = [&](SReg r, char d) {
      return getSpecialRegister(b, loc, r, d, i32);
    };
    auto intrinsic = [&](StringRef name, Type type, ValueRange args = {}) {
      return LLVM::CallIntrinsicOp::create(b, loc, type, b.getStringAttr(name),
                                           args)
          .getResult(0);
    };
    // The shared memory of the dispatch: group_segment_size of its packet.
    auto groupSegmentSize = [&]() -> Value {
      auto ptr4 = LLVM::LLVMPointerType::get(b.getContext(), 4);
      Value packet = intrinsic("llvm.amdgcn.dispatch.ptr", ptr4);
      Value field = LLVM::GEPOp::create(b, loc, ptr4, b.getI8Type(), packet,
                                        ArrayRef<LLVM::GEPArg>{28});
      return LLVM::LoadOp::create(b, loc, i32, field, 4);
    };
    switch (reg) {
    case SReg::warpid: // the CTA's linear thread index / 32
      return LLVM::LShrOp::create(b, loc, linearThreadIndex(b, loc), c(5));
    case SReg::nwarpid: {
      Value threads =
          LLVM::MulOp::create(b, loc, sreg(SReg::ntid, 'x'),
                              LLVM::MulOp::create(b, loc, sreg(SReg::ntid, 'y'),
                                                  sreg(SReg::ntid, 'z')));
      return LLVM::LShrOp::create(
          b, loc, LLVM::AddOp::create(b, loc, threads, c(31)), c(5));
    }
    case SReg::smid: {
      // RDNA: HW_ID1 (hwreg 23): WGP_ID [13:10], SA_ID [16], SE_ID [20:18].
      // CDNA: HW_ID (hwreg 4): CU_ID [11:8], SH_ID [12], SE_ID [15:13].
      // The SM number is SE.SA.WGP (SE.SH.CU), below 256.
      int64_t hwreg = wave64 ? 4 : 23;
      Value id =
          intrinsic("llvm.amdgcn.s.getreg", i32, {c(hwreg | (31 << 11))});
      auto field = [&](int64_t shift, int64_t mask) {
        return LLVM::AndOp::create(
            b, loc, LLVM::LShrOp::create(b, loc, id, c(shift)), c(mask));
      };
      Value se = LLVM::ShlOp::create(b, loc, field(wave64 ? 13 : 18, 7), c(5));
      Value sa = LLVM::ShlOp::create(b, loc, field(wave64 ? 12 : 16, 1), c(4));
      return LLVM::OrOp::create(b, loc, LLVM::OrOp::create(b, loc, se, sa),
                                field(wave64 ? 8 : 10, 15));
    }
    case SReg::nsmid:
      return c(256);
    case SReg::gridid: // unique per dispatch
      return intrinsic("llvm.amdgcn.dispatch.id", i64);
    case SReg::total_smem_size:
    case SReg::aggr_smem_size:
      return groupSegmentSize();
    case SReg::dynamic_smem_size:
      return LLVM::SubOp::create(b, loc, groupSegmentSize(),
                                 intrinsic("llvm.amdgcn.groupstaticsize", i32));
    // Reserved shared memory (NVIDIA reserves 1 KiB a block beside the
    // kernel's own; CUDA's cooperative groups keep the barrier words of
    // multi-warp tiles there, at %reserved_smem_offset_1): an LDS array of
    // our own, so that it never overlaps the kernel's shared memory. When
    // it was 0, a multi-warp tile's barrier word aliased the kernel's
    // first shared word and the tile deadlocked (cuda-samples reduction,
    // kernel 9, replayed in the AMD emulator). _0 and _1 are the two
    // halves.
    case SReg::reserved_smem_offset_cap:
      return c(kReservedSharedBytes);
    case SReg::reserved_smem_offset_begin:
    case SReg::reserved_smem_offset_0:
      return reservedShared(b, loc, 0);
    case SReg::reserved_smem_offset_1:
      return reservedShared(b, loc, kReservedSharedBytes / 2);
    case SReg::reserved_smem_offset_end:
      return reservedShared(b, loc, kReservedSharedBytes);
    case SReg::clusterid:
      return sreg(SReg::ctaid, dim);
    case SReg::nclusterid:
      return sreg(SReg::nctaid, dim);
    case SReg::cluster_ctaid:
    case SReg::cluster_ctarank:
      return c(0);
    case SReg::cluster_nctaid:
    case SReg::cluster_nctarank:
      return c(1);
    case SReg::is_explicit_cluster:
      return LLVM::ConstantOp::create(b, loc, b.getI1Type(), 0);
    case SReg::current_graph_exec: // not launched from a graph
      return LLVM::ConstantOp::create(b, loc, i64, 0);
    default:
      return Value();
    }
  }

  Value readCycleCounter(OpBuilder &b, Location loc) const override {
    // gfx11 counts shader cycles in 20 bits only (HW_REG_SHADER_CYCLES): a
    // wait loop on %clock64 differences could spin forever. There, cycles
    // are the real-time counter scaled to a nominal 2 GHz (20 per tick):
    // monotonic, 64 bits, approximate.
    if (llvm::StringRef(chip).starts_with("gfx11"))
      return realTime(b, loc, 20);
    return LLVM::CallIntrinsicOp::create(
               b, loc, b.getI64Type(), b.getStringAttr("llvm.readcyclecounter"),
               ValueRange{})
        .getResult(0);
  }

  /// %envreg1 (high half) and %envreg2 (low half): the cooperative-launch
  /// grid workspace, where cooperative groups' grid.sync keeps its arrival
  /// word (at +4; a null address makes the kernel trap). NVIDIA's driver
  /// sets one up per launch; here it is a zero-initialized global of the
  /// module, which that barrier leaves as it found it (the blocks of one
  /// barrier add 0x80000000 in all: the top bit flips, the rest returns).
  /// Two cooperative kernels of one module running at the same time would
  /// share it. Other indices have no meaning outside NVIDIA's driver.
  bool hasEnvironmentRegister(int64_t index) const override {
    return index == 1 || index == 2;
  }
  Value readEnvironmentRegister(OpBuilder &b, Location loc,
                                int64_t index) const override {
    if (!hasEnvironmentRegister(index))
      return Value();
    constexpr StringLiteral name = "__zluda_grid_workspace";
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    Type type = LLVM::LLVMArrayType::get(b.getI64Type(), 2);
    if (!SymbolTable::lookupSymbolIn(module, name)) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto g = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/false,
                                      LLVM::Linkage::Internal, name,
                                      Attribute(), /*alignment=*/16, 1);
      b.createBlock(&g.getInitializerRegion());
      LLVM::ReturnOp::create(b, loc, LLVM::ZeroOp::create(b, loc, type));
    }
    Type i64 = b.getI64Type();
    Value address = LLVM::PtrToIntOp::create(
        b, loc, i64,
        LLVM::AddressOfOp::create(
            b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), name));
    if (index == 1)
      address = LLVM::LShrOp::create(b, loc, address,
                                     LLVM::ConstantOp::create(b, loc, i64, 32));
    return LLVM::TruncOp::create(b, loc, b.getI32Type(), address);
  }

  Value readGlobalTimer(OpBuilder &b, Location loc) const override {
    // The real-time counter of RDNA GPUs runs at a constant 100 MHz: ten
    // nanoseconds a tick.
    return realTime(b, loc, 10);
  }

  /// The real-time (100 MHz) counter times `scale`.
  static Value realTime(OpBuilder &b, Location loc, int64_t scale) {
    Type i64 = b.getI64Type();
    Value ticks = LLVM::CallIntrinsicOp::create(
                      b, loc, i64, b.getStringAttr("llvm.readsteadycounter"),
                      ValueRange{})
                      .getResult(0);
    return LLVM::MulOp::create(b, loc, ticks,
                               LLVM::ConstantOp::create(b, loc, i64, scale));
  }

  bool lowerRuntimeCall(OpBuilder &b, Location loc, StringRef callee,
                        ValueRange args, Value &result) const override {
    // malloc/free: HIP's device heap in the device library,
    // __ockl_dm_alloc(i64) -> ptr addrspace(1) and __ockl_dm_dealloc(i64);
    // the kernel then asks the runtime for the heap (hidden argument).
    // vprintf/__assertfail: calls to __zluda_vprintf/__zluda_assertfail,
    // which code generation expands into the device library's printf once
    // the optimizer has made the format string a constant.
    MLIRContext *ctx = b.getContext();
    Type i64 = b.getI64Type(), i32 = b.getI32Type();
    Type voidType = LLVM::LLVMVoidType::get(ctx);
    auto global = LLVM::LLVMPointerType::get(ctx, 1);
    auto module =
        b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
    auto call = [&](StringRef name, Type resultType,
                    ArrayRef<Type> params) -> Value {
      auto fnType = LLVM::LLVMFunctionType::get(resultType, params);
      if (!module.lookupSymbol(name)) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(module.getBody());
        LLVM::LLVMFuncOp::create(b, loc, name, fnType);
      }
      auto c = LLVM::CallOp::create(b, loc, fnType, name, args);
      return isa<LLVM::LLVMVoidType>(resultType) ? Value() : c.getResult();
    };
    if (callee == "malloc") {
      Value p = call("__ockl_dm_alloc", global, {i64});
      result = LLVM::PtrToIntOp::create(
          b, loc, i64,
          LLVM::AddrSpaceCastOp::create(b, loc,
                                        LLVM::LLVMPointerType::get(ctx, 0), p));
    } else if (callee == "free") {
      call("__ockl_dm_dealloc", voidType, {i64});
    } else if (callee == "vprintf") {
      result = call("__zluda_vprintf", i32, {i64, i64});
    } else if (callee == "__assertfail") {
      call("__zluda_assertfail", voidType, {i64, i64, i32, i64, i64});
    } else {
      return false;
    }
    return true;
  }

  void createBarrier(OpBuilder &b, Location loc) const override {
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "workgroup");
    ROCDL::SBarrierOp::create(b, loc);
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acquire, "workgroup");
  }

  void createWarpBarrier(OpBuilder &b, Location loc, Value) const override {
    // A wave32 wave is the warp and its lanes run in lockstep, whichever of
    // them are named: order their memory accesses and keep the compiler
    // from moving them across.
    LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::acq_rel, "wavefront");
    LLVM::CallIntrinsicOp::create(
        b, loc, b.getStringAttr("llvm.amdgcn.wave.barrier"), ValueRange());
  }

  Value createShuffle(OpBuilder &b, Location loc, Value value, Value srcLane,
                      Value) const override {
    Type i32 = b.getI32Type();
    // A constant lane (redux, match): v_readlane into a scalar register, no
    // LDS round trip; on wave64 one read a half, the warp's picked.
    APInt k;
    if (matchPattern(srcLane, m_ConstantInt(&k))) {
      auto read = [&](int64_t lane) -> Value {
        return ROCDL::ReadlaneOp::create(
            b, loc, i32, value, LLVM::ConstantOp::create(b, loc, i32, lane));
      };
      int64_t lane = k.getZExtValue() & 31;
      if (!wave64)
        return read(lane);
      Value upper = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne, warpBase(b, loc),
          LLVM::ConstantOp::create(b, loc, i32, 0));
      return LLVM::SelectOp::create(b, loc, upper, read(lane + 32), read(lane));
    }
    // Any lane: ds_bpermute, which addresses the wave's lanes in bytes; on
    // wave64 the warp's half is added (srcLane < 32: never the other half).
    if (wave64)
      srcLane = LLVM::OrOp::create(b, loc, srcLane, warpBase(b, loc));
    Value two = LLVM::ConstantOp::create(b, loc, i32, 2);
    Value byteAddr = LLVM::ShlOp::create(b, loc, srcLane, two);
    return ROCDL::DsBpermuteOp::create(b, loc, i32, byteAddr, value);
  }

  Value createFixedShuffle(OpBuilder &b, Location loc, Value value,
                           unsigned andMask, unsigned orMask,
                           unsigned xorMask) const override {
    // ds_swizzle_b32 in bit mode permutes within groups of 32 lanes, a warp
    // on wave32 and on wave64 alike: no lane index to compute, no address.
    int64_t offset = (andMask & 31) | (orMask & 31) << 5 | (xorMask & 31) << 10;
    return ROCDL::DsSwizzleOp::create(
        b, loc, b.getI32Type(), value,
        LLVM::ConstantOp::create(b, loc, b.getI32Type(), offset));
  }

  Value createBallot(OpBuilder &b, Location loc, Value pred,
                     Value memberMask) const override {
    return LLVM::AndOp::create(b, loc, warpBallot(b, loc, pred), memberMask);
  }

  Value createIsSpace(OpBuilder &b, Location loc, StateSpace space,
                      Value ptr) const override {
    // Flat addresses fall in the LDS aperture, the scratch aperture, or
    // else global memory.
    auto test = [&](StringRef intrinsic) -> Value {
      return LLVM::CallIntrinsicOp::create(b, loc, b.getI1Type(),
                                           b.getStringAttr(intrinsic),
                                           ValueRange{ptr})
          .getResult(0);
    };
    if (space == StateSpace::param)
      return callAddressTest(b, loc, paramTest, ptr);
    if (space == StateSpace::shared)
      return test("llvm.amdgcn.is.shared");
    if (space == StateSpace::local)
      return test("llvm.amdgcn.is.private");
    Value either = LLVM::OrOp::create(b, loc, test("llvm.amdgcn.is.shared"),
                                      test("llvm.amdgcn.is.private"));
    return LLVM::XOrOp::create(
        b, loc, either, LLVM::ConstantOp::create(b, loc, b.getI1Type(), 1));
  }

  /// `isspacep.param`: whether `ptr` lies in the dispatch's explicit kernel
  /// arguments, from the kernarg segment's start to the hidden arguments
  /// (the implicit-argument pointer; code object v5 puts them right after).
  /// A function has no kernarg segment pointer of its own (LLVM gives 0
  /// there), so every kernel of the module stores its start in an LDS word
  /// at entry (finishModule) and the test reads it there.
  static constexpr StringLiteral paramTest = "__zluda_is_param_address";
  static constexpr StringLiteral kernargBase = "__zluda_kernarg_base";

  Value flatAddress(OpBuilder &b, Location loc, StringRef intrinsic) const {
    MLIRContext *ctx = b.getContext();
    Value p = LLVM::CallIntrinsicOp::create(
                  b, loc, LLVM::LLVMPointerType::get(ctx, 4),
                  b.getStringAttr(intrinsic), ValueRange{})
                  .getResult(0);
    p = LLVM::AddrSpaceCastOp::create(b, loc, LLVM::LLVMPointerType::get(ctx),
                                      p);
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), p);
  }

  /// One warp a wave: at each kernel's entry, the upper half of the wave
  /// (lanes 32-63, no PTX thread) returns.
  void idleUpperHalves(ModuleOp module, ArrayRef<StringRef> kernels) const {
    OpBuilder b(module.getContext());
    Type i32 = b.getI32Type();
    for (StringRef name : kernels) {
      auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!kernel || kernel.getBody().empty())
        continue;
      Location loc = kernel.getLoc();
      Block *body = &kernel.getBody().front();
      Block *entry = new Block();
      kernel.getBody().push_front(entry);
      for (BlockArgument arg : body->getArguments())
        entry->addArgument(arg.getType(), arg.getLoc());
      for (auto [from, to] :
           llvm::zip(body->getArguments(), entry->getArguments()))
        from.replaceAllUsesWith(to);
      body->eraseArguments(0, body->getNumArguments());
      Block *idle = b.createBlock(&kernel.getBody(), ++Region::iterator(entry));
      LLVM::ReturnOp::create(b, loc, ValueRange());
      b.setInsertionPointToEnd(entry);
      Value lane = waveLane(b, loc);
      Value upper =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, lane,
                               LLVM::ConstantOp::create(b, loc, i32, 32));
      LLVM::CondBrOp::create(b, loc, upper, idle, body);
    }
  }

  void finishModule(ModuleOp module,
                    ArrayRef<StringRef> kernels) const override {
    if (oneWarp)
      idleUpperHalves(module, kernels);
    auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(paramTest);
    if (!fn || !fn.getBody().empty())
      return;
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Location loc = fn.getLoc();
    Type i64 = b.getI64Type();
    auto lds = LLVM::LLVMPointerType::get(ctx, 3);
    b.setInsertionPointToStart(module.getBody());
    auto g = LLVM::GlobalOp::create(b, loc, i64, /*isConstant=*/false,
                                    LLVM::Linkage::Internal, kernargBase,
                                    Attribute(), 8, 3);
    b.createBlock(&g.getInitializerRegion());
    LLVM::ReturnOp::create(b, loc, LLVM::PoisonOp::create(b, loc, i64));
    // Every thread stores the same value and reads its own store back: a
    // relaxed atomic, so the concurrent identical stores are no data race.
    StringRef cta = getSyncScope(MemScope::cta);
    for (StringRef name : kernels) {
      auto kernel = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!kernel || kernel.getBody().empty())
        continue;
      b.setInsertionPointToStart(&kernel.getBody().front());
      Location kloc = kernel.getLoc();
      LLVM::StoreOp::create(
          b, kloc, flatAddress(b, kloc, "llvm.amdgcn.kernarg.segment.ptr"),
          LLVM::AddressOfOp::create(b, kloc, lds, kernargBase), 8,
          /*isVolatile=*/false, /*isNonTemporal=*/false,
          /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic, cta);
    }
    Block *entry = b.createBlock(&fn.getBody(), {},
                                 {LLVM::LLVMPointerType::get(ctx)}, {loc});
    Value p = LLVM::PtrToIntOp::create(b, loc, i64, entry->getArgument(0));
    Value base = LLVM::LoadOp::create(
        b, loc, i64, LLVM::AddressOfOp::create(b, loc, lds, kernargBase), 8,
        /*isVolatile=*/false, /*isNonTemporal=*/false, /*isInvariant=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic, cta);
    Value end = flatAddress(b, loc, "llvm.amdgcn.implicitarg.ptr");
    LLVM::ReturnOp::create(
        b, loc,
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                             LLVM::SubOp::create(b, loc, p, base),
                             LLVM::SubOp::create(b, loc, end, base)));
  }

  Value createActiveMask(OpBuilder &b, Location loc) const override {
    return warpBallot(b, loc,
                      LLVM::ConstantOp::create(b, loc, b.getI1Type(), 1));
  }

  void createSleep(OpBuilder &b, Location loc) const override {
    ROCDL::SSleepOp::create(b, loc, b.getI32IntegerAttr(1)); // ~64 clocks
  }

  void createGridDependencyControl(OpBuilder &, Location, bool) const override {
    // HIP has no programmatic dependent launch: a kernel starts after the
    // previous one in its stream has finished and its writes are visible,
    // so the wait is already satisfied and the early-launch hint has nothing
    // to release.
  }

  void createExit(OpBuilder &b, Location loc) const override {
    LLVM::CallIntrinsicOp::create(b, loc, b.getStringAttr("llvm.amdgcn.endpgm"),
                                  ValueRange());
    LLVM::UnreachableOp::create(b, loc);
  }

  StringRef getSyncScope(MemScope scope) const override {
    switch (scope) {
    case MemScope::cta:
      return "workgroup";
    case MemScope::cluster:
    case MemScope::gpu:
      return "agent";
    case MemScope::sys:
      return "";
    }
    return "";
  }

  void setKernelAttributes(LLVM::LLVMFuncOp func,
                           Operation *entry) const override {
    MLIRContext *ctx = func.getContext();
    func->setAttr(ROCDL::ROCDLDialect::getKernelFuncAttrName(),
                  UnitAttr::get(ctx));
    auto threads = [](DenseI32ArrayAttr dims) {
      int64_t n = 1;
      for (int32_t d : dims.asArrayRef())
        n *= d;
      return n;
    };
    // One warp a wave: the hardware block has twice the threads in x (at
    // most 512 PTX threads then, the limit being 1024).
    int64_t spread = oneWarp ? 2 : 1;
    int64_t maxThreads = 1024 / spread;
    if (auto req = entry->getAttrOfType<DenseI32ArrayAttr>("reqntid"))
      maxThreads = threads(req);
    else if (auto max = entry->getAttrOfType<DenseI32ArrayAttr>("maxntid"))
      maxThreads = threads(max);
    func->setAttr(ROCDL::ROCDLDialect::getFlatWorkGroupSizeAttrName(),
                  StringAttr::get(ctx, "1," + std::to_string(std::min<int64_t>(
                                                  maxThreads * spread, 1024))));
    if (auto req = entry->getAttrOfType<DenseI32ArrayAttr>("reqntid")) {
      SmallVector<int32_t, 3> dims(req.asArrayRef());
      dims.resize(3, 1);
      dims[0] *= spread;
      func->setAttr(ROCDL::ROCDLDialect::getReqdWorkGroupSizeAttrName(),
                    DenseI32ArrayAttr::get(ctx, dims));
    }
    // Occupancy hints, as HIP's __launch_bounds__ gives them: .minnctapersm
    // blocks of maxThreads resident at once is that many waves over the 4
    // SIMDs of a workgroup processor (CDNA: of a compute unit, at most 8
    // waves each); .maxnreg caps the VGPRs (a PTX register and a VGPR both
    // hold 32 bits per thread).
    SmallVector<Attribute> passthrough;
    auto pass = [&](StringRef key, int64_t value) {
      passthrough.push_back(
          ArrayAttr::get(ctx, {StringAttr::get(ctx, key),
                               StringAttr::get(ctx, std::to_string(value))}));
    };
    if (auto blocks = entry->getAttrOfType<IntegerAttr>("minnctapersm")) {
      int64_t wave = oneWarp ? 32 : getWaveSize(); // PTX threads a wave
      int64_t waves = blocks.getInt() * ((maxThreads + wave - 1) / wave);
      pass("amdgpu-waves-per-eu",
           std::clamp<int64_t>((waves + 3) / 4, 1, wave64 ? 8 : 16));
    }
    if (auto regs = entry->getAttrOfType<IntegerAttr>("maxnreg"))
      pass("amdgpu-num-vgpr", regs.getInt());
    if (!passthrough.empty())
      func.setPassthroughAttr(ArrayAttr::get(ctx, passthrough));
  }

private:
  std::string chip;
  bool wave64;
  /// wave64 with one PTX warp a wave (the upper half idle).
  bool oneWarp;
};

} // namespace

std::optional<AMDGPUTargetId>
zluda::ptx::parseAMDGPUTargetId(StringRef id, std::string &error) {
  auto [processor, rest] = id.split(':');
  bool wave32 = llvm::StringSwitch<bool>(processor)
                    .Cases({"gfx1030", "gfx1031", "gfx1032", "gfx1033",
                            "gfx1034", "gfx1035", "gfx1036"},
                           true)
                    .Cases({"gfx1100", "gfx1101", "gfx1102", "gfx1103",
                            "gfx1150", "gfx1151", "gfx1152", "gfx1153"},
                           true)
                    .Cases({"gfx1200", "gfx1201", "gfx10-3-generic",
                            "gfx11-generic", "gfx12-generic"},
                           true)
                    .Default(false);
  // CDNA processors since MI200: wave64 only, with SRAM ECC and XNACK
  // (page-fault replay) modes.
  bool wave64 =
      llvm::StringSwitch<bool>(processor)
          .Cases({"gfx90a", "gfx942", "gfx950", "gfx9-4-generic"}, true)
          .Default(false);
  if (!wave32 && !wave64) {
    bool older = llvm::StringSwitch<bool>(processor)
                     .Cases({"gfx900", "gfx902", "gfx904", "gfx906", "gfx908",
                             "gfx909", "gfx90c", "gfx9-generic"},
                            true)
                     .Default(false);
    error = older ? ("'" + processor +
                     "' is not supported (wave64 processors: gfx90a, gfx942, "
                     "gfx950, gfx9-4-generic)")
                        .str()
                  : ("unknown AMDGPU processor '" + processor + "'").str();
    return std::nullopt;
  }
  std::optional<bool> sramecc, xnack;
  SmallVector<StringRef> parts;
  if (!rest.empty())
    rest.split(parts, ':');
  for (StringRef part : parts) {
    char sign = part.empty() ? 0 : part.back();
    StringRef name = part.drop_back();
    std::optional<bool> *slot = name == "sramecc" ? &sramecc
                                : name == "xnack" ? &xnack
                                                  : nullptr;
    if (!slot || (sign != '+' && sign != '-')) {
      error = ("'" + id + "': unknown target feature '" + part +
               "' (sramecc+, sramecc-, xnack+ or xnack-)")
                  .str();
      return std::nullopt;
    }
    if (!wave64) {
      error =
          ("'" + id + "': '" + processor + "' has no " + name + " mode").str();
      return std::nullopt;
    }
    if (slot->has_value()) {
      error = ("'" + id + "': " + name + " given twice").str();
      return std::nullopt;
    }
    *slot = sign == '+';
  }
  AMDGPUTargetId out;
  out.processor = processor.str();
  out.canonical = out.processor;
  out.waveSize = wave64 ? 64 : 32;
  for (auto [name, value] : {std::pair{"sramecc", sramecc}, {"xnack", xnack}}) {
    if (!value)
      continue;
    out.canonical += std::string(":") + name + (*value ? "+" : "-");
    out.features += std::string(out.features.empty() ? "" : ",") +
                    (*value ? "+" : "-") + name;
  }
  return out;
}

std::unique_ptr<TargetInfo>
zluda::ptx::createAMDGPUTargetInfo(StringRef chip, std::string &error,
                                   unsigned warpsPerWave) {
  std::optional<AMDGPUTargetId> id = parseAMDGPUTargetId(chip, error);
  if (!id)
    return nullptr;
  if (warpsPerWave != 1 && warpsPerWave != 2) {
    error = "warps a wave must be 1 or 2, not " + std::to_string(warpsPerWave);
    return nullptr;
  }
  // (On wave32 a wave is one warp whichever is asked.)
  return std::make_unique<AMDGPUTargetInfo>(
      id->processor, id->waveSize, id->waveSize == 64 && warpsPerWave == 1);
}
