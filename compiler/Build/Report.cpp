//===- Report.cpp - The compatibility report of a build -------------------===//

#include "compiler/Build/Report.h"

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

std::string build::renderReport(const std::vector<Module> &modules,
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
