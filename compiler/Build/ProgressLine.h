//===- ProgressLine.h - One rewritten status line on stderr ----*- C++ -*-===//
//
// The progress display of `build`, `list` and `extract`: a single line on a
// terminal, rewritten in place and cleared at the end; nothing when stderr
// is not a terminal. Thread-safe.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_COMPILER_BUILD_PROGRESSLINE_H
#define ZLUDA_COMPILER_BUILD_PROGRESSLINE_H

#include <fmt/format.h>

#include <cstdio>
#include <mutex>
#include <string>

#include <unistd.h>

namespace zluda::build {

class ProgressLine {
public:
  /// Shown only if `wanted` and stderr is a terminal.
  explicit ProgressLine(bool wanted = true)
      : enabled(wanted && isatty(STDERR_FILENO)) {}
  ProgressLine(const ProgressLine &) = delete;
  ProgressLine &operator=(const ProgressLine &) = delete;
  ~ProgressLine() {
    if (enabled && shown)
      fmt::print(stderr, "\r\033[K");
  }

  bool isEnabled() const { return enabled; }

  /// Replaces the line with `text`.
  void show(const std::string &text) {
    if (!enabled)
      return;
    std::lock_guard<std::mutex> lock(mutex);
    shown = true;
    fmt::print(stderr, "\r\033[K{}", text);
    fflush(stderr);
  }

private:
  bool enabled;
  bool shown = false;
  std::mutex mutex;
};

} // namespace zluda::build

#endif // ZLUDA_COMPILER_BUILD_PROGRESSLINE_H
