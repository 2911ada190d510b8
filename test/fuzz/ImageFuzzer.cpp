// libFuzzer target over the runtime shim's image reader: what an
// application hands cuModuleLoadData and friends, with its size known (a
// file, or a buffer of known size). A fatbin wrapper holds a pointer to its
// container, with no size: the shim trusts it as the CUDA driver does, so
// wrappers are not fuzzed (their container is, as a bare container).
#include "runtime-shim/Image.h"

#include "compiler/Cache/FastHash.h"
#include "compiler/Fatbin/Fatbin.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t magic = 0;
  if (size >= 4)
    std::memcpy(&magic, data, 4);
  if (magic == zluda::fatbin::kWrapperMagic)
    return 0;
  // An exact-size copy, so that any read past the image is caught.
  std::vector<uint8_t> image(data, data + size);
  zluda::shim::ImageInfo info =
      zluda::shim::readImage(size ? image.data() : nullptr, size);
  if (!info.hasPTX && info.problem.empty())
    std::abort(); // no PTX and no reason why
  // The bytes the image index is keyed by lie inside the image (hashing
  // them reads every one, under the sanitizers).
  if (!info.span.empty() &&
      (info.span.data() < reinterpret_cast<const char *>(image.data()) ||
       info.span.data() + info.span.size() >
           reinterpret_cast<const char *>(image.data()) + size))
    std::abort();
  (void)zluda::cache::xxh128Hex(info.span); // cache::imageIndexKey
  return 0;
}
