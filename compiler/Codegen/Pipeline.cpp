//===- Pipeline.cpp - The optimizer's pipeline for AMDGPU -----------------===//
//
// PTX from NVVM has been inlined, unrolled, vectorized where NVIDIA's
// hardware wants it and had its loops optimized; what the lowering adds is
// straight-line IR (address arithmetic, casts, the device libraries' calls)
// that wants cleaning up, address spaces to infer, and the AMDGPU passes.
// LLVM's O3 (as PassBuilder builds it for AMDGPU, the vectorizers off) runs
// its function simplification pipeline with six InstCombines, constraint
// elimination and the loop passes over all of it: 53% of the compile time
// of sort.sm_80 and most of a cuRAND module's.
//
// This pipeline is O3's, pass for pass, with these left out, each measured
// with bench/code-quality.py on the corpus and on cuRAND/cuSPARSE modules
// (docs/benchmarks.md, "Profile"):
// - constraint elimination: the same code on the corpus, 8% of the time;
// - the loop simplification passes (LICM before rotation, loop rotation,
//   unswitching, loop-idiom, indvars, full unrolling, loop deletion),
//   jump threading, correlated value propagation, aggressive InstCombine,
//   memory-op motion, vector-combine, call-site splitting, tail-call
//   elimination (with it wmma_gemm's kernels keep 108-128 bytes of
//   scratch that they otherwise lose), argument promotion, control-height
//   reduction and the late LICM: NVVM has done their work, and cuRAND's modules
//   spent most of O3 in them;
// - two of the six InstCombines (after the loop passes and at the end of
//   the function simplification);
// - the late loop unroller: NVVM unrolled what it meant to, and AMDGPU's
//   thresholds unrolled cuRAND's XORWOW skip-ahead loops again, 8.7k
//   instructions a kernel instead of 1.5k (-25% instructions on cuRAND and
//   cuSPARSE modules, the corpus +0.01%), and the register coalescer spent
//   a quarter of the back end's time on them (0.72 of the time without).
// Kept beyond the obvious: reassociation (CUB's scan and segmented reduce
// lose 22-26 instructions without it) and speculative execution for
// divergent targets (half_bf16's kernel lost 64 without it).
//
//===----------------------------------------------------------------------===//
#include "compiler/Codegen/Pipeline.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace {

/// SimplifyCFG as O3 configures it at each of its places.
constexpr const char *simplifyCfgEarly =
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "no-switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;"
    "keep-loops;no-hoist-common-insts;no-hoist-loads-stores-with-cond-"
    "faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>";
constexpr const char *simplifyCfg =
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "switch-range-to-icmp;no-switch-to-arithmetic;no-switch-to-lookup;"
    "keep-loops;no-hoist-common-insts;no-hoist-loads-stores-with-cond-"
    "faulting;no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>";
constexpr const char *simplifyCfgHoisting =
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "switch-range-to-icmp;switch-to-arithmetic;no-switch-to-lookup;"
    "keep-loops;hoist-common-insts;no-hoist-loads-stores-with-cond-faulting;"
    "sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "no-speculate-unpredictables>";
constexpr const char *simplifyCfgLate =
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;"
    "switch-range-to-icmp;switch-to-arithmetic;no-switch-to-lookup;"
    "keep-loops;no-hoist-common-insts;hoist-loads-stores-with-cond-faulting;"
    "no-sink-common-insts;speculate-blocks;simplify-cond-branch;"
    "speculate-unpredictables>";
constexpr const char *instCombine =
    "instcombine<max-iterations=1;no-verify-fixpoint>";
/// What AMDGPU adds after each InstCombine (its peephole extension point).
constexpr const char *amdgpuPeephole =
    "amdgpu-usenative,amdgpu-simplifylib,amdgpu-uniform-intrinsic-combine";

std::string buildAmdgpuPipeline() {
  std::string p;
  auto add = [&](std::string_view text) {
    if (!p.empty() && p.back() != '(')
      p += ',';
    p += text;
  };
  // Module simplification, as O3.
  add("annotation2metadata,forceattrs,inferattrs");
  add("function<eager-inv>(lower-expect");
  add(simplifyCfgEarly);
  add("sroa<modify-cfg>,early-cse<>)");
  add("ipsccp,called-value-propagation,globalopt");
  add("function<eager-inv>(mem2reg");
  add(instCombine);
  add(amdgpuPeephole);
  add(simplifyCfg);
  p += ')';
  // Inlining and each function's simplification, bottom-up.
  add("always-inline,require<globals-aa>,function(invalidate<aa>)");
  add("cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-"
      "attrs>");
  add("function(amdgpu-promote-kernel-arguments,infer-address-spaces,"
      "amdgpu-lower-kernel-attributes,amdgpu-promote-alloca-to-vector)");
  add("function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<memssa>,"
      "speculative-execution<only-if-divergent-target>");
  add(simplifyCfg);
  add(instCombine);
  add("reassociate,loop-mssa(licm<allowspeculation>),gvn<>,sccp,bdce");
  add(instCombine);
  add(amdgpuPeephole);
  add("adce,memcpyopt,dse,infer-address-spaces");
  add(simplifyCfgHoisting);
  p += ')';
  add("function-attrs))");
  // Module optimization: what is left after inlining.
  add("deadargelim,globalopt,globaldce,rpo-function-attrs");
  add("function<eager-inv>(float2int,lower-constant-intrinsics,"
      "loop(loop-rotate<header-duplication;no-prepare-for-lto>,loop-"
      "deletion),sroa<preserve-cfg>,infer-alignment");
  add(instCombine);
  add("alignment-from-assumptions,infer-address-spaces,loop-sink,"
      "instsimplify,div-rem-pairs");
  add(simplifyCfgLate);
  p += ')';
  add("amdgpu-attributor,globaldce,constmerge");
  return p;
}

} // namespace

const std::string &zluda::codegen::amdgpuPipeline() {
  static const std::string pipeline = buildAmdgpuPipeline();
  return pipeline;
}

void zluda::codegen::optimize(TargetMachine &tm, Module &module, bool amdgpu) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // LLVM's standard instrumentation (as opt and clang): -time-passes and
  // the other debugging options given with --mllvm apply to this pipeline.
  PassInstrumentationCallbacks pic;
  StandardInstrumentations si(module.getContext(), /*DebugLogging=*/false);
  si.registerCallbacks(pic, &mam);
  PassBuilder pb(&tm, PipelineTuningOptions(), std::nullopt, &pic);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  ModulePassManager mpm;
  if (!amdgpu) {
    mpm = pb.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  } else if (Error err = pb.parsePassPipeline(mpm, amdgpuPipeline())) {
    // Fixed text: every AMDGPU compilation in the tests parses it.
    report_fatal_error(Twine("the AMDGPU pass pipeline does not parse: ") +
                       toString(std::move(err)));
  }
  mpm.run(module, mam);
}
