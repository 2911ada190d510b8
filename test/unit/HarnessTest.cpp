//===- HarnessTest.cpp - host side of the differential harness ------------===//
//
// The oracle runs on the GPU machine; its host logic (manifest, inputs,
// comparison) is tested here, in CI, without a GPU.

#include "test/verify/HarnessLogic.h"

#include <catch2/catch.hpp>

#include <set>
#include <sstream>

TEST_CASE("the harness reads every case of a manifest", "[harness]") {
  std::istringstream in("add_s32\n\nneg_s32 suite=instructions exhaustive\n"
                        "shfl_up suite=warp-block\n"
                        "dyn_shared suite=memory-calls shared=16384\n");
  CHECK(
      harness::readManifest(in) ==
      std::vector<harness::Case>{{"add_s32", false, "instructions"},
                                 {"neg_s32", true, "instructions"},
                                 {"shfl_up", false, "warp-block"},
                                 {"dyn_shared", false, "memory-calls", 16384}});
}

TEST_CASE("exhaustive sweeps cover all 2^32 values of a in chunks",
          "[harness]") {
  for (uint64_t chunk : {uint64_t(1) << 24, uint64_t(3) << 28}) {
    auto cs = harness::chunks(chunk);
    uint64_t next = 0;
    for (auto [base, size] : cs) {
      CHECK(base == next);
      CHECK(size > 0);
      CHECK(size <= chunk);
      next = base + size;
    }
    CHECK(next == uint64_t(1) << 32);
  }
  CHECK(harness::chunks(uint64_t(1) << 24).size() == 256);
  CHECK(harness::describe(1, 2, 3, 4, 5) ==
        "a=00000001 b=00000002 c=00000003: nvidia=0000000000000004 "
        "ours=0000000000000005");
}

TEST_CASE("the harness inputs cover every edge triple, then random values",
          "[harness]") {
  size_t grid = harness::gridSize();
  size_t k = harness::edges().size();
  CHECK(grid == k * k * k);
  std::vector<uint32_t> a, b, c;
  harness::makeInputs("add_s32", grid + 1000, a, b, c);
  REQUIRE(a.size() == grid + 1000);
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> triples;
  for (size_t i = 0; i < grid; ++i)
    triples.emplace(a[i], b[i], c[i]);
  // Duplicated edge values (0x80000001 stands twice) collapse.
  std::set<uint32_t> distinct(harness::edges().begin(), harness::edges().end());
  CHECK(triples.size() == distinct.size() * distinct.size() * distinct.size());
  // NaN payloads, denormals, infinities and integer limits are there.
  for (uint32_t v : {0x7fc12345u, 0x007fffffu, 0xff800000u, 0x80000000u})
    CHECK(distinct.count(v));
  // Deterministic per case name, different across names.
  std::vector<uint32_t> a2, b2, c2, a3, b3, c3;
  harness::makeInputs("add_s32", grid + 1000, a2, b2, c2);
  harness::makeInputs("sub_s32", grid + 1000, a3, b3, c3);
  CHECK(a == a2);
  CHECK(b == b2);
  CHECK(std::vector<uint32_t>(a.begin() + grid, a.end()) !=
        std::vector<uint32_t>(a3.begin() + grid, a3.end()));
}

TEST_CASE("the harness compares outputs bit for bit", "[harness]") {
  std::vector<uint32_t> a = {1, 2, 3}, b = {4, 5, 6}, c = {7, 8, 9};
  std::vector<uint64_t> nvidia = {0x7fffffff, 0x0, 0x80000000};
  CHECK(harness::compare(a, b, c, nvidia, nvidia).mismatches == 0);
  // A NaN with another payload, and -0 against +0, are mismatches.
  std::vector<uint64_t> ours = {0x7fc00000, 0x0, 0x0};
  harness::Comparison r = harness::compare(a, b, c, nvidia, ours);
  CHECK(r.mismatches == 2);
  CHECK(r.first == "a=00000001 b=00000004 c=00000007: nvidia=000000007fffffff "
                   "ours=000000007fc00000");
}
