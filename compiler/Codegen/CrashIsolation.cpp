//===- CrashIsolation.cpp - One job's crash is that job's failure ---------===//

#include "compiler/Codegen/CrashIsolation.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/ErrorHandling.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace {

/// The fatal error message of the job crashing on this thread.
thread_local std::string fatalMessage;

void onFatalError(void *, const char *reason, bool) {
  if (llvm::CrashRecoveryContext::GetCurrent()) {
    // Inside a job: keep the reason, and crash into the recovery context.
    fatalMessage = reason;
    std::abort();
  }
  std::fprintf(stderr, "zluda-precompile: error: %s%s\n",
               zluda::codegen::kCrashPrefix.data(), reason);
  // Returning: LLVM ends the process as it would have.
}

} // namespace

void zluda::codegen::enableCrashIsolation() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(onFatalError);
  });
}

bool zluda::codegen::runIsolated(llvm::function_ref<void()> fn,
                                 std::string &what) {
  fatalMessage.clear();
  llvm::CrashRecoveryContext crc;
  if (crc.RunSafely(fn))
    return true;
  if (!fatalMessage.empty())
    what = fatalMessage;
  else if (crc.RetCode > 128 && crc.RetCode - 128 < NSIG)
    what = std::string("signal ") + strsignal(crc.RetCode - 128);
  else
    what = "a crash (code " + std::to_string(crc.RetCode) + ")";
  return false;
}
