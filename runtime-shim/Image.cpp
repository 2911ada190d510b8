//===- Image.cpp - What an application hands the driver's loaders ---------===//

#include "runtime-shim/Image.h"
#include "runtime-shim/CudaApi.h"

#include "compiler/Cache/Sha256.h"
#include "compiler/Fatbin/Fatbin.h"

#include <cstring>

using namespace zluda;
using namespace zluda::shim;

namespace {

uint32_t load32(const void *p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// The container at `data`: its size comes from its own header.
void locateContainerAt(const char *data, size_t limit, ImageInfo &info) {
  constexpr size_t headerBytes = 16;
  if (limit && limit < headerBytes) {
    info.problem = "truncated fatbin container";
    return;
  }
  uint16_t headerSize;
  uint64_t size;
  std::memcpy(&headerSize, data + 6, sizeof headerSize);
  std::memcpy(&size, data + 8, sizeof size);
  uint64_t total = uint64_t(headerSize) + size;
  if (limit && total > limit) {
    info.problem = "fatbin container larger than the image";
    return;
  }
  info.span = std::string_view(data, total);
}

void extractContainer(ImageInfo &info) {
  fatbin::Container container;
  if (auto err = fatbin::readContainer(info.span, 0, container)) {
    info.problem = err->message;
    return;
  }
  int sel = container.selectedPTX();
  if (sel < 0) {
    info.problem = "no PTX in the fatbin";
    info.containerSha256 = cache::Sha256::hex(info.span);
    return;
  }
  if (auto err = fatbin::extractPayload(container.entries[sel], info.ptx)) {
    info.problem = err->message;
    info.ptx.clear();
    return;
  }
  info.hasPTX = true;
}

bool looksLikePTX(std::string_view text) {
  // PTX starts with comments, blank lines or directives.
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string_view::npos)
    return false;
  return text[i] == '/' || text[i] == '.';
}

} // namespace

const char *zluda::shim::imageKindName(ImageKind kind) {
  switch (kind) {
  case ImageKind::wrapper:
    return "fatbin-wrapper";
  case ImageKind::container:
    return "fatbin";
  case ImageKind::ptx:
    return "ptx";
  case ImageKind::elf:
    return "cubin";
  case ImageKind::unknown:
    break;
  }
  return "unknown";
}

ImageInfo zluda::shim::locateImage(const void *image, size_t size) {
  ImageInfo info;
  if (!image || (size && size < 4)) {
    info.problem = "empty image";
    return info;
  }
  const char *p = static_cast<const char *>(image);
  uint32_t magic = load32(p);
  if (magic == fatbin::kWrapperMagic) {
    info.kind = ImageKind::wrapper;
    // struct { int magic; int version; const void *data; void *filename; }
    const void *data;
    std::memcpy(&data, p + 8, sizeof data);
    if (!data || load32(data) != fatbin::kContainerMagic) {
      info.problem = "fatbin wrapper without a container";
      return info;
    }
    locateContainerAt(static_cast<const char *>(data), 0, info);
    return info;
  }
  if (magic == fatbin::kContainerMagic) {
    info.kind = ImageKind::container;
    locateContainerAt(p, size, info);
    return info;
  }
  if (std::memcmp(p,
                  "\x7f"
                  "ELF",
                  4) == 0) {
    info.kind = ImageKind::elf;
    info.problem = "a cubin holds no PTX";
    return info;
  }
  std::string_view text =
      size ? std::string_view(p, strnlen(p, size)) : std::string_view(p);
  if (looksLikePTX(text)) {
    info.kind = ImageKind::ptx;
    info.span = text;
    return info;
  }
  info.problem = "not a fatbin, PTX or ELF image";
  return info;
}

void zluda::shim::extractModule(ImageInfo &info) {
  if (!info.problem.empty() || info.hasPTX)
    return;
  if (info.kind == ImageKind::ptx) {
    info.ptx = std::string(info.span);
    info.hasPTX = true;
  } else if (info.kind == ImageKind::wrapper ||
             info.kind == ImageKind::container) {
    extractContainer(info);
  }
}

ImageInfo zluda::shim::readImage(const void *image, size_t size) {
  ImageInfo info = locateImage(image, size);
  extractModule(info);
  return info;
}

bool zluda::shim::rebuildExtra(void **extra, std::vector<void *> &out) {
  out.clear();
  void *buffer = nullptr, *size = nullptr;
  for (size_t i = 0; extra && extra[i] != (void *)CU_LAUNCH_PARAM_END; i += 2) {
    uintptr_t tag = reinterpret_cast<uintptr_t>(extra[i]);
    if (tag == CU_LAUNCH_PARAM_BUFFER_POINTER)
      buffer = extra[i + 1];
    else if (tag == CU_LAUNCH_PARAM_BUFFER_SIZE)
      size = extra[i + 1];
    else
      return false;
  }
  if (!buffer || !size)
    return false;
  constexpr uintptr_t hipBuffer = 0x1, hipSize = 0x2, hipEnd = 0x3;
  out = {reinterpret_cast<void *>(hipBuffer), buffer,
         reinterpret_cast<void *>(hipSize), size,
         reinterpret_cast<void *>(hipEnd)};
  return true;
}
