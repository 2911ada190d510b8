//===- BuildCommand.cpp - `build`: whole applications into a cache --------===//
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

#include "BuildCommand.h"
#include "ProgressLine.h"

#include "compiler/Binary/BinaryReader.h"
#include "compiler/Cache/Cache.h"
#include "compiler/Cache/Sha256.h"
#include "compiler/Codegen/Codegen.h"
#include "compiler/Pipeline/Pipeline.h"
#include "dialects/ptx/PTXOps.h"
#include "passes/PTXToLLVM/PTXToLLVM.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace zluda;

namespace {

/// One distinct PTX module and where it was seen.
struct Module {
  std::string sha256;
  std::string text;
  std::set<std::string> sources;
  std::vector<std::string> kernels; // as the PTX declares them
  /// Device link (relocatable device code, a library's module set): the
  /// modules of the same binaries that define the functions this one
  /// declares `.extern`, found by name, transitively.
  std::vector<size_t> linkWith;
  /// A device-linked image (-rdc): this module and every one of linkWith
  /// make one program, stored under cache::linkedImageHash (sha256).
  bool linkedImage = false;
  /// Other machine-code-only containers of the same binary: the same
  /// program is stored under their hashes too (one compilation).
  std::vector<std::string> aliases;
};

/// Fills each module's linkWith.
void resolveDeviceLinks(std::vector<Module> &modules) {
  std::map<std::string, std::vector<size_t>> definers;
  std::vector<std::vector<std::string>> externs(modules.size());
  for (size_t i = 0; i < modules.size(); ++i) {
    for (const std::string &f :
         binary::listFunctions(modules[i].text, ".visible"))
      definers[f].push_back(i);
    for (std::string &f : binary::listFunctions(modules[i].text, ".extern"))
      if (!ptx::isRuntimeFunction(f))
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

enum class Status { hit, compiled, partial, failed };

const char *statusName(Status s) {
  switch (s) {
  case Status::hit:
    return "hit";
  case Status::compiled:
    return "compiled";
  case Status::partial:
    return "partial";
  case Status::failed:
    return "failed";
  }
  return "?";
}

/// One module for one processor.
struct Job {
  size_t module;
  std::string chip;
  unsigned codeObject = 0; ///< the version compiled for (in the key too)
  std::string key;
  Status status = Status::failed;
  std::vector<std::string> compiled, missing;
  /// "instruction" (or a short reason) -> count, from the diagnostics.
  std::map<std::string, unsigned> reasons;
  std::string error; ///< first error, with its location
  /// Per left-out kernel or function: the first unsupported instruction in
  /// it, with its location.
  std::map<std::string, std::string> whyMissing;
  bool cached = false; ///< the result came from the cache
  double seconds = 0;
};

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
  driver::ProgressLine line;
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
                const driver::BuildOptions &opts, unsigned codegenJobs,
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
    std::string text = d.str();
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
  cg.keepGoing = true;
  cg.linkWhole = m.linkedImage;
  cg.jobs = codegenJobs;
  // NVPTX entries hold PTX text, which the NVIDIA driver loads.
  auto result = codegen::compile(*module, cg,
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
  for (auto entry : module->getOps<ptx::EntryOp>())
    if (!gone.count(entry.getSymName().str()))
      job.compiled.push_back(entry.getSymName().str());
  if (m.linkedImage)
    for (mlir::ModuleOp part : linked)
      for (auto entry : part.getOps<ptx::EntryOp>())
        job.compiled.push_back(entry.getSymName().str());
  job.error = first;
  job.status = job.missing.empty() ? Status::compiled : Status::partial;
}

/// Writes DIR/v1/manifest.json from every entry present, under a lock so
/// that concurrent builds do not interleave their manifests.
void writeManifest(const cache::Cache &c) {
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
  {
    std::error_code ec;
    llvm::raw_fd_ostream out(tmp, ec);
    if (!ec)
      out << text;
  }
  llvm::sys::fs::rename(tmp, c.root() + "/v1/manifest.json");
  if (lock >= 0)
    ::close(lock);
}

std::string escapeHTML(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// The compatibility report: per binary, its modules and kernels, one
/// column per processor with the kernel's status and, for a kernel left
/// out, the instruction and its location.
std::string renderReport(const std::vector<Module> &modules,
                         const std::vector<Job> &jobs,
                         llvm::ArrayRef<llvm::StringRef> chips,
                         const std::string &summary) {
  std::map<std::pair<size_t, std::string>, const Job *> byModuleChip;
  for (const Job &j : jobs)
    byModuleChip[{j.module, j.chip}] = &j;
  std::map<std::string, std::vector<size_t>> byBinary;
  for (size_t i = 0; i < modules.size(); ++i)
    for (const std::string &src : modules[i].sources)
      byBinary[src].push_back(i);
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
       "<title>zluda-precompile compatibility report</title>\n<style>"
       "body{font-family:sans-serif;margin:1.5em}table{border-collapse:"
       "collapse;margin-bottom:1.5em}td,th{border:1px solid #bbb;padding:"
       "2px 6px;font-size:13px;vertical-align:top}td.ok{background:#dfd}"
       "td.bad{background:#fdd}td.na{background:#eee}code{font-size:12px}"
       "</style></head><body>\n<h1>Compatibility report</h1>\n<pre id=\""
       "summary\">" +
       escapeHTML(summary) + "</pre>\n";
  for (const auto &[binary, mods] : byBinary) {
    h += "<h2 class=\"binary\">" + escapeHTML(binary) + "</h2>\n";
    h += "<table><tr><th>module (PTX SHA-256)</th><th>kernel</th>";
    for (llvm::StringRef c : chips)
      h += "<th>" + escapeHTML(c) + "</th>";
    h += "</tr>\n";
    for (size_t mi : mods) {
      const Module &m = modules[mi];
      for (const std::string &kernel : m.kernels) {
        h += "<tr><td><code>" + m.sha256.substr(0, 16) + "</code></td><td>" +
             "<code>" + escapeHTML(kernel) + "</code></td>";
        for (llvm::StringRef c : chips) {
          auto it = byModuleChip.find({mi, c.str()});
          const Job *j = it == byModuleChip.end() ? nullptr : it->second;
          bool ok = j && std::find(j->compiled.begin(), j->compiled.end(),
                                   kernel) != j->compiled.end();
          if (ok) {
            h += std::string("<td class=\"ok\">") +
                 (j->status == Status::hit ? "compiled (cached)" : "compiled") +
                 "</td>";
            continue;
          }
          std::string why = "not compiled";
          if (j) {
            auto w = j->whyMissing.find(kernel);
            why = w != j->whyMissing.end() ? w->second
                  : j->status == Status::hit
                      ? "left out when this entry was compiled"
                  : j->status == Status::failed
                      ? j->error
                      : "calls or uses a function or variable that was left "
                        "out; first: " +
                            j->error;
          }
          h += "<td class=\"bad\">" + escapeHTML(why) + "</td>";
        }
        h += "</tr>\n";
      }
    }
    h += "</table>\n";
  }
  h += "</body></html>\n";
  return h;
}

} // namespace

int driver::runBuild(const BuildOptions &opts) {
  auto start = std::chrono::steady_clock::now();
  llvm::SmallVector<llvm::StringRef> chipRefs;
  llvm::StringRef(opts.archs).split(chipRefs, ',', -1, false);
  if (chipRefs.empty()) {
    fmt::print(stderr, "zluda-precompile: error: --arch names no processor\n");
    return 1;
  }
  cache::Cache store(opts.cacheDir);
  std::string error;
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
      addModule(in.buffer->getBuffer().str(), in.path);
      continue;
    }
    std::vector<size_t> relocatable;
    std::vector<const binary::FoundContainer *> linkedImages;
    for (const binary::FoundContainer &fc : in.containers) {
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
      if (fc.relocatable && fc.member.empty())
        relocatable.push_back(index);
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
        if (holdsProgram(*fc))
          linkedPrograms.push_back(
              {cache::linkedImageHash(
                   cache::Sha256::hex(in.buffer->getBuffer().substr(
                       fc->fileOffset, fc->container.totalSize()))),
               in.path, relocatable});
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
  for (size_t i = 0; i < modules.size(); ++i)
    for (llvm::StringRef chip : chipRefs) {
      Job j;
      j.module = i;
      j.chip = chip.str();
      j.codeObject = codegen::codeObjectVersionFor(chip, opts.codeObject);
      // The shim computes the same key from the same library.
      j.key = cache::moduleKeyOfPtxHash(modules[i].sha256, opts.target, j.chip,
                                        j.codeObject);
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

  unsigned threads = opts.jobs
                         ? opts.jobs
                         : llvm::hardware_concurrency().compute_thread_count();
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
      if (rs == cache::ReadStatus::ok) {
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
        std::string object;
        compileJob(m, modules, job, opts, cgJobs, object);
        // A failure is cached only when the PTX itself causes it (an
        // unsupported instruction, a parse or link error), never an I/O one.
        bool ioFailure = job.status == Status::failed &&
                         llvm::StringRef(job.error).contains("cannot ");
        if (!ioFailure) {
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
          if (!store.write(entry, err)) {
            job.status = Status::failed;
            job.error = err;
          }
        }
        if (job.status != Status::compiled && opts.failFast)
          stop = true;
      }
      // The same linked program under its other images' keys.
      if (entry.meta.key == job.key) // read, or written just now
        for (const std::string &alias : m.aliases) {
          cache::Entry copy = entry;
          copy.meta.key = cache::moduleKeyOfPtxHash(alias, opts.target,
                                                    job.chip, job.codeObject);
          cache::Entry existing;
          std::string ignored;
          if (store.read(copy.meta.key, existing, ignored) !=
              cache::ReadStatus::ok)
            store.write(copy, ignored);
        }
      job.seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count();
      kernelsDone += m.kernels.size();
      progress.update(++done, kernelsDone, kernelsTotal);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back(worker);
  for (auto &t : pool)
    t.join();
  writeManifest(store);
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
  std::string summary;
  summary += fmt::format(
      "{} inputs, {} distinct PTX modules, {} processors: {} jobs\n",
      inputsRead, modules.size(), chipRefs.size(), jobs.size());
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
  if (!opts.reportPath.empty()) {
    std::error_code ec;
    llvm::raw_fd_ostream out(opts.reportPath, ec);
    if (ec) {
      fmt::print(stderr, "zluda-precompile: error: cannot write {}: {}\n",
                 opts.reportPath, ec.message());
      return 1;
    }
    out << renderReport(modules, jobs, chipRefs, summary);
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
                             {"results", std::move(results)}}));
  }
  return inputErrors || failed || partial ? 1 : 0;
}

int driver::runCacheVerify(const std::string &dir, bool removeCorrupt) {
  cache::Cache store(dir);
  unsigned ok = 0, bad = 0;
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    if (store.read(key, e, error) == cache::ReadStatus::ok) {
      ++ok;
      continue;
    }
    ++bad;
    fmt::print("corrupt: {}: {}\n", store.entryPath(key), error);
    if (removeCorrupt)
      store.remove(key);
  }
  fmt::print("{} entries verified, {} corrupt{}\n", ok, bad,
             bad && removeCorrupt ? " (removed)" : "");
  return bad ? 1 : 0;
}

int driver::runCacheList(const std::string &dir) {
  cache::Cache store(dir);
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    if (store.read(key, e, error) != cache::ReadStatus::ok) {
      fmt::print("{} corrupt ({})\n", key, error);
      continue;
    }
    fmt::print("{} {} {} {} bytes, {} kernels, {} missing\n", key,
               e.meta.target, e.meta.chip, e.object.size(),
               e.meta.kernels.size(), e.meta.missingKernels.size());
  }
  return 0;
}

int driver::runCachePrune(const std::string &dir) {
  cache::Cache store(dir);
  std::string current(cache::compilerVersion());
  unsigned kept = 0, removed = 0;
  uint64_t freed = 0;
  for (const std::string &key : store.keys()) {
    cache::Entry e;
    std::string error;
    cache::ReadStatus rs = store.read(key, e, error);
    if (rs == cache::ReadStatus::ok && e.meta.compilerVersion == current) {
      ++kept;
      continue;
    }
    // Another compiler's entry (no key of this one can reach it) or a
    // corrupt one.
    std::error_code ec;
    uint64_t size = std::filesystem::file_size(store.entryPath(key), ec);
    store.remove(key);
    ++removed;
    freed += ec ? 0 : size;
  }
  store.removeStaleTemporaries(3600); // as build does: not a running write
  fmt::print("{} entries kept, {} removed ({:.1f} MB): entries of other "
             "compiler versions and corrupt ones\n",
             kept, removed, double(freed) / (1 << 20));
  return 0;
}
