//===- TranslateInParts.cpp - LLVM dialect to LLVM IR, a part at a time ---===//
//
// Each part is translated by MLIR as a module of its own: the functions of
// the part with their bodies, every other function as a declaration, the
// variables as declarations (as definitions in the first part, which becomes
// the result). The bodies of a later part's functions then move into the
// result, in place of their declarations; what they reference is bound to
// the result's own symbols by name.
//
//===----------------------------------------------------------------------===//

#include "compiler/Codegen/TranslateInParts.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <vector>

using namespace mlir;

static llvm::cl::opt<unsigned>
    partOps("zluda-translate-part-ops", llvm::cl::Hidden,
            llvm::cl::init(200000),
            llvm::cl::desc("Operations of the LLVM dialect a part of the "
                           "translation to LLVM IR holds (bounded memory)"));

namespace {

/// A function whose body is out of the module while another part is
/// translated, and the linkage it had.
struct Stripped {
  LLVM::LLVMFuncOp func;
  std::unique_ptr<Region> body;
  LLVM::Linkage linkage;
};

/// Moves the definitions of the other parts out of `module` (declarations
/// must be external), to be put back by restore().
std::vector<Stripped> stripOthers(ArrayRef<LLVM::LLVMFuncOp> others) {
  std::vector<Stripped> out;
  for (LLVM::LLVMFuncOp f : others) {
    Stripped s{f, std::make_unique<Region>(), f.getLinkage()};
    s.body->takeBody(f.getBody());
    f.setLinkage(LLVM::Linkage::External);
    out.push_back(std::move(s));
  }
  return out;
}

void restore(std::vector<Stripped> &stripped) {
  for (Stripped &s : stripped) {
    s.func.getBody().takeBody(*s.body);
    s.func.setLinkage(s.linkage);
  }
}

/// Makes `f`, translated, a declaration: its body is in the result.
void eraseBody(LLVM::LLVMFuncOp f) {
  f.getBody().dropAllReferences();
  f.getBody().getBlocks().clear();
  f.setLinkage(LLVM::Linkage::External);
}

/// Moves the definitions of `part` (translated alone) into `result` in place
/// of their declarations; binds everything else `part` references to
/// `result`'s symbols of the same name. False if one has no counterpart.
bool mergeInto(llvm::Module &result, llvm::Module &part) {
  std::vector<llvm::Function *> defined;
  for (llvm::Function &f : part)
    if (!f.isDeclaration())
      defined.push_back(&f);
  std::vector<llvm::GlobalValue *> referenced;
  for (llvm::GlobalValue &v : part.global_values())
    if (v.isDeclaration() && !v.use_empty())
      referenced.push_back(&v);
  for (llvm::GlobalValue *v : referenced) {
    llvm::GlobalValue *mine = result.getNamedValue(v->getName());
    if (!mine) {
      // A function only later parts call (the translation of the first
      // declares only what it uses).
      auto *f = dyn_cast<llvm::Function>(v);
      if (!f)
        return false;
      auto *decl =
          llvm::Function::Create(f->getFunctionType(), f->getLinkage(),
                                 f->getAddressSpace(), f->getName(), &result);
      decl->copyAttributesFrom(f);
      mine = decl;
    }
    if (mine->getType() != v->getType())
      return false;
    v->replaceAllUsesWith(mine);
  }
  for (llvm::Function *f : defined) {
    llvm::Function *decl = result.getFunction(f->getName());
    if (!decl || !decl->isDeclaration() || decl->getType() != f->getType())
      return false;
    std::string name = f->getName().str();
    decl->setName("");
    f->removeFromParent();
    result.getFunctionList().insert(decl->getIterator(), f);
    f->setName(name);
    decl->replaceAllUsesWith(f);
    decl->eraseFromParent();
  }
  return true;
}

} // namespace

std::unique_ptr<llvm::Module>
zluda::codegen::translateInParts(ModuleOp module, llvm::LLVMContext &ctx) {
  // Parts of whole functions, in module order; only functions and
  // variables at the top (anything else: one translation).
  std::vector<std::vector<LLVM::LLVMFuncOp>> parts(1);
  size_t ops = 0;
  bool simple = true;
  for (Operation &op : *module.getBody()) {
    auto f = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (!f) {
      simple = simple && isa<LLVM::GlobalOp>(op);
      continue;
    }
    if (f.isExternal())
      continue;
    size_t n = 0;
    f.walk([&](Operation *) { ++n; });
    if (ops && ops + n > partOps) {
      parts.emplace_back();
      ops = 0;
    }
    parts.back().push_back(f);
    ops += n;
  }
  if (parts.size() == 1 || !simple)
    return translateModuleToLLVMIR(module, ctx);

  std::unique_ptr<llvm::Module> result;
  for (size_t p = 0; p < parts.size(); ++p) {
    std::vector<LLVM::LLVMFuncOp> later;
    for (size_t q = p + 1; q < parts.size(); ++q)
      later.insert(later.end(), parts[q].begin(), parts[q].end());
    std::vector<Stripped> stripped = stripOthers(later);
    std::unique_ptr<llvm::Module> part = translateModuleToLLVMIR(module, ctx);
    restore(stripped);
    if (!part)
      return nullptr;
    for (LLVM::LLVMFuncOp f : parts[p])
      eraseBody(f);
    if (p == 0) {
      result = std::move(part);
      // The variables are the first part's: later parts declare them.
      for (auto g :
           llvm::make_early_inc_range(module.getOps<LLVM::GlobalOp>())) {
        if (g.getLinkage() == LLVM::Linkage::Appending) {
          g.erase(); // llvm.used and the like, which nothing references
          continue;
        }
        g.removeValueAttr();
        g.getInitializerRegion().dropAllReferences();
        g.getInitializerRegion().getBlocks().clear();
        g.setLinkage(LLVM::Linkage::External);
      }
      continue;
    }
    if (!mergeInto(*result, *part))
      return nullptr;
  }
  return result;
}
