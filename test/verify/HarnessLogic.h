//===- HarnessLogic.h - host side of the differential harness ---*- C++ -*-===//
//
// What the harness (harness.cpp, built by nvcc on the GPU machine) does on
// the host, without CUDA, so that CI tests it (test/unit/HarnessTest.cpp):
// the manifest, the inputs of a case, the bit-for-bit comparison.
//
//===----------------------------------------------------------------------===//

#ifndef ZLUDA_TEST_VERIFY_HARNESSLOGIC_H
#define ZLUDA_TEST_VERIFY_HARNESSLOGIC_H

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace harness {

/// Edge values: integers around limits and shift widths; floats at
/// denormals, normal limits, rounding boundaries, infinities and NaNs with
/// payloads.
inline const std::vector<uint32_t> &edges() {
  static const std::vector<uint32_t> values = {
      0,          1,          2,          3,          31,         32,
      33,         63,         64,         0x7f,       0x80,       0xff,
      0x100,      0x7fff,     0x8000,     0xffff,     0x10000,    0x7fffffff,
      0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xfffffff0, 12345,
      0xffffcfc7, 0x007fffff, 0x807fffff, 0x80000001, 0x000116c2, 0x00800000,
      0x80800000, 0x3f800000, 0xbf800000, 0x3f000000, 0x3fc00000, 0x40200000,
      0xc0200000, 0x40600000, 0x3effffff, 0x3f7fffff, 0x4b000000, 0x4f000000,
      0xcf000000, 0x4f800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
      0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc12345};
  return values;
}

/// Every triple of edge values comes first.
inline size_t gridSize() {
  size_t e = edges().size();
  return e * e * e;
}

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

inline uint64_t xorshift(uint64_t &s) {
  s ^= s << 13;
  s ^= s >> 7;
  s ^= s << 17;
  return s;
}

/// The inputs of case `name`: the edge-value grid, then random values from
/// a seed derived from the name (the same on every run and machine).
inline void makeInputs(const std::string &name, size_t n,
                       std::vector<uint32_t> &a, std::vector<uint32_t> &b,
                       std::vector<uint32_t> &c) {
  const std::vector<uint32_t> &e = edges();
  size_t k = e.size(), grid = gridSize();
  a.resize(n);
  b.resize(n);
  c.resize(n);
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  for (char ch : name)
    seed = seed * 1099511628211ull + static_cast<unsigned char>(ch);
  for (size_t i = 0; i < n; ++i) {
    if (i < grid) {
      a[i] = e[i / (k * k)];
      b[i] = e[(i / k) % k];
      c[i] = e[i % k];
    } else {
      uint64_t x = xorshift(seed), y = xorshift(seed);
      a[i] = static_cast<uint32_t>(x);
      b[i] = static_cast<uint32_t>(x >> 32);
      c[i] = static_cast<uint32_t>(y);
    }
  }
}

struct Comparison {
  size_t mismatches = 0;
  std::string first; ///< the first mismatching input and both outputs
};

/// One mismatching input and both outputs, as the table prints it.
inline std::string describe(uint32_t a, uint32_t b, uint32_t c, uint64_t nvidia,
                            uint64_t ours) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "a=%08x b=%08x c=%08x: nvidia=%016" PRIx64 " ours=%016" PRIx64,
                a, b, c, nvidia, ours);
  return buf;
}

/// The chunks of an exhaustive sweep: [base, base + size) covering all 2^32
/// values of a, `chunk` at a time (the last one shorter if need be).
inline std::vector<std::pair<uint64_t, uint64_t>> chunks(uint64_t chunk) {
  std::vector<std::pair<uint64_t, uint64_t>> r;
  const uint64_t all = uint64_t(1) << 32;
  for (uint64_t base = 0; base < all; base += chunk)
    r.emplace_back(base, std::min(chunk, all - base));
  return r;
}

/// Bit-for-bit comparison of NVIDIA's outputs with ours.
inline Comparison compare(const std::vector<uint32_t> &a,
                          const std::vector<uint32_t> &b,
                          const std::vector<uint32_t> &c,
                          const std::vector<uint64_t> &nvidia,
                          const std::vector<uint64_t> &ours) {
  Comparison r;
  for (size_t i = 0; i < nvidia.size() && i < ours.size(); ++i) {
    if (nvidia[i] == ours[i])
      continue;
    if (r.mismatches++ == 0)
      r.first = describe(a[i], b[i], c[i], nvidia[i], ours[i]);
  }
  return r;
}

} // namespace harness

#endif // ZLUDA_TEST_VERIFY_HARNESSLOGIC_H
