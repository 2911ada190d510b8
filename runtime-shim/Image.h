//===- Image.h - What an application hands the driver's loaders -*- C++ -*-===//
//
// A load call gets a fatbin wrapper, a fatbin container, PTX text or an ELF
// cubin, often with no size. This finds which it is and the PTX module the
// toolchain would have compiled from it (the same selection policy and the
// same payload extraction as `zluda-precompile build`).
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_RUNTIME_SHIM_IMAGE_H
#define ZLUDA_RUNTIME_SHIM_IMAGE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zluda::shim {

enum class ImageKind { wrapper, container, ptx, elf, unknown };

const char *imageKindName(ImageKind kind);

struct ImageInfo {
  ImageKind kind = ImageKind::unknown;
  /// The image's bytes as found (the container, header included, or the
  /// text): what `build` indexes (cache::imageIndexKey).
  std::string_view span;
  bool hasPTX = false; ///< a PTX module was selected
  std::string ptx;     ///< its text, as the build extracted it
  std::string problem; ///< why there is no PTX, when there is none
  /// A container of machine code only (what cudart loads for -rdc
  /// programs): the SHA-256 (hex) of its bytes, which `build` keys the
  /// program's linked relocatable modules by (cache::linkedImageHash).
  std::string containerSha256;
};

/// Finds what an image in memory is and its bytes, decompressing nothing.
/// `size` is the buffer's size when known (files), 0 when not (pointers
/// given to cuModuleLoadData and friends): sizes are then taken from the
/// headers. `problem` is set when it is no image the shim can read.
ImageInfo locateImage(const void *image, size_t size = 0);

/// Reads a located image's module: the selected PTX, extracted, or for a
/// container of machine code only its SHA-256.
void extractModule(ImageInfo &info);

/// Both: locateImage, then extractModule.
ImageInfo readImage(const void *image, size_t size = 0);

/// Builds HIP's launch `extra` list, {0x1, buf, 0x2, &size, 0x3}, from a CUDA
/// one (any order, ended by 0x0). False when `extra` has no buffer or size,
/// or an entry HIP has no meaning for.
bool rebuildExtra(void **extra, std::vector<void *> &out);

} // namespace zluda::shim

#endif // ZLUDA_RUNTIME_SHIM_IMAGE_H
