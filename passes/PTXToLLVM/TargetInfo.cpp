//===- TargetInfo.cpp - What both sides of the lowering seam share --------===//

#include "passes/PTXToLLVM/TargetInfo.h"

using namespace mlir;
using namespace zluda::ptx;

TargetInfo::~TargetInfo() = default;

Value TargetInfo::linearThreadIndex(OpBuilder &b, Location loc) const {
  Type i32 = b.getI32Type();
  auto reg = [&](SReg r, char dim) {
    return getSpecialRegister(b, loc, r, dim, i32);
  };
  return LLVM::AddOp::create(
      b, loc, reg(SReg::tid, 'x'),
      LLVM::MulOp::create(
          b, loc, reg(SReg::ntid, 'x'),
          LLVM::AddOp::create(b, loc, reg(SReg::tid, 'y'),
                              LLVM::MulOp::create(b, loc, reg(SReg::ntid, 'y'),
                                                  reg(SReg::tid, 'z')))));
}

Value zluda::ptx::callAddressTest(OpBuilder &b, Location loc, StringRef name,
                                  Value ptr) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<ModuleOp>();
  Type i1 = b.getI1Type();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    LLVM::LLVMFuncOp::create(b, loc, name,
                             LLVM::LLVMFunctionType::get(i1, {ptr.getType()}),
                             LLVM::Linkage::Internal);
  }
  return LLVM::CallOp::create(b, loc, TypeRange{i1}, name, ValueRange{ptr})
      .getResult();
}

std::unique_ptr<TargetInfo>
zluda::ptx::createTargetInfo(StringRef target, StringRef chip,
                             std::string &error, unsigned warpsPerWave) {
  if (target == "amdgpu")
    return createAMDGPUTargetInfo(chip, error, warpsPerWave);
  if (target == "nvptx")
    return createNVPTXTargetInfo(chip, error);
  error = ("unknown target '" + target + "' (amdgpu or nvptx)").str();
  return nullptr;
}
