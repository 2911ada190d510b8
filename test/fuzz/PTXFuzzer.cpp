// libFuzzer target over the PTX front end: any bytes, parsed as a PTX module
// for both targets' spellings and verified, every diagnostic rendered as
// users read it. Invalid PTX must be diagnosed, never crash, hang or leave
// an unverified module.
#include "compiler/Frontend/Diagnostics.h"
#include "compiler/Frontend/PTXParser.h"
#include "dialects/ptx/PTXDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <cstdlib>

namespace {

mlir::MLIRContext &context() {
  static mlir::MLIRContext *ctx = [] {
    auto *c = new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
    c->getOrLoadDialect<zluda::ptx::PTXDialect>();
    return c;
  }();
  return *ctx;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = context();
  std::string rendered;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    rendered = zluda::userDiagnostic(d.str());
    return mlir::success();
  });
  for (bool native : {false, true}) {
    llvm::SourceMgr sources;
    sources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(
            llvm::StringRef(reinterpret_cast<const char *>(data), size),
            "fuzz.ptx"),
        llvm::SMLoc());
    zluda::frontend::ParseOptions options;
    options.nativeSpellings = native;
    auto module = zluda::frontend::parsePTX(sources, &ctx, options);
    // A module the parser returns is one the pipeline goes on with: it must
    // verify (the driver stops at the first error either way).
    if (module && mlir::failed(mlir::verify(*module)) && rendered.empty())
      std::abort(); // failed without saying why
  }
  return 0;
}
