//===- Report.cpp - The compatibility report of a build -------------------===//

#include "compiler/Build/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include <fmt/format.h>

#include <algorithm>

using namespace zluda;
using namespace zluda::build;

std::string build::escapeHTML(llvm::StringRef s) {
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

std::string build::displayPath(llvm::StringRef path,
                               llvm::ArrayRef<std::string> inputs) {
  llvm::StringRef best;
  for (llvm::StringRef in : inputs) {
    llvm::StringRef dir = in.rtrim('/');
    if (dir.empty() || !path.starts_with(dir) ||
        path.size() <= dir.size() + 1 || path[dir.size()] != '/')
      continue;
    if (dir.size() > best.size())
      best = dir;
  }
  if (!best.empty())
    return path.drop_front(best.size() + 1).str();
  // A file given itself: its name (the whole path is on hover).
  size_t slash = path.rfind('/');
  return slash == llvm::StringRef::npos || slash + 1 == path.size()
             ? path.str()
             : path.drop_front(slash + 1).str();
}

/// The reason kernel `kernel` of job `j` (if any) was not compiled.
static std::string whyNotCompiled(const Job *j, const std::string &kernel) {
  if (!j)
    return "not compiled";
  auto w = j->whyMissing.find(kernel);
  if (w != j->whyMissing.end())
    return w->second;
  if (j->status == Status::hit)
    return "left out when this entry was compiled";
  if (j->status == Status::failed)
    return j->error;
  return "calls or uses a function or variable that was left out; first: " +
         j->error;
}

ReportModel build::makeReportModel(
    const std::vector<Module> &modules, const std::vector<Job> &jobs,
    llvm::ArrayRef<llvm::StringRef> chips,
    const std::vector<std::string> &inputs,
    const std::vector<std::pair<std::string, std::string>> &machineCodeOnly) {
  ReportModel model;
  model.inputs = inputs;
  model.machineCodeOnly = machineCodeOnly;
  std::map<std::pair<size_t, std::string>, const Job *> byModuleChip;
  std::map<std::string, size_t> chipIndex;
  for (llvm::StringRef c : chips) {
    chipIndex[c.str()] = model.processors.size();
    model.processors.push_back({c.str()});
  }
  for (const Job &j : jobs) {
    byModuleChip[{j.module, j.chip}] = &j;
    auto it = chipIndex.find(j.chip);
    if (it == chipIndex.end())
      continue;
    ProcessorSummary &p = model.processors[it->second];
    p.kernels += modules[j.module].kernels.size();
    p.kernelsCompiled += j.compiled.size();
    ++(j.status == Status::hit        ? p.hits
       : j.status == Status::compiled ? p.compiled
       : j.status == Status::partial  ? p.partial
                                      : p.failed);
  }

  std::map<std::string, std::vector<size_t>> byBinary;
  for (size_t i = 0; i < modules.size(); ++i)
    for (const std::string &src : modules[i].sources)
      byBinary[src].push_back(i);
  for (const auto &[binary, mods] : byBinary) {
    BinaryReport b;
    b.path = binary;
    b.display = displayPath(binary, inputs);
    std::vector<KernelRow> ok, bad;
    for (size_t mi : mods) {
      const Module &m = modules[mi];
      // A module without kernels shows only when it failed (a library
      // module others link with).
      std::vector<std::string> names = m.kernels;
      bool moduleRow = names.empty();
      if (moduleRow)
        names.push_back("");
      for (const std::string &kernel : names) {
        KernelRow row;
        row.module = m.sha256.substr(0, 16);
        row.name = moduleRow ? "(module without kernels)" : kernel;
        row.demangled = moduleRow ? row.name : llvm::demangle(kernel);
        bool rowOk = true;
        for (llvm::StringRef c : chips) {
          auto it = byModuleChip.find({mi, c.str()});
          const Job *j = it == byModuleChip.end() ? nullptr : it->second;
          KernelResult r;
          r.ok = moduleRow ? j && j->status != Status::failed
                           : j && llvm::is_contained(j->compiled, kernel);
          r.cached = r.ok && j->status == Status::hit;
          if (!r.ok)
            r.why = moduleRow && j ? j->error : whyNotCompiled(j, kernel);
          rowOk &= r.ok;
          row.results.push_back(std::move(r));
        }
        if (moduleRow && rowOk)
          continue;
        (rowOk ? ok : bad).push_back(std::move(row));
      }
    }
    b.failing = !bad.empty();
    b.kernels = std::move(bad); // failures first
    b.kernels.insert(b.kernels.end(), std::make_move_iterator(ok.begin()),
                     std::make_move_iterator(ok.end()));
    model.binaries.push_back(std::move(b));
  }
  std::sort(model.binaries.begin(), model.binaries.end(),
            [](const BinaryReport &a, const BinaryReport &b) {
              return std::tie(b.failing, a.display, a.path) <
                     std::tie(a.failing, b.display, b.path);
            });
  return model;
}

/// A kernel's compiled share as a percentage, one decimal.
static std::string percent(size_t part, size_t whole) {
  return fmt::format("{:.1f}", whole ? 100.0 * part / whole : 100.0);
}

static const char *const kStyle = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em auto;max-width:80em;
padding:0 1em;color:#222}
h1{font-size:1.5em;margin:0 0 .3em}h2{font-size:1.15em;margin:1.2em 0 .4em}
.inputs{color:#555;margin:0 0 1em}
table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar{width:16em;height:1em;background:#e8a0a0;border-radius:2px;overflow:hidden}
.fill{height:100%;background:#3a9a4a}
td.ok{background:#dff3df}td.bad{background:#fbdede}
code{font-size:13px}
td.kernel{min-width:12em}td.kernel code{overflow-wrap:anywhere}
details.binary{border:1px solid #ccc;border-radius:4px;margin:.5em 0}
details.binary>summary{padding:.4em .6em;cursor:pointer;background:#f7f7f7}
details.binary.failing>summary{background:#fbeaea}
details.binary table{margin:.5em;width:calc(100% - 1em)}
.count{color:#555;margin-left:1em}
#filter{width:30em;max-width:100%;padding:4px 6px;font-size:14px}
#shown{margin-left:1em;color:#555}
.mconly li{color:#7a4b00}
)css";

static const char *const kScript = R"js(
(function(){
var box=document.getElementById('filter');
function apply(){
  var q=box.value.trim().toLowerCase(),shown=0;
  document.querySelectorAll('details.binary').forEach(function(b){
    var all=q!==''&&b.dataset.path.toLowerCase().indexOf(q)>=0,any=false;
    b.querySelectorAll('tr.kernel').forEach(function(r){
      var hit=q===''||all||r.dataset.key.indexOf(q)>=0;
      r.hidden=!hit;
      if(hit){any=true;shown++;}
    });
    b.hidden=!any;
    b.open=q!==''?any:b.classList.contains('failing');
  });
  document.getElementById('shown').textContent=
    q!==''?shown+(shown==1?' kernel matches':' kernels match'):'';
}
box.addEventListener('input',apply);
var h=location.hash.match(/^#filter=(.*)$/);
if(h){box.value=decodeURIComponent(h[1]);apply();}
})();
)js";

std::string build::renderReport(const ReportModel &model,
                                const std::string &summary) {
  std::string h;
  h += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width\">\n"
       "<title>zluda-precompile compatibility report</title>\n<style>";
  h += kStyle;
  h += "</style></head><body>\n<h1>Compatibility report</h1>\n";
  h += "<p class=\"inputs\">Inputs: ";
  for (size_t i = 0; i < model.inputs.size(); ++i)
    h += (i ? ", <code>" : "<code>") + escapeHTML(model.inputs[i]) + "</code>";
  h += "</p>\n";

  h += "<h2>Processors</h2>\n<table id=\"processors\"><tr><th>processor</th>"
       "<th>kernels compiled</th><th></th><th>modules: from cache, compiled, "
       "partly, failed</th></tr>\n";
  for (const ProcessorSummary &p : model.processors) {
    std::string pc = percent(p.kernelsCompiled, p.kernels);
    h += fmt::format(
        "<tr data-chip=\"{0}\"><td>{0}</td><td class=\"num\">{1} / {2} "
        "({3}%)</td><td><div class=\"bar\" title=\"{3}%\"><div class=\"fill\" "
        "style=\"width:{3}%\"></div></div></td><td class=\"num\">{4}, {5}, "
        "{6}, {7}</td></tr>\n",
        escapeHTML(p.chip), p.kernelsCompiled, p.kernels, pc, p.hits,
        p.compiled, p.partial, p.failed);
  }
  h += "</table>\n";
  if (!model.machineCodeOnly.empty()) {
    h += "<ul class=\"mconly\">\n";
    for (const auto &[path, archs] : model.machineCodeOnly)
      h += "<li><code>" + escapeHTML(displayPath(path, model.inputs)) +
           "</code>: " + escapeHTML(archs) +
           " machine code only: no PTX to translate</li>\n";
    h += "</ul>\n";
  }
  h += "<details><summary>Build summary</summary><pre id=\"summary\">" +
       escapeHTML(summary) + "</pre></details>\n";

  size_t failing = llvm::count_if(
      model.binaries, [](const BinaryReport &b) { return b.failing; });
  h += fmt::format("<h2>Binaries</h2>\n<p>{} binaries, {} with kernels not "
                   "compiled for some processor (shown first, open).</p>\n",
                   model.binaries.size(), failing);
  h += "<p><input id=\"filter\" type=\"search\" placeholder=\"Filter: kernel, "
       "binary or reason\" aria-label=\"Filter\"><span id=\"shown\"></span>"
       "</p>\n";
  for (const BinaryReport &b : model.binaries) {
    size_t bad = llvm::count_if(b.kernels, [](const KernelRow &r) {
      return llvm::any_of(r.results,
                          [](const KernelResult &k) { return !k.ok; });
    });
    h += fmt::format(
        "<details class=\"binary{}\" data-path=\"{}\"{}><summary><code "
        "title=\"{}\">{}</code><span class=\"count\">{} kernel{}{}</span>"
        "</summary>\n",
        b.failing ? " failing" : "", escapeHTML(b.display),
        b.failing ? " open" : "", escapeHTML(b.path), escapeHTML(b.display),
        b.kernels.size(), b.kernels.size() == 1 ? "" : "s",
        bad ? fmt::format(", {} not compiled for some processor", bad) : "");
    h += "<table><tr><th>kernel</th><th>module</th>";
    for (const ProcessorSummary &p : model.processors)
      h += "<th>" + escapeHTML(p.chip) + "</th>";
    h += "</tr>\n";
    for (const KernelRow &r : b.kernels) {
      std::string key = r.demangled + " " + r.name;
      for (const KernelResult &k : r.results)
        key += " " + k.why;
      h += "<tr class=\"kernel\" data-key=\"" +
           escapeHTML(llvm::StringRef(key).lower()) +
           "\"><td class=\"kernel\"><code title=\"" + escapeHTML(r.name) +
           "\">" + escapeHTML(r.demangled) + "</code></td><td><code>" +
           r.module + "</code></td>";
      for (const KernelResult &k : r.results)
        h += k.ok ? std::string("<td class=\"ok\">") +
                        (k.cached ? "compiled (cached)" : "compiled") + "</td>"
                  : "<td class=\"bad\">" + escapeHTML(k.why) + "</td>";
      h += "</tr>\n";
    }
    h += "</table></details>\n";
  }
  h += "<script>";
  h += kScript;
  h += "</script>\n</body></html>\n";
  return h;
}

llvm::json::Array build::processorsJSON(const ReportModel &model) {
  llvm::json::Array out;
  for (const ProcessorSummary &p : model.processors)
    out.push_back(
        llvm::json::Object{{"chip", p.chip},
                           {"kernels", int64_t(p.kernels)},
                           {"kernels_compiled", int64_t(p.kernelsCompiled)},
                           {"modules_hit", int64_t(p.hits)},
                           {"modules_compiled", int64_t(p.compiled)},
                           {"modules_partial", int64_t(p.partial)},
                           {"modules_failed", int64_t(p.failed)}});
  return out;
}

llvm::json::Array build::binariesJSON(const ReportModel &model,
                                      llvm::ArrayRef<llvm::StringRef> chips) {
  llvm::json::Array out;
  for (const BinaryReport &b : model.binaries) {
    llvm::json::Array kernels;
    for (const KernelRow &r : b.kernels) {
      llvm::json::Object results;
      for (size_t i = 0; i < r.results.size() && i < chips.size(); ++i) {
        const KernelResult &k = r.results[i];
        llvm::json::Object o{
            {"status",
             k.ok ? (k.cached ? "compiled (cached)" : "compiled") : "failed"}};
        if (!k.ok)
          o["reason"] = k.why;
        results[chips[i]] = std::move(o);
      }
      kernels.push_back(llvm::json::Object{{"name", r.name},
                                           {"demangled", r.demangled},
                                           {"module", r.module},
                                           {"results", std::move(results)}});
    }
    out.push_back(llvm::json::Object{{"path", b.path},
                                     {"display", b.display},
                                     {"failing", b.failing},
                                     {"kernels", std::move(kernels)}});
  }
  return out;
}
