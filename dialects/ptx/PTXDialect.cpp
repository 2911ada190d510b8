//===- PTXDialect.cpp - The ptx dialect -----------------------------------===//

#include "dialects/ptx/PTXDialect.h"
#include "dialects/ptx/PTXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace zluda::ptx;

#include "dialects/ptx/PTXDialect.cpp.inc"

namespace {
template <typename T, typename = void> struct HasInstSpec : std::false_type {};
template <typename T>
struct HasInstSpec<T, std::void_t<decltype(T::kSpec)>> : std::true_type {};

template <typename... Ops>
void collectSpecs(llvm::StringMap<InstSpec> &specs) {
  (
      [&] {
        if constexpr (HasInstSpec<Ops>::value)
          specs[Ops::getOperationName().drop_front(sizeof("ptx.") - 1)] =
              Ops::kSpec;
      }(),
      ...);
}
} // namespace

void PTXDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/ptx/PTXOps.cpp.inc"
      >();
  collectSpecs<
#define GET_OP_LIST
#include "dialects/ptx/PTXOps.cpp.inc"
      >(instSpecs);
  registerAttributes();
  registerTypes();
}

const InstSpec *zluda::ptx::lookupInstSpec(MLIRContext *ctx,
                                           StringRef mnemonic) {
  auto *dialect = ctx->getOrLoadDialect<PTXDialect>();
  auto it = dialect->instSpecs.find(mnemonic);
  return it == dialect->instSpecs.end() ? nullptr : &it->second;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

unsigned zluda::ptx::getTypeBitWidth(TypeKind kind) {
  switch (kind) {
  case TypeKind::pred:
  case TypeKind::b1:
    return 1;
  case TypeKind::b4:
  case TypeKind::u4:
  case TypeKind::s4:
  case TypeKind::e2m1:
    return 4;
  case TypeKind::e2m3:
  case TypeKind::e3m2:
    return 6;
  case TypeKind::b8:
  case TypeKind::u8:
  case TypeKind::s8:
  case TypeKind::e4m3:
  case TypeKind::e5m2:
  case TypeKind::e2m1x2:
  case TypeKind::ue8m0:
  case TypeKind::ue4m3:
    return 8;
  case TypeKind::b16:
  case TypeKind::u16:
  case TypeKind::s16:
  case TypeKind::f16:
  case TypeKind::bf16:
  case TypeKind::e4m3x2:
  case TypeKind::e5m2x2:
  case TypeKind::e2m3x2:
  case TypeKind::e3m2x2:
  case TypeKind::ue8m0x2:
    return 16;
  case TypeKind::b32:
  case TypeKind::u32:
  case TypeKind::s32:
  case TypeKind::f32:
  case TypeKind::f16x2:
  case TypeKind::bf16x2:
  case TypeKind::tf32:
  case TypeKind::u16x2:
  case TypeKind::s16x2:
    return 32;
  case TypeKind::b64:
  case TypeKind::u64:
  case TypeKind::s64:
  case TypeKind::f64:
  case TypeKind::f32x2:
    return 64;
  case TypeKind::b128:
    return 128;
  case TypeKind::texref:
  case TypeKind::samplerref:
  case TypeKind::surfref:
    return 64;
  }
  llvm_unreachable("unknown PTX type");
}

bool zluda::ptx::isFloatType(TypeKind kind) {
  switch (kind) {
  case TypeKind::f16:
  case TypeKind::f16x2:
  case TypeKind::bf16:
  case TypeKind::bf16x2:
  case TypeKind::tf32:
  case TypeKind::f32:
  case TypeKind::f32x2:
  case TypeKind::f64:
  case TypeKind::e4m3:
  case TypeKind::e5m2:
  case TypeKind::e4m3x2:
  case TypeKind::e5m2x2:
  case TypeKind::e2m1:
  case TypeKind::e2m1x2:
  case TypeKind::e2m3:
  case TypeKind::e2m3x2:
  case TypeKind::e3m2:
  case TypeKind::e3m2x2:
  case TypeKind::ue8m0:
  case TypeKind::ue8m0x2:
  case TypeKind::ue4m3:
    return true;
  default:
    return false;
  }
}

bool zluda::ptx::isSignedIntType(TypeKind kind) {
  return kind == TypeKind::s4 || kind == TypeKind::s8 ||
         kind == TypeKind::s16 || kind == TypeKind::s32 ||
         kind == TypeKind::s64;
}

Type zluda::ptx::getRegisterType(MLIRContext *ctx, TypeKind kind) {
  switch (kind) {
  case TypeKind::f16:
    return Float16Type::get(ctx);
  case TypeKind::bf16:
    return BFloat16Type::get(ctx);
  case TypeKind::f32:
    return Float32Type::get(ctx);
  case TypeKind::f64:
    return Float64Type::get(ctx);
  default:
    return IntegerType::get(ctx, getTypeBitWidth(kind));
  }
}

#define GET_TYPEDEF_CLASSES
#include "dialects/ptx/PTXTypes.cpp.inc"

void PTXDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/ptx/PTXTypes.cpp.inc"
      >();
}
