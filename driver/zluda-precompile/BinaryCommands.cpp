//===- BinaryCommands.cpp - `list` and `extract` --------------------------===//

#include "BinaryCommands.h"
#include "compiler/Build/ProgressLine.h"

#include "compiler/Binary/BinaryReader.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <set>

#include <unistd.h>

using namespace zluda;
using namespace zluda::binary;

namespace {

/// A progress line on a terminal, nothing when stderr is piped.
/// "[done/total] file" while binaries are read.
class Progress {
public:
  explicit Progress(size_t total) : total(total), line(total > 1) {}
  void step(const std::string &what) {
    ++done;
    line.show(fmt::format("[{}/{}] {}", done, total,
                          llvm::sys::path::filename(what).str()));
  }

private:
  size_t total, done = 0;
  build::ProgressLine line;
};

std::string archName(uint32_t arch) { return fmt::format("sm_{}", arch); }

std::string ptxVersion(const fatbin::Entry &e) {
  return e.isPTX() ? fmt::format("{}.{}", e.ptxMajor, e.ptxMinor) : "-";
}

void printDiagnostics(const Input &in) {
  for (const Diagnostic &d : in.diagnostics)
    fmt::print(stderr, "{}: {} at offset 0x{:x}: {}\n", in.path,
               d.isError ? "error" : "note", d.offset, d.message);
}

/// The files to read, and which of them came from walking a directory.
std::set<std::string> walkedFiles;
std::vector<std::string> readablePaths(const std::vector<std::string> &paths,
                                       std::vector<std::string> &errors) {
  std::vector<std::string> files;
  for (const InputPath &p : expandPaths(paths, errors)) {
    files.push_back(p.path);
    if (p.fromDirectory)
      walkedFiles.insert(p.path);
  }
  return files;
}

/// Files of other kinds met while walking a directory are not errors.
bool skipped(const Input &in) {
  return in.unrecognized && walkedFiles.count(in.path);
}

struct Totals {
  uint64_t containers = 0, entries = 0, ptx = 0, elf = 0, other = 0,
           ptxBytes = 0, storedBytes = 0, kernels = 0, embedded = 0;
  void add(const Totals &t) {
    embedded += t.embedded;
    containers += t.containers;
    entries += t.entries;
    ptx += t.ptx;
    elf += t.elf;
    other += t.other;
    ptxBytes += t.ptxBytes;
    storedBytes += t.storedBytes;
    kernels += t.kernels;
  }
  std::string describe() const {
    return fmt::format(
        "{} containers, {} entries ({} ptx, {} elf, {} other), "
        "{}{} bytes of PTX, {} kernels",
        containers, entries, ptx, elf, other,
        embedded ? fmt::format("{} embedded PTX strings, ", embedded) : "",
        ptxBytes, kernels);
  }
  llvm::json::Object toJSON() const {
    return llvm::json::Object{{"containers", int64_t(containers)},
                              {"entries", int64_t(entries)},
                              {"ptx", int64_t(ptx)},
                              {"elf", int64_t(elf)},
                              {"other", int64_t(other)},
                              {"ptx_bytes", int64_t(ptxBytes)},
                              {"kernels", int64_t(kernels)},
                              {"embedded_ptx", int64_t(embedded)}};
  }
};

/// Decompresses one PTX entry; reports a failure as a diagnostic.
bool loadPTX(Input &in, const FoundContainer &fc, const fatbin::Entry &e,
             std::string &text) {
  if (auto err = fatbin::extractPayload(e, text)) {
    uint64_t base = fc.fileOffset - fc.container.offset;
    in.diagnostics.push_back({base + err->offset, err->message, true});
    return false;
  }
  return true;
}

} // namespace

int driver::runList(const ListOptions &opts) {
  std::vector<std::string> walkErrors;
  std::vector<std::string> files = readablePaths(opts.paths, walkErrors);
  for (const std::string &e : walkErrors)
    fmt::print(stderr, "error: {}\n", e);
  bool failed = !walkErrors.empty();
  Progress progress(files.size());
  llvm::json::Array jsonInputs;
  Totals all;

  for (const std::string &path : files) {
    Input in = readInput(path);
    progress.step(path);
    if (skipped(in))
      continue;
    Totals t;
    llvm::json::Array jsonContainers;
    std::string table;
    for (size_t ci = 0; ci < in.containers.size(); ++ci) {
      const FoundContainer &fc = in.containers[ci];
      const fatbin::Container &c = fc.container;
      int selected = c.selectedPTX();
      ++t.containers;
      table += fmt::format(
          "  container #{} at 0x{:x}{}{}{}, {} entries\n", ci, fc.fileOffset,
          fc.section.empty() ? "" : " in " + fc.section,
          fc.member.empty() ? "" : " of member " + fc.member,
          fc.relocatable ? " (relocatable, -rdc)" : "", c.entries.size());
      table += fmt::format("    {:>3}  {:<5} {:<7} {:<5} {:>10} {:>10}  {:<5} "
                           "{}\n",
                           "#", "kind", "arch", "ptx", "stored", "size", "comp",
                           "kernels");
      llvm::json::Array jsonEntries;
      for (size_t ei = 0; ei < c.entries.size(); ++ei) {
        const fatbin::Entry &e = c.entries[ei];
        ++t.entries;
        t.storedBytes += e.payload.size();
        std::vector<std::string> kernels;
        if (e.isPTX()) {
          ++t.ptx;
          std::string text;
          if (loadPTX(in, fc, e, text)) {
            t.ptxBytes += text.size();
            kernels = listKernels(text);
          }
          t.kernels += kernels.size();
        } else if (e.isELF()) {
          ++t.elf;
        } else {
          ++t.other;
        }
        std::string kernelText;
        if (e.isPTX()) {
          kernelText = fmt::format("{}", kernels.size());
          for (size_t k = 0; k < kernels.size() && k < 3; ++k)
            kernelText += (k ? ", " : ": ") + kernels[k];
          if (kernels.size() > 3)
            kernelText += ", ...";
        }
        table += fmt::format(
            "    {:>3}  {:<5} {:<7} {:<5} {:>10} {:>10}  {:<5} {}{}\n", ei,
            e.isPTX() || e.isELF() ? std::string(e.kindName())
                                   : fmt::format("k{}", e.kind),
            archName(e.arch), ptxVersion(e), e.payload.size(), e.size(),
            e.compressionName(), kernelText,
            int(ei) == selected ? "  [selected]" : "");
        llvm::json::Object je{{"kind", e.kindName()},
                              {"kind_number", int64_t(e.kind)},
                              {"arch", archName(e.arch)},
                              {"stored_size", int64_t(e.payload.size())},
                              {"size", int64_t(e.size())},
                              {"compression", e.compressionName()},
                              {"selected", int(ei) == selected}};
        if (e.isPTX()) {
          je["ptx_version"] = ptxVersion(e);
          llvm::json::Array ks;
          for (auto &k : kernels)
            ks.push_back(k);
          je["kernels"] = std::move(ks);
        }
        jsonEntries.push_back(std::move(je));
      }
      llvm::json::Object jc{{"offset", int64_t(fc.fileOffset)},
                            {"section", fc.section},
                            {"relocatable", fc.relocatable},
                            {"entries", std::move(jsonEntries)}};
      if (!fc.member.empty())
        jc["member"] = fc.member;
      jsonContainers.push_back(std::move(jc));
    }
    // PTX kept as strings in the program's data (loaded by the program).
    llvm::json::Array jsonEmbedded;
    for (const EmbeddedPTX &e : in.embeddedPTX) {
      std::vector<std::string> kernels = listKernels(e.text);
      ++t.embedded;
      t.ptxBytes += e.text.size();
      t.kernels += kernels.size();
      std::string names;
      for (size_t k = 0; k < kernels.size() && k < 3; ++k)
        names += (k ? ", " : ": ") + kernels[k];
      if (kernels.size() > 3)
        names += ", ...";
      table += fmt::format("  embedded PTX string at 0x{:x} in {}{}, {} bytes, "
                           "{} kernels{}\n",
                           e.fileOffset, e.section,
                           e.member.empty() ? "" : " of member " + e.member,
                           e.text.size(), kernels.size(), names);
      llvm::json::Array ks;
      for (auto &k : kernels)
        ks.push_back(k);
      llvm::json::Object je{{"offset", int64_t(e.fileOffset)},
                            {"section", e.section},
                            {"size", int64_t(e.text.size())},
                            {"kernels", std::move(ks)}};
      if (!e.member.empty())
        je["member"] = e.member;
      jsonEmbedded.push_back(std::move(je));
    }
    all.add(t);
    failed |= in.hasErrors();
    printDiagnostics(in);

    if (opts.json) {
      llvm::json::Array errs;
      for (const Diagnostic &d : in.diagnostics)
        errs.push_back(llvm::json::Object{{"offset", int64_t(d.offset)},
                                          {"message", d.message},
                                          {"error", d.isError}});
      jsonInputs.push_back(
          llvm::json::Object{{"path", in.path},
                             {"kind", inputKindName(in.kind)},
                             {"containers", std::move(jsonContainers)},
                             {"embedded_ptx", std::move(jsonEmbedded)},
                             {"diagnostics", std::move(errs)},
                             {"totals", t.toJSON()}});
      continue;
    }
    fmt::print("{}: {}, {}\n", in.path,
               in.kindDetail.empty() ? "unreadable" : in.kindDetail,
               t.describe());
    if (!opts.summary)
      fmt::print("{}", table);
  }
  if (opts.json) {
    llvm::json::Object totals = all.toJSON();
    totals["inputs"] = int64_t(files.size());
    llvm::outs() << llvm::formatv(
        "{0:2}\n",
        llvm::json::Value(llvm::json::Object{{"inputs", std::move(jsonInputs)},
                                             {"totals", std::move(totals)}}));
  } else if (files.size() > 1) {
    fmt::print("total: {} inputs, {}\n", files.size(), all.describe());
  }
  return failed ? 1 : 0;
}

int driver::runExtract(const ExtractOptions &opts) {
  std::vector<std::string> walkErrors;
  std::vector<std::string> files = readablePaths(opts.paths, walkErrors);
  for (const std::string &e : walkErrors)
    fmt::print(stderr, "error: {}\n", e);
  bool failed = !walkErrors.empty();
  if (std::error_code ec = llvm::sys::fs::create_directories(opts.outputDir)) {
    fmt::print(stderr, "error: cannot create {}: {}\n", opts.outputDir,
               ec.message());
    return 1;
  }
  Progress progress(files.size());
  uint64_t written = 0;
  for (const std::string &path : files) {
    Input in = readInput(path);
    progress.step(path);
    if (skipped(in))
      continue;
    std::string stem = llvm::sys::path::filename(path).str();
    for (size_t ci = 0; ci < in.containers.size(); ++ci) {
      const FoundContainer &fc = in.containers[ci];
      int selected = fc.container.selectedPTX();
      for (size_t ei = 0; ei < fc.container.entries.size(); ++ei) {
        const fatbin::Entry &e = fc.container.entries[ei];
        if (!e.isPTX() || (opts.selectedOnly && int(ei) != selected))
          continue;
        std::string text;
        const char *suffix = "";
        if (opts.raw) {
          text.assign(e.payload.data(), e.payload.size());
          suffix = e.isZstd() ? ".zst" : e.isLZ4() ? ".lz4block" : "";
        } else if (!loadPTX(in, fc, e, text)) {
          continue;
        }
        std::string member =
            fc.member.empty()
                ? ""
                : "." + llvm::sys::path::filename(fc.member).str();
        std::string name = fmt::format("{}{}.c{}.e{}.sm_{}.ptx{}", stem, member,
                                       ci, ei, e.arch, suffix);
        llvm::SmallString<256> out(opts.outputDir);
        llvm::sys::path::append(out, name);
        // Temporary file and rename: a killed run leaves no partial file.
        std::string tmp = (out + ".tmp").str();
        {
          std::error_code ec;
          llvm::raw_fd_ostream os(tmp, ec);
          if (ec) {
            fmt::print(stderr, "error: cannot write {}: {}\n", tmp,
                       ec.message());
            failed = true;
            continue;
          }
          os << text;
        }
        if (std::error_code ec = llvm::sys::fs::rename(tmp, out)) {
          fmt::print(stderr, "error: cannot write {}: {}\n", out.str().str(),
                     ec.message());
          failed = true;
          continue;
        }
        ++written;
      }
    }
    failed |= in.hasErrors();
    printDiagnostics(in);
  }
  fmt::print("extracted {} PTX modules from {} inputs into {}\n", written,
             files.size(), opts.outputDir);
  return failed ? 1 : 0;
}
