//===- Pipeline.cpp - The toolchain's pipeline ----------------------------===//

#include "compiler/Pipeline/Pipeline.h"

#include "compiler/Frontend/PTXParser.h"
#include "dialects/ptx/PTXDialect.h"
#include "passes/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void zluda::registerDialects(DialectRegistry &registry) {
  registry.insert<ptx::PTXDialect, LLVM::LLVMDialect, ROCDL::ROCDLDialect>();
}

void zluda::registerPasses() {
  ptx::registerPTXPasses();
  registerCanonicalizerPass();
  registerCSEPass();
}

OwningOpRef<ModuleOp> zluda::loadPTX(llvm::SourceMgr &sourceMgr,
                                     MLIRContext &context,
                                     llvm::StringRef target) {
  frontend::ParseOptions options;
  options.nativeSpellings = target == "nvptx";
  OwningOpRef<ModuleOp> module =
      frontend::parsePTX(sourceMgr, &context, options);
  if (!module || failed(verify(*module)))
    return nullptr;
  return module;
}
