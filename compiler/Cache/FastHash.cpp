//===- FastHash.cpp - XXH3-128 for checksums and the image index ----------===//

#include "compiler/Cache/FastHash.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <memory>

std::string zluda::cache::xxh128Hex(std::string_view first,
                                    std::string_view second) {
  XXH128_hash_t h;
  if (second.empty()) {
    h = XXH3_128bits(first.data(), first.size());
  } else {
    std::unique_ptr<XXH3_state_t, XXH_errorcode (*)(XXH3_state_t *)> state(
        XXH3_createState(), XXH3_freeState);
    XXH3_128bits_reset(state.get());
    XXH3_128bits_update(state.get(), first.data(), first.size());
    XXH3_128bits_update(state.get(), second.data(), second.size());
    h = XXH3_128bits_digest(state.get());
  }
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, h);
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(2 * sizeof canonical.digest, '0');
  for (size_t i = 0; i < sizeof canonical.digest; ++i) {
    out[2 * i] = digits[canonical.digest[i] >> 4];
    out[2 * i + 1] = digits[canonical.digest[i] & 15];
  }
  return out;
}
