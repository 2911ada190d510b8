//===- Sha256.cpp - SHA-256 (FIPS 180-4) ----------------------------------===//

#include "compiler/Cache/Sha256.h"

#include <algorithm>
#include <atomic>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace zluda::cache;

namespace {

constexpr uint32_t roundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ZLUDA_SHA256_SHANI 1
/// `blocks` 64-byte blocks at `p` with the x86 SHA extensions (the shim
/// hashes every PTX module it is given: ~9 ms a MB portably, ~0.5 with
/// these). The instructions keep the state as (A,B,E,F) and (C,D,G,H) and
/// do two rounds each; the message schedule is theirs too.
__attribute__((target("sha,sse4.1"))) void
compressShaNi(std::array<uint32_t, 8> &h, const uint8_t *p, size_t blocks) {
  const __m128i byteSwap =
      _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&h[0]));
  __m128i hgfe = _mm_loadu_si128(reinterpret_cast<const __m128i *>(&h[4]));
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
  for (; blocks; --blocks, p += 64) {
    __m128i savedAbef = abef, savedCdgh = cdgh;
    __m128i w[4]; // the schedule's last 16 words, 4 a vector
    for (int i = 0; i < 16; ++i) {
      __m128i words;
      if (i < 4) {
        words = _mm_shuffle_epi8(
            _mm_loadu_si128(reinterpret_cast<const __m128i *>(p + 16 * i)),
            byteSwap);
      } else {
        // w[t] = s1(w[t-2]) + w[t-7] + s0(w[t-15]) + w[t-16].
        __m128i last = w[(i + 3) % 4];
        words = _mm_sha256msg1_epu32(w[i % 4], w[(i + 1) % 4]);
        words = _mm_add_epi32(words, _mm_alignr_epi8(last, w[(i + 2) % 4], 4));
        words = _mm_sha256msg2_epu32(words, last);
      }
      w[i % 4] = words;
      __m128i k = _mm_add_epi32(
          words, _mm_loadu_si128(reinterpret_cast<const __m128i *>(
                     &roundConstants[4 * i])));
      // Two rounds each: the first leaves the new (A,B,E,F) in `cdgh` and
      // the old one is the new (C,D,G,H); the second swaps them back.
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(k, 0x0E));
    }
    abef = _mm_add_epi32(abef, savedAbef);
    cdgh = _mm_add_epi32(cdgh, savedCdgh);
  }
  __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&h[0]),
                   _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i *>(&h[4]),
                   _mm_alignr_epi8(dchg, feba, 8));
}

#endif

std::atomic<bool> portableOnly{false};

bool hasShaNi() {
#ifdef ZLUDA_SHA256_SHANI
  static const bool yes = __builtin_cpu_supports("sha");
  return yes && !portableOnly.load(std::memory_order_relaxed);
#else
  return false;
#endif
}

} // namespace

Sha256::Sha256()
    : h{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19} {}

bool Sha256::accelerated() { return hasShaNi(); }

void Sha256::setPortableOnly(bool yes) { portableOnly = yes; }

void Sha256::block(const uint8_t *p) { blocks(p, 1); }

void Sha256::blocks(const uint8_t *p, size_t n) {
#ifdef ZLUDA_SHA256_SHANI
  if (hasShaNi()) {
    compressShaNi(h, p, n);
    return;
  }
#endif
  for (; n; --n, p += 64)
    portableBlock(p);
}

void Sha256::portableBlock(const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i)
    w[i] = uint32_t(p[4 * i]) << 24 | uint32_t(p[4 * i + 1]) << 16 |
           uint32_t(p[4 * i + 2]) << 8 | uint32_t(p[4 * i + 3]);
  for (int i = 16; i < 64; ++i) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6],
           k = h[7];
  for (int i = 0; i < 64; ++i) {
    uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    uint32_t choice = (e & f) ^ (~e & g);
    uint32_t t1 = k + s1 + choice + roundConstants[i] + w[i];
    uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    uint32_t t2 = s0 + majority;
    k = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += k;
}

void Sha256::update(std::string_view data) {
  const auto *p = reinterpret_cast<const uint8_t *>(data.data());
  size_t n = data.size();
  length += n;
  if (buffered) {
    size_t take = std::min(n, buffer.size() - buffered);
    std::copy(p, p + take, buffer.begin() + buffered);
    buffered += take;
    p += take;
    n -= take;
    if (buffered < buffer.size())
      return;
    block(buffer.data());
    buffered = 0;
  }
  blocks(p, n / 64);
  p += n / 64 * 64;
  n %= 64;
  std::copy(p, p + n, buffer.begin());
  buffered = n;
}

std::array<uint8_t, 32> Sha256::finish() {
  uint64_t bits = length * 8;
  buffer[buffered++] = 0x80;
  if (buffered > 56) {
    std::fill(buffer.begin() + buffered, buffer.end(), 0);
    block(buffer.data());
    buffered = 0;
  }
  std::fill(buffer.begin() + buffered, buffer.begin() + 56, 0);
  for (int i = 0; i < 8; ++i)
    buffer[56 + i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
  block(buffer.data());
  std::array<uint8_t, 32> out;
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j)
      out[4 * i + j] = static_cast<uint8_t>(h[i] >> (24 - 8 * j));
  return out;
}

std::string Sha256::toHex(const std::array<uint8_t, 32> &digest) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t byte : digest) {
    s.push_back(digits[byte >> 4]);
    s.push_back(digits[byte & 15]);
  }
  return s;
}

std::string Sha256::hex(std::string_view data) {
  Sha256 sha;
  sha.update(data);
  return toHex(sha.finish());
}
