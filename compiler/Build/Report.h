//===- Report.h - The compatibility report of a build -----------*- C++ -*-===//
//
// What a build did, arranged for the people who read it: a summary per
// processor, then per binary (those with failures first) each kernel by
// its demangled name with its result per processor. The same model is
// rendered as the HTML page (`--report`) and written in the JSON summary
// (`--json`), so both say the same.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_BUILD_REPORT_H
#define ZLUDA_COMPILER_BUILD_REPORT_H

#include "compiler/Build/BuildResults.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace zluda::build {

/// One processor's totals over the build's jobs.
struct ProcessorSummary {
  std::string chip;
  size_t kernels = 0, kernelsCompiled = 0;
  unsigned hits = 0, compiled = 0, partial = 0, failed = 0; // modules
};

/// One kernel (or, for a module without kernels that failed, the module)
/// for one processor.
struct KernelResult {
  bool ok = false;
  bool cached = false; ///< compiled earlier, taken from the cache
  std::string why;     ///< when not ok: the reason, with its PTX location
};

struct KernelRow {
  std::string module;    ///< PTX SHA-256, first 16 digits
  std::string name;      ///< as the PTX declares it (mangled)
  std::string demangled; ///< LLVM's demangler; `name` when not mangled
  std::vector<KernelResult> results; ///< one per processor, in order
};

struct BinaryReport {
  std::string path;    ///< as the build read it
  std::string display; ///< relative to the input directory it was found in
  bool failing = false;
  std::vector<KernelRow> kernels;
};

struct ReportModel {
  std::vector<std::string> inputs; ///< the paths given
  std::vector<ProcessorSummary> processors;
  /// (input, "sm_80, sm_90"): binaries without PTX.
  std::vector<std::pair<std::string, std::string>> machineCodeOnly;
  std::vector<BinaryReport> binaries; ///< failing first, then by display
};

/// `path` relative to the input directory of `inputs` it lies in (the
/// longest); a file given itself: its name.
std::string displayPath(llvm::StringRef path,
                        llvm::ArrayRef<std::string> inputs);

ReportModel makeReportModel(
    const std::vector<Module> &modules, const std::vector<Job> &jobs,
    llvm::ArrayRef<llvm::StringRef> chips,
    const std::vector<std::string> &inputs,
    const std::vector<std::pair<std::string, std::string>> &machineCodeOnly);

/// `s` with the characters HTML gives a meaning escaped.
std::string escapeHTML(llvm::StringRef s);

/// The compatibility report (HTML, one self-contained page: no external
/// resources, works offline): the model, with the build's text summary.
std::string renderReport(const ReportModel &model, const std::string &summary);

/// The model's processors and binaries as JSON (the `--json` summary's
/// "processors" and "binaries").
llvm::json::Array processorsJSON(const ReportModel &model);
llvm::json::Array binariesJSON(const ReportModel &model,
                               llvm::ArrayRef<llvm::StringRef> chips);

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_REPORT_H
