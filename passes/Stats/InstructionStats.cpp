//===- InstructionStats.cpp - Count instructions per opcode ---------------===//

#include "passes/Passes.h"

#include "dialects/ptx/PTXOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace zluda::ptx {
#define GEN_PASS_DEF_PTXINSTRUCTIONSTATS
#include "passes/Passes.h.inc"
} // namespace zluda::ptx

using namespace mlir;
using namespace zluda::ptx;

namespace {
struct InstructionStatsPass
    : zluda::ptx::impl::PTXInstructionStatsBase<InstructionStatsPass> {
  using Base::Base;

  void runOnOperation() override {
    std::map<std::string, uint64_t> counts; // sorted: deterministic output
    uint64_t kernels = 0, functions = 0, total = 0;
    getOperation()->walk([&](Operation *op) {
      if (isa<EntryOp>(op)) {
        ++kernels;
        return;
      }
      if (isa<FuncOp>(op)) {
        ++functions;
        return;
      }
      if (!op->hasAttrOfType<ModifiersAttr>("mods") && !isa<CallOp>(op))
        return;
      ++counts[op->getName().stripDialect().str()];
      ++total;
    });
    auto print = [&](llvm::raw_ostream &os) {
      os << "kernels " << kernels << "\nfunctions " << functions << "\n";
      for (auto &[name, n] : counts)
        os << "  " << name << " " << n << "\n";
      os << "instructions " << total << "\n";
    };
    if (output.empty()) {
      print(llvm::errs());
      return;
    }
    std::error_code ec;
    llvm::raw_fd_ostream os(output, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      getOperation().emitError("cannot write ") << output << ": " << ec.message();
      return signalPassFailure();
    }
    print(os);
  }
};
} // namespace
