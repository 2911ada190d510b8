//===- Build.cpp - `build`: whole applications into a cache ---------------===//
//
// Reads every input (files, directories, archives), takes the PTX module the
// selection policy picks from each fatbin container, dedupes identical PTX,
// and compiles each distinct module once per processor on one pool of
// worker threads, skipping what the cache already holds. Each worker owns
// its MLIRContext; a module's own code generation is split further when
// fewer modules than threads are left, so one big module does not leave
// cores idle.
//
//===----------------------------------------------------------------------===//

#include "compiler/Build/Build.h"
#include "compiler/Build/BuildResults.h"
#include "compiler/Build/ProgressLine.h"
#include "compiler/Build/Report.h"
#include "compiler/Cache/Remote.h"

#include "compiler/Binary/BinaryReader.h"
#include "compiler/Cache/Cache.h"
#include "compiler/Cache/Sha256.h"
#include "compiler/Codegen/Codegen.h"
#include "compiler/Codegen/CrashIsolation.h"
#include "compiler/Pipeline/Pipeline.h"
#include "dialects/ptx/PTXOps.h"
#include "passes/PTXToLLVM/PTXToLLVM.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <unistd.h>
using namespace zluda;
using namespace zluda::build;

namespace {

/// Fills each module's linkWith.
void resolveDeviceLinks(std::vector<Module> &modules) {
  std::map<std::string, std::vector<size_t>> definers;
  std::vector<std::vector<std::string>> externs(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    for (const std::string &f :
         binary::listFunctions(modules[i].text, ".visible"))
      definers[f].push_back(i);
    for (std::string &f : binary::listFunctions(modules[i].text, ".extern"))
      if (!ptx::isRuntimeFunction(f) && !ptx::deviceRuntimeFunctionKind(f))
        externs[i].push_back(std::move(f));
  }
  auto shareSource = [&](size_t a, size_t b) {
    for (const std::string &s : modules[a].sources)
      if (modules[b].sources.count(s))
        return true;
    return false;
  };
  for (size_t i = 0; i < modules.size(); ++i) {
    std::set<size_t> deps;
    std::vector<size_t> work{i};
    while (!work.empty()) {
      size_t m = work.back();
      work.pop_back();
      for (const std::string &f : externs[m])
        for (size_t d : definers[f])
          if (d != i && shareSource(i, d) && deps.insert(d).second)
            work.push_back(d);
    }
    modules[i].linkWith.assign(deps.begin(), deps.end());
  }
}

/// The reason of an `unsupported: X ...` diagnostic: X up to the first
/// space or dot-separated type suffix kept whole (`tex.2d.v4.f32.s32`).
std::string reasonOf(llvm::StringRef message) {
  if (message.consume_front("unsupported: "))
    return ("unsupported " + message.split(' ').first).str();
  return message.split('\n').first.take_front(120).str();
}

/// Modules and kernels done, elapsed time and an estimate of the rest.
class Progress {
public:
  Progress(size_t total, bool enabled) : total(total), line(enabled) {}
  void update(size_t done, size_t kernels, size_t kernelsTotal) {
    if (!line.isEnabled())
      return;
    double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    double eta = done ? elapsed / done * (total - done) : 0;
    line.show(fmt::format("[{}/{}] modules, {}/{} kernels, {:.0f} s elapsed, "
                          "ETA {:.0f} s",
                          done, total, kernels, kernelsTotal, elapsed, eta));
  }

private:
  size_t total;
  ProgressLine line;
  std::chrono::steady_clock::time_point start =
      std::chrono::steady_clock::now();
};

/// "PTX line L:C", and the CUDA source position the PTX's `.loc` gives.
std::string locationText(mlir::Location loc) {
  std::string ptx, cuda;
  auto visit = [&](mlir::FileLineColLoc f) {
    std::string pos = fmt::format("{}:{}", f.getLine(), f.getColumn());
    if (ptx.empty() && f.getFilename().getValue().starts_with("ptx-"))
      ptx = "PTX line " + pos;
    else if (cuda.empty())
      cuda =
          fmt::format("{}:{}", f.getFilename().getValue().str(), f.getLine());
  };
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc)) {
    for (mlir::Location l : fused.getLocations())
      if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(l))
        visit(f);
  } else if (auto f = llvm::dyn_cast<mlir::FileLineColLoc>(loc)) {
    visit(f);
  }
  if (ptx.empty())
    return cuda;
  return cuda.empty() ? ptx : ptx + " (" + cuda + ")";
}

/// Parses and compiles `m` (with the modules it links with, from
/// `modules`) for `job.chip`, filling the job's results.
void compileJob(const Module &m, const std::vector<Module> &modules, Job &job,
                const BuildOptions &opts, unsigned codegenJobs,
                std::string &object) {
  mlir::DialectRegistry registry;
  registerDialects(registry);
  mlir::MLIRContext ctx(registry, mlir::MLIRContext::Threading::DISABLED);
  ctx.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(m.text, "ptx-" + m.sha256.substr(0, 12),
                                       false),
      llvm::SMLoc());
  std::string first;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    if (d.getSeverity() != mlir::DiagnosticSeverity::Error)
      return mlir::success();
    std::string text = userDiagnostic(d.str());
    ++job.reasons[reasonOf(text)];
    std::string loc = locationText(d.getLocation());
    if (first.empty())
      first = text + " at " + loc;
    for (mlir::Diagnostic &note : d.getNotes()) {
      std::string noteText = note.str();
      llvm::StringRef n = noteText;
      if (n.consume_front("in '") && n.consume_back("'"))
        job.whyMissing.emplace(n.str(), text + " at " + loc);
    }
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      loadPTX(sourceMgr, ctx, opts.target);
  if (!module) {
    job.error = first.empty() ? "the PTX does not parse" : first;
    job.missing = m.kernels;
    return;
  }
  std::vector<mlir::ModuleOp> linked;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> linkedOwners;
  std::vector<std::unique_ptr<llvm::SourceMgr>> linkedSources;
  for (size_t d : m.linkWith) {
    const Module &dep = modules[d];
    linkedSources.push_back(std::make_unique<llvm::SourceMgr>());
    linkedSources.back()->AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(
            dep.text, "ptx-" + dep.sha256.substr(0, 12), false),
        llvm::SMLoc());
    linkedOwners.push_back(loadPTX(*linkedSources.back(), ctx, opts.target));
    if (!linkedOwners.back()) {
      job.error = "a module it links with does not parse";
      job.missing = m.kernels;
      return;
    }
    linked.push_back(*linkedOwners.back());
  }
  codegen::Options cg;
  cg.target = opts.target;
  cg.chip = job.chip;
  cg.codeObjectVersion = job.codeObject; // the version in the key
  cg.warpsPerWave = job.options.empty() ? 2 : opts.warpsPerWave;
  cg.keepGoing = true;
  cg.linkWhole = m.linkedImage;
  cg.jobs = codegenJobs;
  std::vector<std::string> entries;
  for (auto entry : module->getOps<ptx::EntryOp>())
    entries.push_back(entry.getSymName().str());
  // NVPTX entries hold PTX text, which the NVIDIA driver loads. The module
  // is handed over: its memory goes as soon as it is LLVM IR.
  auto result = codegen::compile(std::move(module), cg,
                                 opts.target == "nvptx" ? codegen::Emit::Asm
                                                        : codegen::Emit::HSACO,
                                 linked);
  if (!result) {
    std::string msg = llvm::toString(result.takeError());
    job.error = first.empty() ? msg : first;
    if (job.reasons.empty())
      ++job.reasons[reasonOf(msg)];
    job.missing = m.kernels;
    return;
  }
  object = std::move(result->bytes);
  job.missing = result->removedKernels;
  std::set<std::string> gone(job.missing.begin(), job.missing.end());
  for (const std::string &entry : entries)
    if (!gone.count(entry))
      job.compiled.push_back(entry);
  if (m.linkedImage)
    for (mlir::ModuleOp part : linked)
      for (auto entry : part.getOps<ptx::EntryOp>())
        if (!gone.count(entry.getSymName().str()))
          job.compiled.push_back(entry.getSymName().str());
  job.error = first;
  job.status = job.missing.empty() ? Status::compiled : Status::partial;
}

/// Writes DIR/v1/manifest.json from every entry present, under a lock so
/// that concurrent builds do not interleave their manifests.
/// Writes v1/manifest.json atomically; on failure (a full disk, a read-only
/// cache) nothing of it is left and `error` says why.
bool writeManifestFile(const cache::Cache &c, std::string &error) {
  std::string lockPath = c.root() + "/v1/lock";
  int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock >= 0)
    ::flock(lock, LOCK_EX);
  llvm::json::Array entries;
  for (const std::string &key : c.keys()) {
    cache::Entry e;
    std::string error;
    if (c.read(key, e, error) != cache::ReadStatus::ok)
      continue;
    llvm::json::Array kernels, missing, sources;
    for (auto &k : e.meta.kernels)
      kernels.push_back(k);
    for (auto &k : e.meta.missingKernels)
      missing.push_back(k);
    for (auto &s : e.meta.sources)
      sources.push_back(s);
    entries.push_back(
        llvm::json::Object{{"key", key},
                           {"target", e.meta.target},
                           {"chip", e.meta.chip},
                           {"code_object", int64_t(e.meta.codeObjectVersion)},
                           {"compiler", e.meta.compilerVersion},
                           {"ptx_sha256", e.meta.ptxSha256},
                           {"object_bytes", int64_t(e.object.size())},
                           {"kernels", std::move(kernels)},
                           {"missing_kernels", std::move(missing)},
                           {"sources", std::move(sources)}});
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}\n",
                      llvm::json::Value(llvm::json::Object{
                          {"version", 1}, {"entries", std::move(entries)}}));
  std::string tmp = c.root() + "/v1/tmp/manifest." + std::to_string(getpid());
  std::string final = c.root() + "/v1/manifest.json";
  std::error_code ec;
  {
    llvm::raw_fd_ostream out(tmp, ec);
    if (!ec) {
      out << text;
      out.flush();
      if (out.has_error()) {
        ec = out.error();
        out.clear_error(); // (else its destructor aborts: "IO failure")
      }
    }
  }
  if (!ec)
    ec = llvm::sys::fs::rename(tmp, final);
  if (ec) {
    llvm::sys::fs::remove(tmp);
    error = "cannot write " + final + ": " + ec.message();
  }
  if (lock >= 0)
    ::close(lock);
  return !ec;
}

} // namespace

bool build::writeManifest(const cache::Cache &cache, std::string &error) {
  return writeManifestFile(cache, error);
}

bool build::inShard(const std::string &key, unsigned shard, unsigned shards) {
  uint32_t h = 0;
  for (size_t i = 0; i < 8 && i < key.size(); ++i)
    h = h << 4 | static_cast<uint32_t>(llvm::hexDigitValue(key[i]) & 15);
  return shards <= 1 || h % shards == shard - 1;
}

int build::runBuild(const BuildOptions &opts) {
  codegen::enableCrashIsolation();
  auto start = std::chrono::steady_clock::now();
  llvm::SmallVector<llvm::StringRef> given;
  llvm::StringRef(opts.archs).split(given, ',', -1, false);
  if (given.empty()) {
    fmt::print(stderr, "zluda-precompile: error: --arch names no processor\n");
    return 1;
  }
  // AMDGPU target IDs checked and spelled canonically (the cache key and
  // the runtime shim's look-up use that spelling), each once.
  std::vector<std::string> chips;
  std::set<std::string> wave64; // where --warps-per-wave applies
  for (llvm::StringRef chip : given) {
    std::string canonical = chip.str();
    if (opts.target == "amdgpu") {
      std::string error;
      auto id = ptx::parseAMDGPUTargetId(chip, error);
      if (!id) {
        fmt::print(stderr, "zluda-precompile: error: --arch: {}\n", error);
        return 1;
      }
      canonical = id->canonical;
      if (id->waveSize == 64)
        wave64.insert(canonical);
    }
    if (std::find(chips.begin(), chips.end(), canonical) == chips.end())
      chips.push_back(canonical);
  }
  llvm::SmallVector<llvm::StringRef> chipRefs(chips.begin(), chips.end());
  std::string error;
  std::unique_ptr<cache::RemoteCache> remote;
  if (!opts.remoteUrl.empty()) {
    cache::RemoteOptions ro;
    ro.url = opts.remoteUrl;
    ro.readOnly = opts.remoteReadOnly || opts.pullOnly;
    ro.token = opts.remoteToken;
    remote = cache::RemoteCache::open(ro, error);
    if (!remote) {
      fmt::print(stderr, "zluda-precompile: error: {}\n", error);
      return 1;
    }
  } else if (opts.pullOnly) {
    fmt::print(stderr, "zluda-precompile: error: cache pull needs --remote "
                       "URL (or ZLUDA_REMOTE_CACHE)\n");
    return 1;
  }
  cache::Cache store(opts.cacheDir);
  if (!store.open(error)) {
    fmt::print(stderr, "zluda-precompile: error: {}\n", error);
    return 1;
  }
  store.removeStaleTemporaries(3600);

  // Inputs -> distinct modules.
  std::vector<std::string> walkErrors;
  std::vector<binary::InputPath> files =
      binary::expandPaths(opts.paths, walkErrors);
  bool inputErrors = !walkErrors.empty();
  for (const std::string &e : walkErrors)
    fmt::print(stderr, "zluda-precompile: error: {}\n", e);
  std::vector<Module> modules;
  std::map<std::string, size_t> bySha;
  size_t inputsRead = 0;
  struct LinkedProgram {
    std::string hash; ///< cache::linkedImageHash of the image
    std::string source;
    std::vector<size_t> parts; ///< the relocatable modules, in order
  };
  std::vector<LinkedProgram> linkedPrograms;
  // The image index (cache::ImageRecord): each image's bytes, as a program
  // hands them to the driver, to the hash its keys are made of.
  std::map<std::string, cache::ImageRecord> imageRecords;
  auto indexImage = [&](std::string_view bytes, const std::string &hash,
                        bool linked) {
    cache::ImageRecord r;
    r.compilerVersion = std::string(cache::compilerVersion());
    r.imageBytes = bytes.size();
    r.linked = linked;
    r.moduleHash = hash;
    imageRecords.emplace(cache::imageIndexKey(bytes), std::move(r));
  };
  // A container as the input holds it (what cudart hands the driver).
  auto containerBytes = [&](const binary::Input &in,
                            const binary::FoundContainer &fc) {
    std::string_view file = in.buffer->getBuffer();
    if (fc.fileOffset >= file.size())
      return std::string_view();
    return file.substr(fc.fileOffset, fc.container.totalSize());
  };
  // Inputs whose fatbins hold machine code only (no PTX: PyTorch's pip
  // wheels are built so): said in the summary, not a silent zero.
  std::vector<std::pair<std::string, std::string>> machineCodeOnly;
  auto addModule = [&](std::string text, const std::string &source) {
    std::string sha = cache::Sha256::hex(text);
    auto [it, inserted] = bySha.emplace(sha, modules.size());
    if (inserted) {
      Module m;
      m.sha256 = sha;
      m.kernels = binary::listKernels(text);
      m.text = std::move(text);
      modules.push_back(std::move(m));
    }
    modules[it->second].sources.insert(source);
    return it->second;
  };
  for (const binary::InputPath &p : files) {
    binary::Input in = binary::readInput(p.path);
    if (in.unrecognized && p.fromDirectory)
      continue;
    ++inputsRead;
    for (const binary::Diagnostic &d : in.diagnostics)
      if (d.isError) {
        fmt::print(stderr, "{}: error at offset 0x{:x}: {}\n", in.path,
                   d.offset, d.message);
        inputErrors = true;
      }
    if (in.kind == binary::InputKind::PTX) {
      size_t index = addModule(in.buffer->getBuffer().str(), in.path);
      indexImage(in.buffer->getBuffer(), modules[index].sha256, false);
      continue;
    }
    std::vector<size_t> relocatable;
    std::vector<const binary::FoundContainer *> linkedImages;
    std::set<uint32_t> cubinArchs;
    bool anyPTX = false;
    for (const binary::FoundContainer &fc : in.containers) {
      for (const fatbin::Entry &e : fc.container.entries)
        if (e.isELF())
          cubinArchs.insert(e.arch);
      anyPTX |= fc.container.selectedPTX() >= 0;
      int sel = fc.container.selectedPTX();
      if (sel < 0) {
        // Machine code only, beside relocatable PTX: nvlink's image.
        if (!fc.relocatable && fc.member.empty())
          linkedImages.push_back(&fc);
        continue;
      }
      std::string text;
      if (auto err = fatbin::extractPayload(fc.container.entries[sel], text)) {
        fmt::print(stderr, "{}: error: {}\n", in.path, err->message);
        inputErrors = true;
        continue;
      }
      size_t index = addModule(
          std::move(text),
          fc.member.empty() ? in.path : in.path + "(" + fc.member + ")");
      std::string_view bytes = containerBytes(in, fc);
      if (bytes.size() == fc.container.totalSize())
        indexImage(bytes, modules[index].sha256, false);
      if (fc.relocatable && fc.member.empty())
        relocatable.push_back(index);
    }
    // PTX the program keeps as a string and loads itself.
    for (const binary::EmbeddedPTX &e : in.embeddedPTX) {
      size_t index = addModule(
          e.text, e.member.empty() ? in.path : in.path + "(" + e.member + ")");
      indexImage(e.text, modules[index].sha256, false);
      anyPTX = true;
    }
    if (!in.containers.empty() && !anyPTX && !cubinArchs.empty()) {
      std::string archs;
      for (uint32_t a : cubinArchs)
        archs += fmt::format("{}sm_{}", archs.empty() ? "" : ", ", a);
      machineCodeOnly.emplace_back(in.path, archs);
    }
    // nvlink's image is the machine-code-only container whose kernels all
    // come from the relocatable modules (it may leave unused ones out; a
    // cubin-only module compiled without -rdc has kernels of its own).
    std::set<std::string> rdcKernels;
    for (size_t r : relocatable)
      rdcKernels.insert(modules[r].kernels.begin(), modules[r].kernels.end());
    auto holdsProgram = [&](const binary::FoundContainer &fc) {
      std::set<std::string> kernels;
      for (const fatbin::Entry &e : fc.container.entries) {
        std::string elf;
        if (e.isELF() && !fatbin::extractPayload(e, elf))
          for (std::string &k : binary::listCubinKernels(elf))
            kernels.insert(std::move(k));
      }
      return !kernels.empty() &&
             std::includes(rdcKernels.begin(), rdcKernels.end(),
                           kernels.begin(), kernels.end());
    };
    if (!relocatable.empty())
      for (const binary::FoundContainer *fc : linkedImages)
        if (holdsProgram(*fc)) {
          std::string_view bytes = containerBytes(in, *fc);
          linkedPrograms.push_back(
              {cache::linkedImageHash(cache::Sha256::hex(bytes)), in.path,
               relocatable});
          indexImage(bytes, linkedPrograms.back().hash, true);
        }
  }

  resolveDeviceLinks(modules);
  // -rdc: the device-linked images cudart loads hold no PTX; each is served
  // from the binary's relocatable modules compiled as one program.
  std::map<std::vector<size_t>, size_t> programOf; // parts -> module
  for (LinkedProgram &lp : linkedPrograms) {
    if (bySha.count(lp.hash))
      continue;
    auto [known, isNew] = programOf.emplace(lp.parts, modules.size());
    if (!isNew) {
      modules[known->second].aliases.push_back(lp.hash);
      bySha.emplace(lp.hash, known->second);
      continue;
    }
    Module m;
    m.sha256 = lp.hash;
    m.linkedImage = true;
    m.text = modules[lp.parts[0]].text;
    m.sources.insert(lp.source);
    m.linkWith.assign(lp.parts.begin() + 1, lp.parts.end());
    for (size_t part : lp.parts)
      for (const std::string &k : modules[part].kernels)
        m.kernels.push_back(k);
    bySha.emplace(lp.hash, modules.size());
    modules.push_back(std::move(m));
  }

  // Jobs, the biggest modules first so that the pool ends evenly.
  std::vector<Job> jobs;
  size_t allJobs = 0;
  for (size_t i = 0; i < modules.size(); ++i)
    for (llvm::StringRef chip : chipRefs) {
      Job j;
      j.module = i;
      j.chip = chip.str();
      j.codeObject = codegen::codeObjectVersionFor(chip, opts.codeObject);
      j.options = wave64.count(j.chip) && opts.warpsPerWave == 1
                      ? cache::kOneWarpPerWave
                      : "";
      // The shim computes the same key from the same library.
      j.key = cache::moduleKeyOfPtxHash(modules[i].sha256, opts.target, j.chip,
                                        j.codeObject, j.options);
      ++allJobs;
      if (inShard(j.key, opts.shard, opts.shards))
        jobs.push_back(std::move(j));
    }
  std::vector<size_t> order(jobs.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    size_t sa = modules[jobs[a].module].text.size(),
           sb = modules[jobs[b].module].text.size();
    return sa != sb ? sa > sb : a < b;
  });

  // -j is clamped to what the machine can use (4 threads a hardware thread:
  // a compile waits on I/O little) and to the jobs there are.
  unsigned hardware = llvm::hardware_concurrency().compute_thread_count();
  unsigned threads = opts.jobs ? opts.jobs : hardware;
  if (threads > 4 * hardware) {
    fmt::print(stderr,
               "zluda-precompile: warning: -j {}: using {} threads ({} "
               "hardware threads here)\n",
               threads, 4 * hardware, hardware);
    threads = 4 * hardware;
  }
  threads = std::max<unsigned>(
      1, std::min<size_t>(threads, std::max<size_t>(jobs.size(), 1)));
  size_t kernelsTotal = 0;
  for (const Job &j : jobs)
    kernelsTotal += modules[j.module].kernels.size();
  Progress progress(jobs.size(), true);
  std::atomic<size_t> next{0}, done{0}, kernelsDone{0};
  std::atomic<bool> stop{false};
  unsigned corrupt = 0;
  std::mutex mutex;
  auto worker = [&] {
    for (;;) {
      size_t slot = next++;
      if (slot >= order.size() || stop)
        return;
      Job &job = jobs[order[slot]];
      const Module &m = modules[job.module];
      auto t0 = std::chrono::steady_clock::now();
      cache::Entry entry;
      std::string err;
      cache::ReadStatus rs = store.read(job.key, entry, err);
      if (rs == cache::ReadStatus::corrupt) {
        std::lock_guard<std::mutex> lock(mutex);
        fmt::print(stderr,
                   "zluda-precompile: warning: cache entry {} is corrupt "
                   "({}): rebuilding it\n",
                   job.key, err);
        ++corrupt;
        store.remove(job.key);
      }
      // Another build compiling the same entry: wait for it, then look
      // again (Cache::lockKey).
      int keyLock = -1;
      if (rs != cache::ReadStatus::ok) {
        keyLock = store.lockKey(job.key);
        cache::Entry again;
        std::string ignored;
        if (keyLock >= 0 &&
            store.read(job.key, again, ignored) == cache::ReadStatus::ok) {
          entry = std::move(again);
          rs = cache::ReadStatus::ok;
        }
      }
      // The remote cache: a verified entry is copied into the local one.
      if (rs != cache::ReadStatus::ok && remote) {
        cache::Entry got;
        if (remote->fetch(job.key, opts.target, job.chip, got) ==
            cache::RemoteCache::Fetch::hit) {
          std::string werr;
          if (!store.write(got, werr)) {
            std::lock_guard<std::mutex> lock(mutex);
            fmt::print(stderr,
                       "zluda-precompile: warning: cannot write cache entry "
                       "{}: {}\n",
                       store.entryPath(job.key), werr);
          }
          entry = std::move(got);
          rs = cache::ReadStatus::ok;
          job.remote = true;
        }
      }
      if (rs != cache::ReadStatus::ok && opts.pullOnly) {
        job.status = Status::failed;
        job.notFound = true;
        job.error = "in neither the local nor the remote cache";
      } else if (rs == cache::ReadStatus::ok) {
        // A cached failure (no object) stays a failure without compiling.
        job.status = entry.object.empty() ? Status::failed : Status::hit;
        job.cached = true;
        job.compiled = entry.meta.kernels;
        job.missing = entry.meta.missingKernels;
        job.error = entry.meta.error;
        for (auto &[reason, n] : entry.meta.reasons)
          job.reasons[reason] += n;
        for (auto &[kernel, why] : entry.meta.whyMissing)
          job.whyMissing.emplace(kernel, why);
      } else {
        // Fewer modules left than threads: let code generation split.
        size_t left = order.size() - std::min(order.size(), slot + 1);
        unsigned cgJobs = left + 1 >= threads ? 1 : threads;
        std::string object, crash;
        if (!codegen::runIsolated(
                [&] { compileJob(m, modules, job, opts, cgJobs, object); },
                crash)) {
          // LLVM crashed on this module: this job fails, the build goes on.
          Job crashed;
          crashed.module = job.module;
          crashed.chip = job.chip;
          crashed.codeObject = job.codeObject;
          crashed.options = job.options;
          crashed.key = job.key;
          crashed.missing = m.kernels;
          crashed.error = codegen::kCrashPrefix.str() + crash;
          ++crashed.reasons["internal compiler error"];
          job = std::move(crashed);
          object.clear();
        }
        // A failure is cached only when the PTX itself causes it (an
        // unsupported instruction, a parse or link error), never an I/O one
        // or a crash of ours.
        bool notOfThePTX =
            job.status == Status::failed &&
            (llvm::StringRef(job.error).contains("cannot ") ||
             llvm::StringRef(job.error).starts_with(codegen::kCrashPrefix));
        if (!notOfThePTX) {
          entry = {};
          entry.meta.key = job.key;
          entry.meta.target = opts.target;
          entry.meta.chip = job.chip;
          entry.meta.codeObjectVersion = job.codeObject;
          entry.meta.compilerVersion = std::string(cache::compilerVersion());
          entry.meta.ptxSha256 = m.sha256;
          entry.meta.kernels = job.compiled;
          entry.meta.missingKernels = job.missing;
          entry.meta.sources.assign(m.sources.begin(), m.sources.end());
          entry.meta.error = job.error;
          for (auto &[reason, n] : job.reasons)
            entry.meta.reasons.emplace_back(reason, n);
          for (auto &[kernel, why] : job.whyMissing)
            entry.meta.whyMissing.emplace_back(kernel, why);
          entry.object = std::move(object);
          if (remote)
            remote->store(entry);
          if (!store.write(entry, err)) {
            job.status = Status::failed;
            job.error = "cannot write its cache entry: " + err;
            std::lock_guard<std::mutex> lock(mutex);
            fmt::print(stderr,
                       "zluda-precompile: error: cannot write cache entry "
                       "{}: {}\n",
                       store.entryPath(job.key), err);
          }
        }
        if (job.status != Status::compiled && opts.failFast)
          stop = true;
      }
      store.unlockKey(job.key, keyLock);
      // The same linked program under its other images' keys.
      if (entry.meta.key == job.key) // read, or written just now
        for (const std::string &alias : m.aliases) {
          cache::Entry copy = entry;
          copy.meta.key = cache::moduleKeyOfPtxHash(
              alias, opts.target, job.chip, job.codeObject, job.options);
          cache::Entry existing;
          std::string ignored;
          if (store.read(copy.meta.key, existing, ignored) !=
              cache::ReadStatus::ok)
            store.write(copy, ignored);
          if (remote && !job.cached && !job.notFound)
            remote->store(copy);
        }
      job.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
      kernelsDone += m.kernels.size();
      progress.update(++done, kernelsDone, kernelsTotal);
    }
  };
  // Threads through pthread_create, which reports a refusal (a process or
  // memory limit) instead of throwing: the threads started do the work;
  // with none, this thread does.
  std::function<void()> work = worker;
  std::vector<pthread_t> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pthread_t th;
    int rc = pthread_create(
        &th, nullptr,
        [](void *fn) -> void * {
          (*static_cast<std::function<void()> *>(fn))();
          return nullptr;
        },
        &work);
    if (rc != 0) {
      fmt::print(stderr,
                 "zluda-precompile: warning: could start {} of {} threads "
                 "({})\n",
                 pool.size(), threads, std::strerror(rc));
      threads = std::max<unsigned>(1, pool.size());
      break;
    }
    pool.push_back(th);
  }
  if (pool.empty())
    worker();
  for (pthread_t th : pool)
    pthread_join(th, nullptr);
  // The image index, once the entries are written. A record that cannot be
  // written is an I/O error as an entry's is (said once, with the count).
  unsigned imageWriteErrors = 0;
  for (const auto &[indexKey, record] : imageRecords) {
    std::string err;
    if (store.writeImage(indexKey, record, err))
      continue;
    if (!imageWriteErrors++)
      fmt::print(stderr, "zluda-precompile: error: image index: {}\n", err);
  }
  if (imageWriteErrors > 1)
    fmt::print(stderr,
               "zluda-precompile: error: image index: {} of {} records not "
               "written\n",
               imageWriteErrors, imageRecords.size());
  std::string manifestError;
  bool cacheFilesOk = writeManifestFile(store, manifestError);
  if (!cacheFilesOk)
    fmt::print(stderr, "zluda-precompile: error: {}\n", manifestError);
  cacheFilesOk &= !imageWriteErrors;
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();

  // Summary.
  unsigned hits = 0, compiled = 0, partial = 0, failed = 0;
  size_t kernelsOk = 0;
  std::map<std::string, unsigned> reasons;
  unsigned cachedFailures = 0;
  for (const Job &j : jobs) {
    if (j.cached && j.status == Status::failed)
      ++cachedFailures;
    switch (j.status) {
    case Status::hit:
      ++hits;
      break;
    case Status::compiled:
      ++compiled;
      break;
    case Status::partial:
      ++partial;
      break;
    case Status::failed:
      ++failed;
      break;
    }
    kernelsOk += j.compiled.size();
    for (auto &[r, n] : j.reasons)
      reasons[r] += n;
  }
  size_t notRun = order.size() - std::min<size_t>(order.size(), done);
  if (opts.pullOnly) {
    // `cache pull`: what was needed, found and fetched.
    unsigned local = 0, pulled = 0, absent = 0;
    for (const Job &j : jobs)
      (j.notFound ? absent : j.remote ? pulled : local) += 1;
    const auto &c = remote->counters();
    fmt::print("cache pull from {}: {} entries needed ({} modules, {} "
               "processors): {} already here, {} pulled ({}), {} not in the "
               "remote{}{}\n",
               remote->url(), jobs.size(), modules.size(), chipRefs.size(),
               local, pulled, cache::humanBytes(c.bytesDown), absent,
               c.rejected ? fmt::format(", {} rejected", c.rejected.load())
                          : "",
               remote->available() ? "" : " (the remote became unreachable)");
    if (!cacheFilesOk)
      return 1;
    return inputErrors || absent || !remote->available() ? 1 : 0;
  }
  std::string summary;
  summary += fmt::format(
      "{} inputs, {} distinct PTX modules, {} processors: {} jobs\n",
      inputsRead, modules.size(), chipRefs.size(), jobs.size());
  if (opts.shards > 1)
    summary += fmt::format("shard {}/{}: {} of the {} jobs\n", opts.shard,
                           opts.shards, jobs.size(), allJobs);
  for (const auto &[path, archs] : machineCodeOnly)
    summary += fmt::format("{}: {} machine code only: no PTX to translate\n",
                           path, archs);
  summary += fmt::format(
      "cache hits {}, compiled {}, partly compiled {}, failed {}{}{}\n",
      hits + cachedFailures, compiled, partial, failed - notRun,
      cachedFailures ? fmt::format(" ({} known from the cache)", cachedFailures)
                     : "",
      notRun ? fmt::format(", not run {} (--fail-fast)", notRun) : "");
  summary += fmt::format("kernels compiled {}/{}; {:.1f} s with {} threads\n",
                         kernelsOk, kernelsTotal, seconds, threads);
  if (corrupt)
    summary += fmt::format("corrupt cache entries rebuilt: {}\n", corrupt);
  if (remote) {
    const auto &c = remote->counters();
    summary += fmt::format(
        "remote cache {}: hits {}, misses {}, rejected {}, uploaded {}; "
        "{} down, {} up{}{}\n",
        remote->url(), c.hits.load(), c.misses.load(), c.rejected.load(),
        c.uploaded.load(), cache::humanBytes(c.bytesDown),
        cache::humanBytes(c.bytesUp), remote->readOnly() ? " (read-only)" : "",
        remote->available() ? "" : " (unreachable: local only)");
  }
  if (!reasons.empty()) {
    std::vector<std::pair<unsigned, std::string>> sorted;
    for (auto &[r, n] : reasons)
      sorted.emplace_back(n, r);
    std::sort(sorted.rbegin(), sorted.rend());
    summary += "failures by reason (occurrences):\n";
    for (auto &[n, r] : sorted)
      summary += fmt::format("  {:6} {}\n", n, r);
  }
  fmt::print("{}", summary);
  ReportModel model =
      makeReportModel(modules, jobs, chipRefs, opts.paths, machineCodeOnly);
  if (!opts.reportPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(opts.reportPath, ec);
    if (ec) {
      fmt::print(stderr, "zluda-precompile: error: cannot write {}: {}\n",
                 opts.reportPath, ec.message());
      return 1;
    }
    out << renderReport(model, summary);
  }

  if (!opts.jsonPath.empty()) {
    llvm::json::Array results;
    for (const Job &j : jobs) {
      const Module &m = modules[j.module];
      llvm::json::Array ok, missing, sources;
      for (auto &k : j.compiled)
        ok.push_back(k);
      for (auto &k : j.missing)
        missing.push_back(k);
      for (auto &s : m.sources)
        sources.push_back(s);
      llvm::json::Object reasonsObj;
      for (auto &[r, n] : j.reasons)
        reasonsObj[r] = int64_t(n);
      results.push_back(
          llvm::json::Object{{"ptx_sha256", m.sha256},
                             {"chip", j.chip},
                             {"key", j.key},
                             {"status", statusName(j.status)},
                             {"kernels", std::move(ok)},
                             {"missing_kernels", std::move(missing)},
                             {"reasons", std::move(reasonsObj)},
                             {"error", j.error},
                             {"sources", std::move(sources)}});
    }
    std::error_code ec;
    llvm::raw_fd_ostream out(opts.jsonPath, ec);
    if (ec) {
      fmt::print(stderr, "zluda-precompile: error: cannot write {}: {}\n",
                 opts.jsonPath, ec.message());
      return 1;
    }
    llvm::json::Value remoteObj = nullptr;
    if (remote) {
      const auto &c = remote->counters();
      remoteObj =
          llvm::json::Object{{"url", remote->url()},
                             {"read_only", remote->readOnly()},
                             {"available", remote->available()},
                             {"hits", int64_t(c.hits.load())},
                             {"misses", int64_t(c.misses.load())},
                             {"rejected", int64_t(c.rejected.load())},
                             {"uploaded", int64_t(c.uploaded.load())},
                             {"bytes_down", int64_t(c.bytesDown.load())},
                             {"bytes_up", int64_t(c.bytesUp.load())}};
    }
    llvm::json::Array mcOnly;
    for (const auto &[path, archs] : machineCodeOnly)
      mcOnly.push_back(llvm::json::Object{{"path", path}, {"archs", archs}});
    out << llvm::formatv("{0:2}\n",
                         llvm::json::Value(llvm::json::Object{
                             {"inputs", int64_t(inputsRead)},
                             {"modules", int64_t(modules.size())},
                             {"jobs", int64_t(jobs.size())},
                             {"hits", int64_t(hits)},
                             {"compiled", int64_t(compiled)},
                             {"partial", int64_t(partial)},
                             {"failed", int64_t(failed)},
                             {"kernels", int64_t(kernelsTotal)},
                             {"kernels_compiled", int64_t(kernelsOk)},
                             {"seconds", seconds},
                             {"machine_code_only", std::move(mcOnly)},
                             {"remote", std::move(remoteObj)},
                             {"processors", processorsJSON(model)},
                             {"binaries", binariesJSON(model, chipRefs)},
                             {"results", std::move(results)}}));
  }
  // Kernels left out make the exit 1 whether compiled now or found so in
  // the cache: the result does not depend on what the cache held.
  return inputErrors || failed || partial || kernelsOk < kernelsTotal ||
                 !cacheFilesOk
             ? 1
             : 0;
}
