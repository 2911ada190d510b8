//===- Codegen.cpp - ptx dialect to AMDGPU code objects
//--------------------===//

#include "compiler/Codegen/Codegen.h"

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
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/TargetParser.h"

#include <mutex>

LLD_HAS_DRIVER(elf)

using namespace mlir;
using namespace zluda;

namespace {

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// `__oclc_*` control constants the device libraries read.
void addControlConstants(llvm::Module &m, llvm::StringRef chip) {
  llvm::AMDGPU::IsaVersion isa = llvm::AMDGPU::getIsaVersion(chip);
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
  add("__oclc_ABI_version", i32, 500);
  add("__oclc_daz_opt", i8, 0);
  add("__oclc_finite_only_opt", i8, 0);
  add("__oclc_unsafe_math_opt", i8, 0);
  add("__oclc_correctly_rounded_sqrt32", i8, 1);
  add("__oclc_wavefrontsize64", i8, 0);
}

llvm::Error linkDeviceLibs(llvm::Module &m, const codegen::Options &opts) {
  for (const char *lib : {"ocml.bc", "ockl.bc"}) {
    llvm::SmallString<256> path(opts.deviceLibDir);
    llvm::sys::path::append(path, lib);
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf)
      return makeError("cannot read device library " + path + ": " +
                       buf.getError().message());
    auto libModule = llvm::parseBitcodeFile(**buf, m.getContext());
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

llvm::Expected<std::string> linkCodeObject(llvm::StringRef object) {
  llvm::SmallString<128> in, out;
  if (auto ec = llvm::sys::fs::createTemporaryFile("zluda", "o", in))
    return makeError("cannot create a temporary file: " + ec.message());
  if (auto ec = llvm::sys::fs::createTemporaryFile("zluda", "hsaco", out))
    return makeError("cannot create a temporary file: " + ec.message());
  llvm::scope_exit cleanup([&] {
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
  });
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in, ec);
    if (ec)
      return makeError("cannot write " + in + ": " + ec.message());
    os << object;
  }
  std::string errors;
  llvm::raw_string_ostream errStream(errors);
  std::string outs;
  llvm::raw_string_ostream outStream(outs);
  const char *args[] = {"ld.lld",   "-shared", "--no-undefined",
                        in.c_str(), "-o",      out.c_str()};
  lld::Result result;
  {
    std::lock_guard<std::mutex> lock(lldMutex);
    result =
        lld::lldMain(args, outStream, errStream, {{lld::Gnu, &lld::elf::link}});
  }
  if (result.retCode != 0)
    return makeError("lld failed: " + errors);
  auto buf = llvm::MemoryBuffer::getFile(out);
  if (!buf)
    return makeError("cannot read the linked code object");
  return (*buf)->getBuffer().str();
}

/// Lowers `clone` (consumed) down to the artifact's bytes.
llvm::Expected<std::string>
lowerClone(ModuleOp clone, const codegen::Options &opts, codegen::Emit emit) {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  bool nvptx = opts.target == "nvptx";
  MLIRContext *ctx = clone.getContext();
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerROCDLDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  ctx->appendDialectRegistry(registry);

  PassManager pm(ctx);
  ptx::ConvertPTXToLLVMOptions convOpts;
  convOpts.chip = opts.chip;
  convOpts.targetName = opts.target;
  pm.addPass(ptx::createConvertPTXToLLVM(convOpts));
  if (failed(pm.run(clone)))
    return makeError("lowering failed");

  llvm::LLVMContext llvmCtx;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(clone, llvmCtx);
  if (!llvmModule)
    return makeError("translation to LLVM IR failed");
  if (!nvptx)
    llvmModule->addModuleFlag(llvm::Module::Error, "amdhsa_code_object_version",
                              opts.codeObjectVersion * 100);

  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvmModule->getTargetTriple(), error);
  if (!target)
    return makeError(error);
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      llvmModule->getTargetTriple(), opts.chip, "", targetOptions,
      llvm::Reloc::PIC_, std::nullopt, llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return makeError("no target machine for " + opts.chip);
  llvmModule->setDataLayout(tm->createDataLayout());

  if (!nvptx) {
    if (auto err = linkDeviceLibs(*llvmModule, opts))
      return std::move(err);
    addControlConstants(*llvmModule, opts.chip);
  }

  {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(tm.get());
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm =
        pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
    mpm.run(*llvmModule, mam);
  }

  std::string text;
  llvm::raw_string_ostream os(text);
  if (emit == codegen::Emit::LLVM) {
    llvmModule->print(os, nullptr);
    return text;
  }
  {
    llvm::SmallString<0> buffer;
    llvm::raw_svector_ostream bos(buffer);
    llvm::legacy::PassManager cg;
    if (tm->addPassesToEmitFile(cg, bos, nullptr,
                                emit == codegen::Emit::Asm
                                    ? llvm::CodeGenFileType::AssemblyFile
                                    : llvm::CodeGenFileType::ObjectFile))
      return makeError("the AMDGPU backend cannot emit this file type");
    cg.run(*llvmModule);
    text.assign(buffer.begin(), buffer.end());
  }
  if (emit != codegen::Emit::HSACO || nvptx)
    return text;
  return linkCodeObject(text);
}

} // namespace

llvm::Expected<codegen::Artifact>
codegen::compile(ModuleOp module, const Options &opts, Emit emit) {
  OwningOpRef<ModuleOp> clone = module.clone();
  Artifact artifact;
  if (opts.keepGoing) {
    auto removed = ptx::removeUnsupportedKernels(*clone);
    if (failed(removed))
      return makeError("lowering failed");
    artifact.removedKernels.assign(removed->begin(), removed->end());
    if (!removed->empty() && clone->getOps<ptx::EntryOp>().empty())
      return makeError("no kernel left to compile");
  }
  auto bytes = lowerClone(*clone, opts, emit);
  if (!bytes)
    return bytes.takeError();
  artifact.bytes = std::move(*bytes);
  return artifact;
}
