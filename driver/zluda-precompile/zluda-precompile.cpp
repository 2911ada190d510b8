//===- zluda-precompile.cpp - The toolchain's command-line driver ---------===//
//
// Shaped like CIRCT's firtool: errors are diagnostics with locations, output
// is written only on success, and the exit code is non-zero on any error.
//
//===----------------------------------------------------------------------===//

#include "BinaryCommands.h"
#include "CacheCommands.h"
#include "RunCommand.h"
#include "compiler/Build/Build.h"
#include "compiler/Cache/Cache.h"

#include "compiler/Codegen/Codegen.h"
#include "compiler/Codegen/CrashIsolation.h"
#include "compiler/Frontend/PTXParser.h"
#include "compiler/Pipeline/Pipeline.h"
#include "passes/PTXToLLVM/TargetInfo.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <dlfcn.h>

namespace {

constexpr const char *kVersion = "0.1.0";

struct CompileOptions {
  std::string input;
  std::string output = "-";
  std::string emit; ///< default: hsaco (asm for nvptx) with --arch, else mlir
  std::string arch;
  std::string target = "amdgpu";
  bool genericForm = false;
  bool debugInfo = false;
  bool timePhases = false;
  bool keepGoing = false;
  unsigned jobs = 0;
  unsigned codeObject = 0;
  unsigned warpsPerWave = 2;
  std::vector<std::string> link; ///< modules defining what input uses .extern
  std::vector<std::string> llvmArgs; ///< --mllvm: LLVM's own options
};

/// `compile` reads PTX (or MLIR) text: a binary given instead is named, with
/// the subcommand that reads it, never echoed in a diagnostic.
bool isText(llvm::StringRef path, llvm::StringRef bytes) {
  const char *kind = nullptr;
  if (bytes.starts_with("\x7f"
                        "ELF"))
    kind = "an ELF file (executable, library or object)";
  else if (bytes.starts_with("!<arch>\n"))
    kind = "an archive";
  else if (bytes.starts_with("\x50\xed\x55\xba") ||
           bytes.starts_with("\xb1\x43\x62\x46"))
    kind = "a fatbin";
  else if (bytes.take_front(4096).contains('\0'))
    kind = "binary data";
  if (!kind)
    return true;
  fmt::print(stderr,
             "zluda-precompile: error: {} is {}, not PTX text: `build` "
             "compiles the PTX inside binaries (`list` and `extract` show "
             "it)\n",
             path.str(), kind);
  return false;
}

int runCompile(const CompileOptions &opts) {
  // LLVM's own options, as clang's -mllvm (-time-passes, -debug-pass...):
  // for investigating the back end; `build` does not take them, since they
  // may change the code and are not part of a cache key.
  if (!opts.llvmArgs.empty()) {
    std::vector<const char *> argv = {"zluda-precompile"};
    for (const std::string &arg : opts.llvmArgs)
      argv.push_back(arg.c_str());
    std::string errors;
    llvm::raw_string_ostream os(errors);
    if (!llvm::cl::ParseCommandLineOptions(int(argv.size()), argv.data(), "",
                                           &os)) {
      // LLVM's first line, without its program name and its advice to
      // run --help (ours lists other options).
      llvm::StringRef line = llvm::StringRef(errors).split('\n').first;
      line.consume_front("zluda-precompile: ");
      fmt::print(stderr, "zluda-precompile: error: --mllvm: {}\n",
                 line.split("  Try:").first.str());
      return 1;
    }
  }
  mlir::DialectRegistry registry;
  zluda::registerDialects(registry);
  // The context and the module are not freed: tearing down a large module
  // costs more than the process exit that follows (like clang -disable-free).
  auto *contextPtr =
      new mlir::MLIRContext(registry, mlir::MLIRContext::Threading::DISABLED);
  mlir::MLIRContext &context = *contextPtr;
  context.loadAllAvailableDialects();

  std::string error;
  auto buffer = mlir::openInputFile(opts.input, &error);
  if (!buffer) {
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
    return 1;
  }
  if (!isText(opts.input, buffer->getBuffer()))
    return 1;
  const llvm::MemoryBuffer *text = buffer.get();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // Messages in PTX's terms (zluda::userDiagnostic), notes included.
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic &d) {
    handler.emitDiagnostic(d.getLocation(), zluda::userDiagnostic(d.str()),
                           d.getSeverity());
    for (mlir::Diagnostic &note : d.getNotes())
      if (!llvm::StringRef(note.str()).starts_with("see current operation"))
        handler.emitDiagnostic(note.getLocation(),
                               zluda::userDiagnostic(note.str()),
                               note.getSeverity());
    return mlir::success();
  });

  auto start = std::chrono::steady_clock::now();
  mlir::OwningOpRef<mlir::ModuleOp> owned =
      zluda::loadPTX(sourceMgr, context, opts.target);
  if (!owned)
    return 1;
  // Bounded memory (docs/benchmarks.md): the text is not needed again.
  zluda::frontend::releaseMappedText(*text);
  if (opts.timePhases)
    fmt::print(
        stderr, "parse+verify: {:.6f} s\n",
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  mlir::ModuleOp module = owned.release();
  // Modules to link with (relocatable device code): parsed into the same
  // context, with their own buffers for diagnostics.
  std::vector<mlir::ModuleOp> linked;
  std::vector<std::unique_ptr<llvm::SourceMgr>> linkedSources;
  for (const std::string &path : opts.link) {
    auto buf = mlir::openInputFile(path, &error);
    if (!buf) {
      fmt::print(stderr, "zluda-precompile: error: {}\n", error);
      return 1;
    }
    if (!isText(path, buf->getBuffer()))
      return 1;
    linkedSources.push_back(std::make_unique<llvm::SourceMgr>());
    linkedSources.back()->AddNewSourceBuffer(std::move(buf), llvm::SMLoc());
    mlir::OwningOpRef<mlir::ModuleOp> other =
        zluda::loadPTX(*linkedSources.back(), context, opts.target);
    if (!other)
      return 1;
    linked.push_back(other.release());
  }
  if (opts.emit == "none")
    return 0;

  std::string artifact;
  // --keep-going dropped kernels: the rest is written, the exit code is 1.
  bool partial = false;
  bool lowered = opts.emit != "mlir";
  std::vector<std::pair<std::string, std::string>> codeObjects;
  std::vector<std::unique_ptr<llvm::ToolOutputFile>> perArch;
  if (lowered) {
    if (opts.arch.empty()) {
      fmt::print(stderr, "zluda-precompile: error: --emit={} needs --arch\n",
                 opts.emit);
      return 1;
    }
    llvm::SmallVector<llvm::StringRef> archs;
    llvm::StringRef(opts.arch).split(archs, ',', -1, false);
    if (archs.size() > 1 && (opts.emit != "hsaco" || opts.output == "-" ||
                             opts.target != "amdgpu")) {
      fmt::print(stderr, "zluda-precompile: error: several processors need "
                         "--emit=hsaco and -o FILE (one code object each and "
                         "an offload bundle)\n");
      return 1;
    }
    zluda::codegen::Emit emit = opts.emit == "llvm" ? zluda::codegen::Emit::LLVM
                                : opts.emit == "asm" ? zluda::codegen::Emit::Asm
                                : opts.emit == "obj"
                                    ? zluda::codegen::Emit::Obj
                                    : zluda::codegen::Emit::HSACO;
    std::vector<std::pair<std::string, double>> phases;
    for (size_t i = 0; i < archs.size(); ++i) {
      llvm::StringRef arch = archs[i];
      zluda::codegen::Options cg;
      cg.chip = arch.str();
      std::string idError; // reported by compile()
      if (opts.target == "amdgpu")
        if (auto id = zluda::ptx::parseAMDGPUTargetId(arch, idError))
          cg.chip = id->canonical; // the offload bundle's spelling
      cg.target = opts.target;
      cg.keepGoing = opts.keepGoing;
      cg.jobs = opts.jobs;
      cg.codeObjectVersion = opts.codeObject;
      cg.warpsPerWave = opts.warpsPerWave;
      if (opts.timePhases)
        cg.phaseTimes = &phases;
      // The last processor takes the module itself (no copy).
      auto result =
          i + 1 == archs.size()
              ? zluda::codegen::compile(
                    mlir::OwningOpRef<mlir::ModuleOp>(module), cg, emit, linked)
              : zluda::codegen::compile(module, cg, emit, linked);
      if (!result) {
        std::string msg = llvm::toString(result.takeError());
        if (msg != "lowering failed")
          fmt::print(stderr, "zluda-precompile: error: {}\n", msg);
        return 1;
      }
      codeObjects.emplace_back(cg.chip, std::move(result->bytes));
      // The same kernels fail on every processor: report them once.
      if (!result->removedKernels.empty() && !partial) {
        partial = true;
        std::string names;
        for (const std::string &name : result->removedKernels)
          names += (names.empty() ? "" : ", ") + name;
        fmt::print(stderr,
                   "zluda-precompile: error: {} kernel(s) left out of the "
                   "output (--keep-going): {}\n",
                   result->removedKernels.size(), names);
      }
    }
    for (const auto &[phase, seconds] : phases)
      fmt::print(stderr, "{}: {:.6f} s\n", phase, seconds);
    if (codeObjects.size() == 1) {
      artifact = std::move(codeObjects[0].second);
    } else {
      artifact = zluda::codegen::makeOffloadBundle(codeObjects);
      // Each code object beside the bundle: OUT's stem + .<gfx>.hsaco.
      llvm::SmallString<256> stem(opts.output);
      llvm::sys::path::replace_extension(stem, "");
      for (const auto &[chip, bytes] : codeObjects) {
        std::string path = (stem + "." + chip + ".hsaco").str();
        auto file = mlir::openOutputFile(path, &error);
        if (!file) {
          fmt::print(stderr, "zluda-precompile: error: {}\n", error);
          return 1;
        }
        file->os() << bytes;
        perArch.push_back(std::move(file));
      }
    }
  }

  // Written only once everything succeeded: no partial output on error.
  auto output = mlir::openOutputFile(opts.output, &error);
  if (!output) {
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
    return 1;
  }
  if (lowered) {
    output->os() << artifact;
    output->keep();
    for (auto &file : perArch)
      file->keep();
    return partial ? 1 : 0;
  }
  mlir::OpPrintingFlags flags;
  if (opts.genericForm)
    flags.printGenericOpForm();
  if (opts.debugInfo)
    flags.enableDebugInfo();
  module.print(output->os(), flags);
  output->os() << "\n";
  output->keep();
  return 0;
}

} // namespace

/// The AMD GPUs of this machine (`--arch native`), through the HIP runtime:
/// their target IDs, each once; empty with `error` set when there is none.
static std::vector<std::string> nativeArchs(std::string &error) {
  void *hip = nullptr;
  for (const char *name :
       {"libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5"})
    if ((hip = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!hip) {
    error = "--arch native: no AMD GPU found here (the HIP runtime, "
            "libamdhip64, is not installed); name the processors, e.g. "
            "--arch gfx1100,gfx942";
    return {};
  }
  using Count = int (*)(int *);
  using Props = int (*)(void *, int);
  auto count = reinterpret_cast<Count>(dlsym(hip, "hipGetDeviceCount"));
  auto props =
      reinterpret_cast<Props>(dlsym(hip, "hipGetDevicePropertiesR0600"));
  int n = 0;
  std::vector<std::string> out;
  if (count && props && count(&n) == 0)
    for (int d = 0; d < n; ++d) {
      // hipDeviceProp_tR0600: 1472 bytes, gcnArchName (char[256]) at 1160.
      std::vector<char> p(1472 + 4096, 0);
      if (props(p.data(), d) != 0)
        continue;
      std::string arch(p.data() + 1160, strnlen(p.data() + 1160, 256));
      if (!arch.empty() && std::find(out.begin(), out.end(), arch) == out.end())
        out.push_back(arch);
    }
  if (out.empty())
    error = "--arch native: the HIP runtime sees no AMD GPU; name the "
            "processors, e.g. --arch gfx1100,gfx942";
  return out;
}

/// build with the conventions users expect: processors default to native,
/// the cache to $ZLUDA_CACHE_DIR or ~/.zluda/cache, threads to
/// $ZLUDA_COMPILE_THREADS.
static int runBuildWithDefaults(zluda::build::BuildOptions build) {
  if (build.archs.empty() || build.archs == "native") {
    if (build.target != "amdgpu") {
      fmt::print(stderr, "zluda-precompile: error: --target {} needs --arch\n",
                 build.target);
      return 1;
    }
    std::string error;
    std::vector<std::string> archs = nativeArchs(error);
    if (archs.empty()) {
      fmt::print(stderr, "zluda-precompile: error: {}\n", error);
      return 1;
    }
    build.archs.clear();
    for (const std::string &a : archs)
      build.archs += (build.archs.empty() ? "" : ",") + a;
  }
  if (build.cacheDir.empty()) {
    build.cacheDir = zluda::cache::defaultCacheDir();
    if (build.cacheDir.empty()) {
      fmt::print(stderr, "zluda-precompile: error: no cache directory: give "
                         "--cache, or set ZLUDA_CACHE_DIR or HOME\n");
      return 1;
    }
  }
  if (!build.jobs)
    if (const char *t = std::getenv("ZLUDA_COMPILE_THREADS"); t && *t) {
      unsigned n = 0;
      if (llvm::StringRef(t).getAsInteger(10, n) || n == 0) {
        fmt::print(stderr,
                   "zluda-precompile: error: ZLUDA_COMPILE_THREADS={} is not "
                   "a positive number\n",
                   t);
        return 1;
      }
      build.jobs = n;
    }
  return zluda::build::runBuild(build);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  zluda::codegen::enableCrashIsolation();
  CLI::App app{"zluda-precompile: ahead-of-time PTX to AMDGPU compiler"};
  app.set_version_flag("--version",
                       std::string("zluda-precompile ") + kVersion);
  // `zluda-precompile --directory DIR` / `--application PATH`, as common
  // guides spell it: `build` with every default.
  std::string directory, application;
  app.add_option("--directory", directory,
                 "Same as `build DIR` with the default processors and cache");
  app.add_option("--application", application,
                 "Same as `build PATH` with the default processors and cache");
  app.require_subcommand(0, 1);

  CompileOptions compile;
  CLI::App *compileCmd = app.add_subcommand("compile", "Compile one PTX file");
  compileCmd->add_option("input", compile.input, "PTX file ('-' for stdin)")
      ->required();
  compileCmd->add_option("-o,--output", compile.output,
                         "Output file ('-' for stdout, the default)");
  compileCmd
      ->add_option("--emit", compile.emit,
                   "What to produce: 'mlir' (the verified ptx dialect), "
                   "'llvm' (optimized LLVM IR), 'asm' (AMDGPU assembly), "
                   "'obj' (relocatable object), 'hsaco' (code object), or "
                   "'none' (parse and verify only); default: with --arch a "
                   "code object ('asm' for --target nvptx), without 'mlir'")
      ->check(CLI::IsMember({"mlir", "llvm", "asm", "obj", "hsaco", "none"}));
  compileCmd
      ->add_option("--target", compile.target,
                   "amdgpu, or nvptx (the verification target: --emit=asm "
                   "writes PTX)")
      ->check(CLI::IsMember({"amdgpu", "nvptx"}))
      ->capture_default_str();
  compileCmd->add_option(
      "--arch", compile.arch,
      "AMDGPU processor: gfx1030..gfx1036, gfx1100..gfx1103, "
      "gfx1150..gfx1153, gfx1200, gfx1201, or a generic "
      "gfx10-3/gfx11/gfx12 target");
  compileCmd->add_flag("--mlir-print-op-generic", compile.genericForm,
                       "Print the dialect in generic operation form");
  compileCmd->add_flag("--mlir-print-debuginfo", compile.debugInfo,
                       "Print locations (PTX and CUDA source positions)");
  compileCmd->add_flag(
      "--keep-going", compile.keepGoing,
      "Leave out the kernels using unsupported PTX, compile the rest, and "
      "exit 1 naming them");
  compileCmd->add_option("-j,--jobs", compile.jobs,
                         "Code-generation threads (default: all cores); the "
                         "output does not depend on it");
  compileCmd
      ->add_option("--code-object", compile.codeObject,
                   "AMDGPU code object version: 4, 5 or 6 (default 5, and 6 "
                   "for generic processors)")
      ->check(CLI::IsMember({4, 5, 6}));
  compileCmd
      ->add_option(
          "--warps-per-wave", compile.warpsPerWave,
          "PTX warps a 64-lane wave on CDNA: 2 (both halves, the default) or 1 "
          "(the upper half idle, for warps that wait on each other; "
          "launched with twice the threads in x). No effect on RDNA")
      ->check(CLI::IsMember({1, 2}));
  compileCmd->add_flag("--time-phases", compile.timePhases,
                       "Print the time of each phase to stderr");
  compileCmd->add_option("--mllvm", compile.llvmArgs,
                         "An option of LLVM's own (e.g. -time-passes), as "
                         "clang's -mllvm; repeatable");
  compileCmd->add_option(
      "--link", compile.link,
      "PTX module defining functions the input declares .extern (relocatable "
      "device code); only what the input uses is linked in. Repeatable");

  zluda::build::BuildOptions build;
  bool keepGoingFlag = false;
  CLI::App *buildCmd = app.add_subcommand(
      "build", "Compile every PTX module of applications and libraries into "
               "a cache, once per processor");
  buildCmd
      ->add_option("paths", build.paths,
                   "Executables, libraries, objects, archives, fatbin or PTX "
                   "files, or directories (walked recursively)")
      ->required();
  buildCmd->add_option("--arch", build.archs,
                       "Processors, comma-separated (gfx1100,gfx942:xnack-; "
                       "sm_90 with --target nvptx); default: native, this "
                       "machine's AMD GPUs (through the HIP runtime)");
  buildCmd->add_option("--cache", build.cacheDir,
                       "Cache directory; default: $ZLUDA_CACHE_DIR, else "
                       "~/.zluda/cache (the runtime shim's default too)");
  buildCmd->add_option("--target", build.target, "amdgpu, or nvptx")
      ->check(CLI::IsMember({"amdgpu", "nvptx"}))
      ->capture_default_str();
  buildCmd->add_option("-j,--jobs", build.jobs,
                       "Threads (default: $ZLUDA_COMPILE_THREADS, else all "
                       "cores); the cache's bytes do not depend on it");
  buildCmd
      ->add_option("--code-object", build.codeObject,
                   "AMDGPU code object version: 4, 5 or 6")
      ->check(CLI::IsMember({4, 5, 6}));
  buildCmd
      ->add_option(
          "--warps-per-wave", build.warpsPerWave,
          "PTX warps a 64-lane wave on CDNA: 2 (both halves, the default) or 1 "
          "(the upper half idle, for warps that wait on each other; "
          "launched with twice the threads in x). No effect on RDNA")
      ->check(CLI::IsMember({1, 2}));
  std::string shard;
  buildCmd->add_option(
      "--shard", shard,
      "I/N: only the jobs of shard I of N (1-based), a partition of the "
      "(module x processor) jobs by cache key, the same on every machine: N "
      "CI jobs fill N caches that `cache merge` unites");
  buildCmd->add_flag("--keep-going", keepGoingFlag,
                     "Compile everything possible, exit 1 if anything failed "
                     "(the default)");
  buildCmd->add_flag("--fail-fast", build.failFast,
                     "Stop at the first module that does not compile whole");
  buildCmd->add_option("--json", build.jsonPath,
                       "Write the summary and per-module results as JSON");
  std::string remoteTokenFile;
  auto addRemoteOptions = [&](CLI::App *cmd, zluda::build::BuildOptions &o,
                              bool withReadOnly) {
    cmd->add_option("--remote", o.remoteUrl,
                    "Shared remote cache, looked up after the local one: "
                    "http(s)://host/path (GET/PUT URL/v1/<k0k1>/<key>) or "
                    "redis://[:password@]host[:port][/db]; default: "
                    "$ZLUDA_REMOTE_CACHE");
    if (withReadOnly)
      cmd->add_flag("--remote-read-only", o.remoteReadOnly,
                    "Use the remote cache's entries, never upload (builds of "
                    "untrusted changes)");
    cmd->add_option("--remote-token-file", remoteTokenFile,
                    "A file holding the HTTP bearer token; default: "
                    "$ZLUDA_REMOTE_TOKEN");
  };
  addRemoteOptions(buildCmd, build, true);
  // With --directory / --application (no subcommand), build's main options.
  app.add_option("--arch", build.archs,
                 "With --directory/--application: the processors (default: "
                 "native)");
  app.add_option("--cache", build.cacheDir,
                 "With --directory/--application: the cache directory");
  app.add_option("-j,--jobs", build.jobs,
                 "With --directory/--application: threads");
  buildCmd->add_option("--report", build.reportPath,
                       "Write an HTML compatibility report: binaries, "
                       "modules, kernels and processors, with the reason of "
                       "each failure");

  std::string cacheDir;
  bool removeCorrupt = false;
  CLI::App *cacheCmd =
      app.add_subcommand("cache", "Inspect or check a cache directory");
  cacheCmd->require_subcommand(1);
  CLI::App *verifyCmd = cacheCmd->add_subcommand(
      "verify", "Read and check every entry; exit 1 if any is corrupt");
  verifyCmd->add_option("dir", cacheDir, "Cache directory")->required();
  verifyCmd->add_flag("--remove-corrupt", removeCorrupt,
                      "Delete the corrupt entries (the next build rebuilds "
                      "them)");
  CLI::App *cacheListCmd =
      cacheCmd->add_subcommand("list", "One line per entry");
  cacheListCmd->add_option("dir", cacheDir, "Cache directory")->required();
  CLI::App *cachePruneCmd = cacheCmd->add_subcommand(
      "prune", "Remove the entries of other compiler versions and the corrupt "
               "ones");
  cachePruneCmd->add_option("dir", cacheDir, "Cache directory")->required();
  std::string maxSize;
  cachePruneCmd->add_option(
      "--max-size", maxSize,
      "Then evict the least recently used entries (written, or served by the "
      "runtime shim) until the cache takes at most SIZE (bytes, or with K, "
      "M, G: 500M, 2G)");
  std::vector<std::string> mergeSources;
  std::string mergeInto;
  CLI::App *cacheMergeCmd = cacheCmd->add_subcommand(
      "merge", "Merge caches (e.g. of build --shard jobs) into one: every "
               "entry verified, conflicts reported");
  cacheMergeCmd->add_option("sources", mergeSources, "Caches to merge")
      ->required();
  cacheMergeCmd->add_option("--into", mergeInto, "The cache to merge into")
      ->required();
  std::string packOutput, unpackArchive;
  CLI::App *cachePackCmd = cacheCmd->add_subcommand(
      "pack", "Write the cache's entries as one reproducible .tar.zst");
  cachePackCmd->add_option("dir", cacheDir, "Cache directory")->required();
  cachePackCmd->add_option("-o", packOutput, "The archive (FILE.tar.zst)")
      ->required();
  CLI::App *cacheUnpackCmd = cacheCmd->add_subcommand(
      "unpack", "Add the entries of an archive to a cache, each verified");
  cacheUnpackCmd->add_option("archive", unpackArchive, "FILE.tar.zst")
      ->required();
  cacheUnpackCmd->add_option("--into", mergeInto, "The cache to unpack into")
      ->required();

  zluda::build::BuildOptions pull;
  pull.pullOnly = true;
  CLI::App *cachePullCmd = cacheCmd->add_subcommand(
      "pull", "Fetch from a remote cache exactly the entries the binaries "
              "need for the processors into the local cache (before running "
              "them under the shim); exit 1 if some are not there");
  cachePullCmd
      ->add_option("paths", pull.paths,
                   "Executables, libraries, objects, archives, fatbin or PTX "
                   "files, or directories")
      ->required();
  cachePullCmd->add_option("--arch", pull.archs,
                           "Processors (default: native, this machine's AMD "
                           "GPUs)");
  cachePullCmd->add_option("--cache", pull.cacheDir,
                           "Local cache; default: $ZLUDA_CACHE_DIR, else "
                           "~/.zluda/cache");
  cachePullCmd->add_option("--target", pull.target, "amdgpu, or nvptx")
      ->check(CLI::IsMember({"amdgpu", "nvptx"}));
  cachePullCmd->add_option("--code-object", pull.codeObject,
                           "AMDGPU code object version: 4, 5 or 6");
  cachePullCmd->add_option("--warps-per-wave", pull.warpsPerWave,
                           "As build's (1 or 2)");
  cachePullCmd->add_option("-j,--jobs", pull.jobs, "Parallel downloads");
  addRemoteOptions(cachePullCmd, pull, false);
  zluda::build::BuildOptions push;
  CLI::App *cachePushCmd = cacheCmd->add_subcommand(
      "push", "Upload a local cache's entries (each verified) to a remote "
              "cache, skipping those already there");
  cachePushCmd->add_option("dir", cacheDir, "Cache directory")->required();
  addRemoteOptions(cachePushCmd, push, false);

  zluda::driver::ListOptions list;
  CLI::App *listCmd = app.add_subcommand(
      "list", "List the fatbin containers and entries of binaries");
  listCmd
      ->add_option("paths", list.paths,
                   "ELF executables, shared libraries, objects, archives, "
                   "fatbin or PTX files, or directories (walked recursively)")
      ->required();
  listCmd->add_flag("--json", list.json, "Machine-readable output");
  listCmd->add_flag("--summary", list.summary,
                    "One line per binary instead of the full table");

  zluda::driver::ExtractOptions extract;
  CLI::App *extractCmd = app.add_subcommand(
      "extract", "Write every PTX module of binaries as a file");
  extractCmd->add_option("paths", extract.paths, "Inputs, as for list")
      ->required();
  extractCmd->add_option("-o,--output", extract.outputDir, "Output directory")
      ->required();
  extractCmd->add_flag(
      "--selected", extract.selectedOnly,
      "Only the PTX entry each container's selection policy picks");
  extractCmd->add_flag("--raw", extract.raw,
                       "Write payloads as stored (ZSTD frames as .ptx.zst, LZ4 "
                       "blocks as .ptx.lz4block)");

  zluda::driver::RunOptions run;
  CLI::App *runCmd = app.add_subcommand(
      "run", "Run an application with the runtime shim serving its kernels "
             "from a cache: zluda-precompile run --cache DIR -- APP ARGS...");
  runCmd->add_option("--cache", run.cacheDir, "Cache directory")->required();
  runCmd->add_flag("--strict", run.strict,
                   "Fail loads the cache cannot serve "
                   "(CUDA_ERROR_NO_BINARY_FOR_GPU) instead of falling back");
  runCmd->add_option("--log", run.logPath,
                     "Write one line per image loaded and a summary");
  runCmd->add_option(
      "--compare", run.comparePath,
      "cuda backend: run every launch of a served kernel twice, NVIDIA's "
      "build of the original and ours, on the same memory; write the "
      "outcome of each to this file");
  runCmd
      ->add_option("--backend", run.backend,
                   "cuda (NVIDIA driver) or hip (CUDA-on-HIP driver); "
                   "default: detected")
      ->check(CLI::IsMember({"cuda", "hip"}));
  runCmd->add_option("--shim-dir", run.shimDir,
                     "Directory of the shim's libcuda.so.1 (default: "
                     "../lib/zluda-shim beside this executable)");
  runCmd
      ->add_option("command", run.command,
                   "The application and its "
                   "arguments")
      ->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  if (*compileCmd) {
    // `--arch ""` (or only commas) names no processor: an error, never a
    // silent MLIR dump into the output meant for a code object.
    if (compileCmd->count("--arch") &&
        llvm::StringRef(compile.arch).trim(", ").empty()) {
      fmt::print(stderr,
                 "zluda-precompile: error: --arch names no processor\n");
      return 1;
    }
    // With processors, the natural product is their code: a code object
    // (the NVPTX target's is PTX text); without, the verified dialect.
    if (compile.emit.empty())
      compile.emit = compile.arch.empty()        ? "mlir"
                     : compile.target == "nvptx" ? "asm"
                                                 : "hsaco";
    return runCompile(compile);
  }
  if (*listCmd)
    return zluda::driver::runList(list);
  if (!shard.empty()) {
    auto [i, n] = llvm::StringRef(shard).split('/');
    if (i.getAsInteger(10, build.shard) || n.getAsInteger(10, build.shards) ||
        build.shards == 0 || build.shard == 0 || build.shard > build.shards) {
      fmt::print(stderr,
                 "zluda-precompile: error: --shard {}: expected I/N with "
                 "1 <= I <= N\n",
                 shard);
      return 1;
    }
  }
  // The remote cache's defaults: $ZLUDA_REMOTE_CACHE, the token from a
  // file or $ZLUDA_REMOTE_TOKEN.
  for (zluda::build::BuildOptions *o : {&build, &pull, &push}) {
    if (o->remoteUrl.empty())
      if (const char *u = std::getenv("ZLUDA_REMOTE_CACHE"))
        o->remoteUrl = u;
    if (!remoteTokenFile.empty()) {
      auto buf = llvm::MemoryBuffer::getFile(remoteTokenFile);
      if (!buf) {
        fmt::print(stderr, "zluda-precompile: error: cannot read {}: {}\n",
                   remoteTokenFile, buf.getError().message());
        return 1;
      }
      o->remoteToken = llvm::StringRef((*buf)->getBuffer()).trim().str();
    } else if (const char *t = std::getenv("ZLUDA_REMOTE_TOKEN")) {
      o->remoteToken = llvm::StringRef(t).trim().str();
    }
  }
  if (cachePullCmd->parsed())
    return runBuildWithDefaults(pull);
  if (cachePushCmd->parsed())
    return zluda::driver::runCachePush(cacheDir, push.remoteUrl,
                                       push.remoteToken);
  if (!buildCmd->parsed() && directory.empty() && application.empty() &&
      (app.count("--arch") || app.count("--cache") || app.count("--jobs"))) {
    fmt::print(stderr, "zluda-precompile: error: --arch, --cache and -j "
                       "before a subcommand go with --directory or "
                       "--application\n");
    return 1;
  }
  if (buildCmd->parsed() || !directory.empty() || !application.empty()) {
    if (!directory.empty() || !application.empty()) {
      // The common guides' spellings: a build with every default.
      for (const std::string &p : {directory, application})
        if (!p.empty())
          build.paths.push_back(p);
    }
    return runBuildWithDefaults(build);
  }
  if (verifyCmd->parsed())
    return zluda::driver::runCacheVerify(cacheDir, removeCorrupt);
  if (cacheListCmd->parsed())
    return zluda::driver::runCacheList(cacheDir);
  if (cachePruneCmd->parsed()) {
    uint64_t bytes = 0;
    if (!maxSize.empty()) {
      llvm::StringRef v(maxSize);
      uint64_t scale = 1;
      if (v.consume_back("K") || v.consume_back("k"))
        scale = 1ull << 10;
      else if (v.consume_back("M"))
        scale = 1ull << 20;
      else if (v.consume_back("G"))
        scale = 1ull << 30;
      if (v.getAsInteger(10, bytes) || bytes == 0) {
        fmt::print(stderr,
                   "zluda-precompile: error: --max-size {}: expected a size "
                   "(bytes, or 500M, 2G...)\n",
                   maxSize);
        return 1;
      }
      bytes *= scale;
    }
    return zluda::driver::runCachePrune(cacheDir, bytes);
  }
  if (cacheMergeCmd->parsed())
    return zluda::driver::runCacheMerge(mergeSources, mergeInto);
  if (cachePackCmd->parsed())
    return zluda::driver::runCachePack(cacheDir, packOutput);
  if (cacheUnpackCmd->parsed())
    return zluda::driver::runCacheUnpack(unpackArchive, mergeInto);
  if (*extractCmd)
    return zluda::driver::runExtract(extract);
  if (*runCmd)
    return zluda::driver::runWithShim(run, argv[0]);
  // Nothing to do: say what there is.
  fmt::print(stderr, "{}", app.help());
  fmt::print(stderr, "zluda-precompile: error: a subcommand (or --directory / "
                     "--application) is required\n");
  return 1;
}
