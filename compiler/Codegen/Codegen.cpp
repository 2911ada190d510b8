//===- Codegen.cpp - ptx dialect to AMDGPU code objects
//--------------------===//

#include "compiler/Codegen/Codegen.h"
#include "compiler/Cache/Cache.h"
#include "compiler/Codegen/CrashIsolation.h"
#include "compiler/Codegen/MetadataNotes.h"
#include "compiler/Codegen/Pipeline.h"
#include "compiler/Codegen/Printf.h"
#include "compiler/Codegen/TranslateInParts.h"
#include "compiler/Codegen/WideAtomics.h"

#include "dialects/ptx/PTXOps.h"
#include "passes/PTXToLLVM/PTXToLLVM.h"
#include "passes/Passes.h"

#include "lld/Common/Driver.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/TargetParser.h"

#include <chrono>
#include <cstdlib>
#include <malloc.h>
#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace zluda;

namespace {

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The target ID `chip`, which compile() has checked.
ptx::AMDGPUTargetId targetIdOf(llvm::StringRef chip) {
  std::string error;
  std::optional<ptx::AMDGPUTargetId> id = ptx::parseAMDGPUTargetId(chip, error);
  assert(id && "compile() checks the target ID");
  return *id;
}

/// `__oclc_*` control constants the device libraries read.
void addControlConstants(llvm::Module &m, llvm::StringRef chip,
                         unsigned codeObjectVersion) {
  ptx::AMDGPUTargetId id = targetIdOf(chip);
  llvm::AMDGPU::IsaVersion isa = llvm::AMDGPU::getIsaVersion(id.processor);
  llvm::LLVMContext &ctx = m.getContext();
  auto add = [&](llvm::StringRef name, llvm::Type *type, uint64_t value) {
    if (llvm::GlobalVariable *old = m.getGlobalVariable(name, true)) {
      old->setInitializer(llvm::ConstantInt::get(type, value));
      old->setConstant(true);
      old->setLinkage(llvm::GlobalValue::PrivateLinkage);
      return;
    }
    auto *g = new llvm::GlobalVariable(
        m, type, true, llvm::GlobalValue::PrivateLinkage,
        llvm::ConstantInt::get(type, value), name, nullptr,
        llvm::GlobalValue::NotThreadLocal, 4);
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  };
  llvm::Type *i8 = llvm::Type::getInt8Ty(ctx),
             *i32 = llvm::Type::getInt32Ty(ctx);
  add("__oclc_ISA_version", i32,
      isa.Major * 1000 + isa.Minor * 100 + isa.Stepping);
  add("__oclc_ABI_version", i32, codeObjectVersion * 100);
  add("__oclc_daz_opt", i8, 0);
  add("__oclc_finite_only_opt", i8, 0);
  add("__oclc_unsafe_math_opt", i8, 0);
  add("__oclc_correctly_rounded_sqrt32", i8, 1);
  add("__oclc_wavefrontsize64", i8, id.waveSize == 64);
}

/// The bitcode of the device library at `path`, read once a process (the
/// buffers are never changed, so threads share them).
llvm::Expected<llvm::MemoryBufferRef> deviceLibBitcode(llvm::StringRef path) {
  static std::mutex mutex;
  static llvm::StringMap<std::unique_ptr<llvm::MemoryBuffer>> read;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<llvm::MemoryBuffer> &buffer = read[path];
  if (!buffer) {
    auto file = llvm::MemoryBuffer::getFile(path);
    if (!file) {
      read.erase(path);
      return makeError("cannot read device library " + path + ": " +
                       file.getError().message());
    }
    buffer = std::move(*file);
  }
  return buffer->getMemBufferRef();
}

llvm::Error linkDeviceLibs(llvm::Module &m, const codegen::Options &opts) {
  for (const char *lib : {"ocml.bc", "ockl.bc"}) {
    llvm::SmallString<256> path(opts.deviceLibDir);
    llvm::sys::path::append(path, lib);
    auto buf = deviceLibBitcode(path);
    if (!buf)
      return buf.takeError();
    // Lazily: the linker reads only the functions the module uses (it
    // parsed all of ocml's for each module before: ~0.05 s).
    auto libModule = llvm::getLazyBitcodeModule(*buf, m.getContext());
    if (!libModule)
      return libModule.takeError();
    (*libModule)->setTargetTriple(m.getTargetTriple());
    (*libModule)->setDataLayout(m.getDataLayout());
    if (llvm::Linker::linkModules(m, std::move(*libModule),
                                  llvm::Linker::Flags::LinkOnlyNeeded))
      return makeError("cannot link device library " + path);
  }
  return llvm::Error::success();
}

std::mutex lldMutex; // lld is not thread-safe

/// Links relocatable objects, in order, into one code object.
llvm::Expected<std::string>
linkCodeObject(llvm::ArrayRef<std::string> objects) {
  std::vector<llvm::SmallString<128>> ins(objects.size());
  llvm::SmallString<128> out;
  llvm::scope_exit cleanup([&] {
    for (auto &in : ins)
      if (!in.empty())
        llvm::sys::fs::remove(in);
    if (!out.empty())
      llvm::sys::fs::remove(out);
  });
  for (auto [in, object] : llvm::zip(ins, objects)) {
    if (auto ec = llvm::sys::fs::createTemporaryFile("zluda", "o", in))
      return makeError("cannot create a temporary file: " + ec.message());
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec)
      return makeError("cannot write " + in + ": " + ec.message());
    os << object;
    os.flush();
    if (os.has_error()) { // a full disk: an error, not an abort
      std::error_code werr = os.error();
      os.clear_error();
      return makeError("cannot write a temporary file for the linker: " +
                       werr.message());
    }
  }
  if (auto ec = llvm::sys::fs::createTemporaryFile("zluda", "hsaco", out))
    return makeError("cannot create a temporary file: " + ec.message());
  // lld writes its output through a mapping of the file, which faults
  // (SIGBUS, the whole process) when the file system is full: refuse to
  // link without room for the output (at most the inputs' size, twice).
  uint64_t need = 64 * 1024;
  for (const std::string &object : objects)
    need += 2 * object.size();
  llvm::ErrorOr<llvm::sys::fs::space_info> space =
      llvm::sys::fs::disk_space(llvm::sys::path::parent_path(out));
  if (space && space->available < need)
    return makeError("not enough room to link in the temporary directory " +
                     llvm::sys::path::parent_path(out) + " (" +
                     llvm::Twine(space->available) + " bytes free, " +
                     llvm::Twine(need) + " needed)");
  std::string errors;
  llvm::raw_string_ostream errStream(errors);
  std::string outs;
  llvm::raw_string_ostream outStream(outs);
  std::vector<const char *> args = {"ld.lld", "-shared", "--no-undefined"};
  for (auto &in : ins)
    args.push_back(in.c_str());
  args.push_back("-o");
  args.push_back(out.c_str());
  lld::Result result;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    result =
        lld::lldMain(args, outStream, errStream, {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0) {
    // The errors, without lld's ">>> referenced by <temporary file>" lines:
    // no paths of this machine in messages that may be cached.
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(errors).split(lines, '\n', -1, false);
    std::string kept;
    for (llvm::StringRef l : lines)
      if (!l.trim().starts_with(">>>"))
        kept += (kept.empty() ? "" : "; ") + l.trim().str();
    return makeError("lld failed: " + kept);
  }
  auto buf = llvm::MemoryBuffer::getFile(out);
  if (!buf)
    return makeError("cannot read the linked code object");
  return (*buf)->getBuffer().str();
}

/// Records the time since the last mark as `phase`.
class PhaseClock {
public:
  explicit PhaseClock(std::vector<std::pair<std::string, double>> *sink)
      : sink(sink), last(std::chrono::steady_clock::now()) {}
  void mark(const char *phase) {
    auto now = std::chrono::steady_clock::now();
    if (sink)
      sink->emplace_back(phase,
                         std::chrono::duration<double>(now - last).count());
    last = now;
  }

private:
  std::vector<std::pair<std::string, double>> *sink;
  std::chrono::steady_clock::time_point last;
};

std::unique_ptr<llvm::TargetMachine>
createTargetMachine(const llvm::Triple &triple, const codegen::Options &opts,
                    std::string &error) {
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  llvm::TargetOptions targetOptions;
  // NVPTX: PTX ISA 8.3 (CUDA 12.3 drivers and later), for 128-bit atomics.
  // AMDGPU: the processor, and the sramecc/xnack modes the target ID sets
  // (unset: the code object runs in either).
  std::string cpu = opts.chip;
  std::string features = opts.target == "nvptx" ? "+ptx83" : "";
  if (opts.target == "amdgpu") {
    ptx::AMDGPUTargetId id = targetIdOf(opts.chip);
    cpu = id.processor;
    features = id.features;
  }
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      // Default, not Aggressive: on the corpus (bench/code-quality.py) it
      // gave 0.9% fewer instructions and the same registers, and compiles
      // about 5% faster (its IR passes use EarlyCSE where Aggressive runs
      // GVN again, docs/benchmarks.md).
      llvm::CodeGenOptLevel::Default));
  if (!tm)
    error = "no target machine for " + opts.chip;
  return tm;
}

llvm::Expected<std::string> emitFile(llvm::TargetMachine &tm,
                                     llvm::Module &module,
                                     llvm::CodeGenFileType type) {
  llvm::SmallString<0> buffer;
  llvm::raw_svector_ostream bos(buffer);
  llvm::legacy::PassManager cg;
  if (tm.addPassesToEmitFile(cg, bos, nullptr, type))
    return makeError("the backend cannot emit this file type");
  // For the tests of crash isolation (docs/user-guide.md): the back end
  // fails as LLVM's own fatal errors do, on the named function.
  if (const char *crashOn = std::getenv("ZLUDA_DEBUG_CRASH_ON"))
    if (module.getFunction(crashOn))
      llvm::report_fatal_error(
          llvm::Twine("ZLUDA_DEBUG_CRASH_ON: crashing on ") + crashOn);
  cg.run(module);
  return std::string(buffer.begin(), buffer.end());
}

/// An empty side-effecting inline asm after every `llvm.trap`, so that the
/// trap never ends its machine block. LLVM 22.1's AMDGPU backend expands a
/// trap that ends a block without successors on gfx1100-gfx1102 (the
/// simulated trap: s_trap, then a halt loop) and then skips the blocks laid
/// out after it, leaving their pseudo-instructions unexpanded: "LLVM ERROR:
/// Unsupported instruction" (llvm-project#208912, fixed after 22.1). The
/// asm emits nothing, and is never reached.
void guardTraps(llvm::Module &module) {
  llvm::SmallVector<llvm::CallInst *> traps;
  for (llvm::Function &f : module)
    for (llvm::Instruction &i : llvm::instructions(f))
      if (auto *call = llvm::dyn_cast<llvm::CallInst>(&i))
        if (call->getIntrinsicID() == llvm::Intrinsic::trap)
          traps.push_back(call);
  if (traps.empty())
    return;
  auto *type = llvm::FunctionType::get(
      llvm::Type::getVoidTy(module.getContext()), false);
  auto *nothing = llvm::InlineAsm::get(type, "", "", /*hasSideEffects=*/true);
  for (llvm::CallInst *call : traps)
    llvm::CallInst::Create(type, nothing, "", std::next(call->getIterator()));
}

/// Unnamed globals (the device library's printf has some) would each be
/// printed as __unnamed_1 in their partition and clash: names them, in
/// module order (deterministic).
void nameAnonymousGlobals(llvm::Module &module) {
  for (llvm::GlobalValue &g : module.global_values())
    if (!g.hasName())
      g.setName("__zluda_anon");
}

/// The optimizer, then what needs the optimized module: printf's format strings
/// are constants only then (the device library's printf functions are linked in
/// after), and the traps' guard.
llvm::Error optimizeModule(llvm::TargetMachine &tm, llvm::Module &module,
                           const codegen::Options &opts) {
  bool nvptx = opts.target == "nvptx";
  codegen::optimize(tm, module, /*amdgpu=*/!nvptx);
  if (!nvptx && (module.getFunction("__zluda_vprintf") ||
                 module.getFunction("__zluda_assertfail"))) {
    if (auto err = codegen::expandPrintf(module))
      return err;
    if (auto err = linkDeviceLibs(module, opts))
      return err;
    addControlConstants(module, opts.chip, opts.codeObjectVersion);
  }
  if (!nvptx) {
    guardTraps(module);
    nameAnonymousGlobals(module);
  }
  return llvm::Error::success();
}

/// The module is the whole program: no function but a kernel is called
/// from outside it. AMDGPU's splitter keeps a function of external linkage
/// in one partition with every kernel that calls it (it cannot be copied),
/// and the device libraries' are external: all five DeviceScanKernels of
/// scan.sm_80 shared one partition through __ockl_get_num_groups (95% of
/// the module). Internal, they are copied into each partition that calls
/// them, as the module's own functions are.
void internalizeFunctions(llvm::Module &module) {
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !f.hasLocalLinkage() &&
        f.getCallingConv() != llvm::CallingConv::AMDGPU_KERNEL) {
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
      f.setVisibility(llvm::GlobalValue::DefaultVisibility);
    }
}

/// The number of partitions for `module`: one per kernel up to
/// maxPartitions; a function of the module only.
unsigned partitionCount(const llvm::Module &module) {
  unsigned kernels = 0;
  for (const llvm::Function &f : module)
    if (!f.isDeclaration() &&
        f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
      ++kernels;
  return std::min(kernels, codegen::maxPartitions);
}

/// Gives the pages of what was freed back to the system: the partitions'
/// threads allocate from arenas of their own, which cannot reuse the main
/// one's free memory (bounded memory, docs/benchmarks.md). Not under
/// AddressSanitizer, whose allocator replaces glibc's: glibc's malloc_trim
/// then locks an arena nothing initialized, and two build jobs trimming at
/// once deadlocked (the CI sanitizer pass hung in Driver/shard-merge.test).
void releaseFreedMemory() {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  return;
#endif
#endif
  malloc_trim(0);
}

/// Optimizes and code-generates the linked `module` as partitions in
/// parallel (each in its own LLVMContext, handed over as bitcode; AMDGPU's
/// splitter keeps a kernel with everything it calls) and links them into a
/// code object. Splitting before the optimizer keeps all but parsing and
/// lowering off the serial path (-j 2: 1.2x before, docs/benchmarks.md); a
/// function that kernels of several partitions call is optimized in each.
/// `owned` is released once split (bounded memory).
llvm::Expected<std::string> emitCodeObject(llvm::TargetMachine &tm,
                                           std::unique_ptr<llvm::Module> owned,
                                           const codegen::Options &opts,
                                           PhaseClock &clock) {
  llvm::Module &module = *owned;
  std::vector<llvm::SmallString<0>> parts;
  unsigned n = partitionCount(module);
  nameAnonymousGlobals(module);
  internalizeFunctions(module);
  bool split = n > 1 && tm.splitModule(module, n, [&](auto part) {
    llvm::SmallString<0> &bc = parts.emplace_back();
    llvm::raw_svector_ostream os(bc);
    llvm::WriteBitcodeToFile(*part, os);
  });
  if (split) {
    owned.reset();
    releaseFreedMemory();
  }
  std::vector<std::string> objects(split ? parts.size() : 1);
  std::vector<llvm::Error> errors;
  if (!split) {
    if (auto err = optimizeModule(tm, module, opts))
      return err;
    auto obj = emitFile(tm, module, llvm::CodeGenFileType::ObjectFile);
    if (!obj)
      return obj.takeError();
    objects[0] = std::move(*obj);
  } else {
    clock.mark("split");
    std::vector<std::string> failures(parts.size());
    llvm::DefaultThreadPool pool(llvm::hardware_concurrency(opts.jobs));
    for (size_t i = 0; i < parts.size(); ++i)
      pool.async([&, i] {
        llvm::LLVMContext ctx;
        auto m = llvm::parseBitcodeFile(
            llvm::MemoryBufferRef(parts[i].str(), "partition"), ctx);
        if (!m) {
          failures[i] = llvm::toString(m.takeError());
          return;
        }
        std::string error;
        auto partTM = createTargetMachine((*m)->getTargetTriple(), opts, error);
        if (!partTM) {
          failures[i] = error;
          return;
        }
        // This thread's crash fails the job, not the process (the job's own
        // thread recovers from crashes on it, not on this one).
        std::string crash;
        bool survived = codegen::runIsolated(
            [&] {
              // The splitter makes what partitions share external, the
              // device libraries' control constants too: private constants
              // again, or the optimizer cannot fold them (2% more instructions
              // on the corpus, a division per block-size query).
              addControlConstants(**m, opts.chip, opts.codeObjectVersion);
              if (auto err = optimizeModule(*partTM, **m, opts)) {
                failures[i] = llvm::toString(std::move(err));
                return;
              }
              auto obj =
                  emitFile(*partTM, **m, llvm::CodeGenFileType::ObjectFile);
              if (!obj)
                failures[i] = llvm::toString(obj.takeError());
              else
                objects[i] = std::move(*obj);
            },
            crash);
        if (!survived)
          failures[i] = codegen::kCrashPrefix.str() + crash;
      });
    pool.wait();
    for (const std::string &f : failures)
      if (!f.empty())
        return makeError(f);
  }
  clock.mark("codegen");
  auto linked = linkCodeObject(objects);
  // One metadata note for the partitions' kernels (lld keeps one a part).
  if (linked && split)
    if (llvm::Error e = codegen::mergeMetadataNotes(*linked))
      return std::move(e);
  clock.mark("link");
  return linked;
}

/// Lowers `owned` (consumed, and released once translated to LLVM IR) and
/// the modules it is linked with down to the artifact's bytes.
llvm::Expected<std::string> lowerModule(OwningOpRef<ModuleOp> owned,
                                        const codegen::Options &opts,
                                        codegen::Emit emit,
                                        llvm::ArrayRef<ModuleOp> linkWith) {
  ModuleOp module = *owned;
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser(); // inline asm in the device libraries
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // NVPTX: 32-bit pointers into .shared, .const and .local, as nvcc
    // addresses shared memory (TargetInfoNVPTX's data layout says the
    // same): with 64-bit ones each shared address a GEMM's copy loop reuses
    // was a 64-bit register of its own (cuda-samples' cudaTensorCoreGemm;
    // its speed on the H200 did not change, 0.879 -> 0.881 of NVIDIA's).
    // --mllvm=-nvptx-short-ptr=false still decides otherwise.
    auto *shortPointers = static_cast<llvm::cl::opt<bool> *>(
        llvm::cl::getRegisteredOptions().lookup("nvptx-short-ptr"));
    if (shortPointers && !shortPointers->getNumOccurrences())
      shortPointers->setValue(true);
  });
  bool nvptx = opts.target == "nvptx";
  MLIRContext *ctx = module.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  PhaseClock clock(opts.phaseTimes);
  ptx::ConvertPTXToLLVMOptions convOpts;
  convOpts.chip = opts.chip;
  convOpts.targetName = opts.target;
  convOpts.warpsPerWave = opts.warpsPerWave;
  auto lower = [&](ModuleOp m) {
    PassManager pm(ctx);
    pm.addPass(ptx::createConvertPTXToLLVM(convOpts));
    return pm.run(m);
  };
  // The functions declared `.extern` (not the CUDA runtime's, which the
  // target provides, nor the device runtime's, whose callers are reported
  // unsupported): the device link must define the ones used.
  std::vector<std::string> externs;
  for (auto f : module.getOps<ptx::FuncOp>())
    if (f.getBody().empty() && !ptx::isRuntimeFunction(f.getSymName()) &&
        !ptx::deviceRuntimeFunctionKind(f.getSymName()))
      externs.push_back(f.getSymName().str());
  if (failed(lower(module)))
    return makeError("lowering failed");

  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      codegen::translateInParts(module, llvmCtx);
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  // The MLIR form is not needed any more: its memory goes before LLVM's
  // pipeline needs its own (bounded memory, docs/benchmarks.md).
  owned = nullptr;
  releaseFreedMemory();
  // Device link: what the module declares .extern, from the others.
  for (ModuleOp other : linkWith) {
    OwningOpRef<ModuleOp> copy = other.clone();
    if (failed(lower(*copy)))
      return makeError("lowering a linked module failed");
    std::unique_ptr<llvm::Module> dep = translateModuleToLLVMIR(*copy, llvmCtx);
    if (!dep)
      return makeError("translation of a linked module failed");
    // Variables without .visible/.extern belong to their module (nvcc's
    // `$str` printf formats in every -rdc module): one named like a symbol
    // already linked is made internal, which the linker renames, so that
    // each module keeps its own (it was bound to the other module's, or a
    // 'symbol multiply defined' error stopped the build).
    for (auto g : other.getOps<ptx::GlobalOp>()) {
      if (g.getLinkage())
        continue;
      llvm::GlobalVariable *mine =
          dep->getGlobalVariable(g.getSymName(), /*AllowInternal=*/true);
      if (mine && !mine->isDeclaration() &&
          llvmModule->getNamedValue(g.getSymName()))
        mine->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
    // Only its functions and variables: kernels stay in their own module
    // (unless the modules make one program).
    if (!opts.linkWhole)
      for (llvm::Function &f : *dep)
        if (f.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL ||
            f.getCallingConv() == llvm::CallingConv::PTX_Kernel)
          f.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (llvm::Linker::linkModules(*llvmModule, std::move(dep),
                                  opts.linkWhole
                                      ? llvm::Linker::Flags::None
                                      : llvm::Linker::LinkOnlyNeeded))
      return makeError("linking the modules failed");
  }
  for (const std::string &name : externs) {
    llvm::Function *f = llvmModule->getFunction(name);
    if (f && f->isDeclaration() && !f->use_empty())
      return makeError("function '" + name +
                       "' is declared .extern and defined in " +
                       (linkWith.empty() ? "another module (link it with "
                                           "this one)"
                                         : "none of the modules linked"));
  }
  clock.mark("lower");
  if (!nvptx)
    llvmModule->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                              opts.codeObjectVersion * 100);

  std::string error;
  std::unique_ptr<llvm::TargetMachine> tm =
      createTargetMachine(llvmModule->getTargetTriple(), opts, error);
  if (!tm)
    return makeError(error);
  llvmModule->setDataLayout(tm->createDataLayout());

  if (!nvptx) {
    if (auto err = linkDeviceLibs(*llvmModule, opts))
      return std::move(err);
    addControlConstants(*llvmModule, opts.chip, opts.codeObjectVersion);
    codegen::expandWideAtomics(*llvmModule, targetIdOf(opts.chip).waveSize);
  }
  clock.mark("link-device-libs");

  if (emit == codegen::Emit::HSACO && !nvptx)
    return emitCodeObject(*tm, std::move(llvmModule), opts, clock);
  if (auto err = optimizeModule(*tm, *llvmModule, opts))
    return std::move(err);
  clock.mark("optimize");

  if (emit == codegen::Emit::LLVM) {
    std::string text;
    llvm::raw_string_ostream os(text);
    llvmModule->print(os, nullptr);
    return text;
  }
  auto text =
      emitFile(*tm, *llvmModule,
               emit == codegen::Emit::Asm ? llvm::CodeGenFileType::AssemblyFile
                                          : llvm::CodeGenFileType::ObjectFile);
  clock.mark("codegen");
  return text;
}

} // namespace

unsigned codegen::codeObjectVersionFor(llvm::StringRef chip,
                                       unsigned requested) {
  if (requested)
    return requested;
  return cache::defaultCodeObjectVersion(chip);
}

llvm::Expected<codegen::Artifact>
codegen::compile(ModuleOp module, const Options &options, Emit emit,
                 llvm::ArrayRef<ModuleOp> linkWith) {
  return compile(OwningOpRef<ModuleOp>(module.clone()), options, emit,
                 linkWith);
}

llvm::Expected<codegen::Artifact>
codegen::compile(OwningOpRef<ModuleOp> owned, const Options &options, Emit emit,
                 llvm::ArrayRef<ModuleOp> linkWith) {
  Options opts = options;
  if (opts.target == "amdgpu") {
    std::string error;
    std::optional<ptx::AMDGPUTargetId> id =
        ptx::parseAMDGPUTargetId(opts.chip, error);
    if (!id)
      return makeError(error);
    opts.chip = id->canonical;
    opts.codeObjectVersion =
        codeObjectVersionFor(opts.chip, opts.codeObjectVersion);
    if (llvm::StringRef(id->processor).ends_with("-generic") &&
        opts.codeObjectVersion < 6)
      return makeError("the generic processor '" + id->processor +
                       "' needs code object version 6");
  }
  // NVPTX: a module written for an architecture-specific target (`.target
  // sm_90a`: wgmma, setmaxnreg) of the processor asked for is compiled for
  // that variant, which ptxas requires of those instructions and which runs
  // on the processor.
  if (opts.target == "nvptx")
    if (auto header = (*owned)->getAttrOfType<ptx::TargetAttr>("ptx.module"))
      for (Attribute t : header.getTargets())
        if (auto name = dyn_cast<StringAttr>(t);
            name && name.getValue() == opts.chip + "a")
          opts.chip = name.getValue().str();
  Artifact artifact;
  std::string targetError;
  std::unique_ptr<ptx::TargetInfo> target =
      opts.keepGoing ? ptx::createTargetInfo(opts.target, opts.chip,
                                             targetError, opts.warpsPerWave)
                     : nullptr;
  // (Without a target the lowering reports why.)
  if (target) {
    auto removed = ptx::removeUnsupportedKernels(*owned, *target);
    if (failed(removed))
      return makeError("lowering failed");
    artifact.removedKernels.assign(removed->begin(), removed->end());
  }
  // The modules linked in lose what is unsupported too (a -rdc program
  // with the device runtime: its library's functions call the driver);
  // linked whole, their kernels count as this module's.
  std::vector<OwningOpRef<ModuleOp>> linkedClones;
  SmallVector<ModuleOp> linked;
  for (ModuleOp other : linkWith) {
    if (!target) {
      linked.push_back(other);
      continue;
    }
    linkedClones.push_back(other.clone());
    auto removed = ptx::removeUnsupportedKernels(*linkedClones.back(), *target);
    if (failed(removed))
      return makeError("lowering a linked module failed");
    if (opts.linkWhole)
      artifact.removedKernels.insert(artifact.removedKernels.end(),
                                     removed->begin(), removed->end());
    linked.push_back(*linkedClones.back());
  }
  if (target && !artifact.removedKernels.empty()) {
    bool anyLeft = !owned->getOps<ptx::EntryOp>().empty();
    if (opts.linkWhole)
      for (ModuleOp part : linked)
        anyLeft = anyLeft || !part.getOps<ptx::EntryOp>().empty();
    if (!anyLeft)
      return makeError("no kernel left to compile");
  }
  auto bytes = lowerModule(std::move(owned), opts, emit, linked);
  if (!bytes)
    return bytes.takeError();
  artifact.bytes = std::move(*bytes);
  return artifact;
}

std::string codegen::makeOffloadBundle(
    const std::vector<std::pair<std::string, std::string>> &codeObjects) {
  std::vector<std::pair<std::string, const std::string *>> entries;
  static const std::string empty;
  entries.emplace_back("host-x86_64-unknown-linux-gnu-", &empty);
  for (const auto &[chip, bytes] : codeObjects)
    entries.emplace_back("hipv4-amdgcn-amd-amdhsa--" + chip, &bytes);
  constexpr uint64_t align = 4096;
  auto put64 = [](std::string &out, uint64_t v) {
    for (int i = 0; i < 8; ++i)
      out.push_back(static_cast<char>(v >> (8 * i)));
  };
  uint64_t headerSize = 24 + 8;
  for (const auto &e : entries)
    headerSize += 24 + e.first.size();
  std::string out = "__CLANG_OFFLOAD_BUNDLE__";
  put64(out, entries.size());
  uint64_t offset = headerSize;
  for (const auto &[id, bytes] : entries) {
    if (!bytes->empty())
      offset = llvm::alignTo(offset, align);
    put64(out, offset);
    put64(out, bytes->size());
    put64(out, id.size());
    out += id;
    offset += bytes->size();
  }
  for (const auto &e : entries) {
    if (e.second->empty())
      continue;
    out.resize(llvm::alignTo(out.size(), align), '\0');
    out += *e.second;
  }
  return out;
}
