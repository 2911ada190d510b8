//===- zluda-opt.cpp - Run the toolchain's passes on MLIR -----------------===//
//
// MlirOptMain with only the toolchain's dialects and passes, so that lit can
// test any stage.
//
//===----------------------------------------------------------------------===//

#include "compiler/Pipeline/Pipeline.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  zluda::registerDialects(registry);
  zluda::registerPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "zluda-opt: passes of the PTX to AMDGPU toolchain\n",
      registry));
}
