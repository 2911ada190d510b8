//===- HarnessLogic.h - host side of the differential harness ---*- C++ -*-===//
//
// What the harness (harness.cpp, built by nvcc on the GPU machine) does on
// the host, without CUDA, so that CI tests it (test/unit/HarnessTest.cpp):
// the manifest, the inputs of a case (which the GPU generates the same way),
// the chunks of a sweep, how a mismatch is shown.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_TEST_VERIFY_HARNESSLOGIC_H
#define ZLUDA_TEST_VERIFY_HARNESSLOGIC_H

#include "compiler/Cache/Sha256.h"

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace harness {

/// Edge values: integers around limits and shift widths; floats at
/// denormals, normal limits, rounding boundaries, infinities and NaNs with
/// payloads.
constexpr uint32_t kEdges[] = {
    0,          1,          2,          3,          31,         32,
    33,         63,         64,         0x7f,       0x80,       0xff,
    0x100,      0x7fff,     0x8000,     0xffff,     0x10000,    0x7fffffff,
    0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff0, 12345,
    0xffffcfc7, 0x007fffff, 0x807fffff, 0x80000001, 0x000116c2, 0x00800000,
    0x80800000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000,
    0xc0200000, 0x40600000, 0x3effffff, 0x3f7fffff, 0x4b000000, 0x4f000000,
    0xcf000000, 0x4f800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345};
constexpr uint64_t kEdgeCount = sizeof kEdges / sizeof kEdges[0];

inline const std::vector<uint32_t> &edges() {
  static const std::vector<uint32_t> values(std::begin(kEdges),
                                            std::end(kEdges));
  return values;
}

/// Every triple of edge values comes first.
constexpr size_t gridSize() { return kEdgeCount * kEdgeCount * kEdgeCount; }

/// A case of the manifest: a family, and whether it is unary (its output
/// depends on a alone), to be run over all 2^32 values of a.
struct Case {
  std::string name;
  bool exhaustive = false;
  std::string suite = "instructions";
  unsigned sharedBytes = 0; ///< dynamic shared memory per block
  bool operator==(const Case &o) const {
    return name == o.name && exhaustive == o.exhaustive && suite == o.suite &&
           sharedBytes == o.sharedBytes;
  }
};

/// The cases of a manifest: one a line, `name [suite=S] [exhaustive]
/// [shared=BYTES]`, blank lines skipped.
inline std::vector<Case> readManifest(std::istream &in) {
  std::vector<Case> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    Case c;
    if (!(words >> c.name))
      continue;
    for (std::string w; words >> w;) {
      if (w == "exhaustive")
        c.exhaustive = true;
      else if (w.rfind("suite=", 0) == 0)
        c.suite = w.substr(6);
      else if (w.rfind("shared=", 0) == 0)
        c.sharedBytes = static_cast<unsigned>(std::stoul(w.substr(7)));
    }
    cases.push_back(c);
  }
  return cases;
}

/// The seed of a case's random inputs, from its name (the same on every
/// run and machine).
inline uint64_t seedOf(const std::string &name) {
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (char ch : name)
    seed = seed * 1099511628211ull + static_cast<unsigned char>(ch);
  return seed;
}

constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct Inputs {
  uint32_t a, b, c;
};

/// Input `i` of a case: the edge-value grid (`edges`, `count` of them)
/// first, then random values from a counter-based generator, so that the
/// GPU makes the same inputs as this (the harness's kernels call it with
/// the edges in constant memory).
constexpr Inputs inputAt(const uint32_t *edges, uint64_t count, uint64_t seed,
                         uint64_t i) {
  if (i < count * count * count)
    return {edges[i / (count * count)], edges[(i / count) % count],
            edges[i % count]};
  uint64_t x = splitmix64(seed + 2 * i), y = splitmix64(seed + 2 * i + 1);
  return {static_cast<uint32_t>(x), static_cast<uint32_t>(x >> 32),
          static_cast<uint32_t>(y)};
}

/// The first `n` inputs of case `name`, on the host.
inline void makeInputs(const std::string &name, size_t n,
                       std::vector<uint32_t> &a, std::vector<uint32_t> &b,
                       std::vector<uint32_t> &c) {
  uint64_t seed = seedOf(name);
  a.resize(n);
  b.resize(n);
  c.resize(n);
  for (size_t i = 0; i < n; ++i) {
    Inputs v = inputAt(kEdges, kEdgeCount, seed, i);
    a[i] = v.a;
    b[i] = v.b;
    c[i] = v.c;
  }
}

/// One mismatching input and both outputs, as the table prints it.
inline std::string describe(uint32_t a, uint32_t b, uint32_t c, uint64_t nvidia,
                            uint64_t ours) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "a=%08x b=%08x c=%08x: nvidia=%016" PRIx64 " ours=%016" PRIx64,
                a, b, c, nvidia, ours);
  return buf;
}

/// The chunks of a sweep over `total` inputs: [base, base + size), `chunk`
/// at a time (the last one shorter if need be).
inline std::vector<std::pair<uint64_t, uint64_t>> chunks(uint64_t total,
                                                         uint64_t chunk) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (uint64_t base = 0; base < total; base += chunk)
    r.emplace_back(base, std::min(chunk, total - base));
  return r;
}

// ---------------------------------------------------------------------------
// Record mode (harness --record): NVIDIA's outputs on a fixed sample of a
// case's inputs, kept for the AMD ISA emulator (test/emu/run-sweeps.py), which
// reproduces the same inputs and compares digests of the same chunks.

/// Inputs a record digests at a time (one block of the launch).
constexpr uint64_t kRecordChunk = 256;
/// Inputs recorded of a case that is not exhaustive: the first ones in the
/// harness's order, i.e. the whole edge-value grid (140,608) and the random
/// tuples after it, to 806 whole blocks (65,728 random tuples).
constexpr uint64_t kRecordInputs = 806 * kRecordChunk;
/// Inputs recorded of an exhaustive (unary) case: a = j * 0x10001 for
/// j < 65536 (every 16-bit value in both halves: all of a 16-bit family's
/// inputs, both lanes of a packed one, every sign/exponent/top-mantissa
/// pattern of a 32-bit one), then one block of the edge values and random
/// values of a. All of them are inputs of the harness's 2^32 sweep (b = c = 0).
constexpr uint64_t kRecordExhaustive = 65536 + kRecordChunk;

/// Input `j` of the record sample of an exhaustive case.
constexpr Inputs recordExhaustiveAt(uint64_t seed, uint64_t j) {
  if (j < 65536)
    return {static_cast<uint32_t>(j * 0x10001u), 0, 0};
  uint64_t k = j - 65536;
  if (k < kEdgeCount)
    return {kEdges[k], 0, 0};
  return {static_cast<uint32_t>(splitmix64(seed + j)), 0, 0};
}

/// Input `j` of the record sample of a case (`exhaustive` or not).
constexpr Inputs recordInputAt(bool exhaustive, uint64_t seed, uint64_t j) {
  return exhaustive ? recordExhaustiveAt(seed, j)
                    : inputAt(kEdges, kEdgeCount, seed, j);
}

/// The chunks whose outputs a record keeps as they are (to show the first
/// mismatching input there with both values): the first one, and the first
/// of random tuples (not exhaustive) or of the edge values (exhaustive).
inline std::vector<uint64_t> rawChunks(bool exhaustive) {
  return {0, exhaustive ? 65536 / kRecordChunk
                        : (gridSize() + kRecordChunk - 1) / kRecordChunk};
}

/// SHA-256 (FIPS 180-4) of `n` bytes (the cache's implementation).
inline std::vector<uint8_t> sha256(const uint8_t *data, size_t n) {
  zluda::cache::Sha256 s;
  s.update(std::string_view(reinterpret_cast<const char *>(data), n));
  std::array<uint8_t, 32> d = s.finish();
  return std::vector<uint8_t>(d.begin(), d.end());
}

/// Lower-case hex of bytes.
inline std::string hex(const uint8_t *data, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    s.push_back(digits[data[i] >> 4]);
    s.push_back(digits[data[i] & 15]);
  }
  return s;
}

/// The digests of a record: for each chunk of kRecordChunk outputs (64-bit,
/// little-endian; the last chunk shorter if need be), the first 8 bytes of
/// the SHA-256 of its bytes, as 16 hex digits, concatenated.
inline std::string chunkDigests(const std::vector<uint64_t> &outputs) {
  std::string s;
  for (auto [base, size] : chunks(outputs.size(), kRecordChunk)) {
    std::vector<uint8_t> bytes(size * 8);
    for (uint64_t i = 0; i < size; ++i)
      for (int j = 0; j < 8; ++j)
        bytes[i * 8 + j] = static_cast<uint8_t>(outputs[base + i] >> (8 * j));
    std::vector<uint8_t> d = sha256(bytes.data(), bytes.size());
    s += hex(d.data(), 8);
  }
  return s;
}

/// Outputs (or inputs) as hex: each value little-endian in `width` bytes
/// (4: the low words only), concatenated.
inline std::string valuesHex(const std::vector<uint64_t> &values, size_t from,
                             size_t count, int width) {
  std::vector<uint8_t> bytes;
  bytes.reserve(count * width);
  for (size_t i = from; i < from + count && i < values.size(); ++i)
    for (int j = 0; j < width; ++j)
      bytes.push_back(static_cast<uint8_t>(values[i] >> (8 * j)));
  return hex(bytes.data(), bytes.size());
}

/// Whether a case's outputs are compared within a tolerance (the PTX ISA's
/// bound for a .approx instruction) rather than bit for bit: the record
/// keeps all of its outputs then.
inline bool isApprox(const std::string &name) {
  return name.find("_approx") != std::string::npos;
}

/// The first 8 bytes of the SHA-256 of a record's inputs (a, b, c of each
/// input, 32-bit little-endian, in order), as hex: the emulator side checks
/// that it reproduced them.
inline std::string inputsDigest(const std::vector<uint32_t> &a,
                                const std::vector<uint32_t> &b,
                                const std::vector<uint32_t> &c) {
  std::vector<uint8_t> bytes;
  bytes.reserve(a.size() * 12);
  for (size_t i = 0; i < a.size(); ++i)
    for (uint32_t v : {a[i], b[i], c[i]})
      for (int j = 0; j < 4; ++j)
        bytes.push_back(static_cast<uint8_t>(v >> (8 * j)));
  std::vector<uint8_t> d = sha256(bytes.data(), bytes.size());
  return hex(d.data(), 8);
}

} // namespace harness

#endif // ZLUDA_TEST_VERIFY_HARNESSLOGIC_H
