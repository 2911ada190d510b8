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
    auto cs = harness::chunks(uint64_t(1) << 32, chunk);
    uint64_t next = 0;
    for (auto [base, size] : cs) {
      CHECK(base == next);
      CHECK(size > 0);
      CHECK(size <= chunk);
      next = base + size;
    }
    CHECK(next == uint64_t(1) << 32);
  }
  CHECK(harness::chunks(uint64_t(1) << 32, uint64_t(1) << 24).size() == 256);
  // A random sweep's last chunk is what is left.
  auto cs = harness::chunks(16972544, uint64_t(1) << 24);
  REQUIRE(cs.size() == 2);
  CHECK(cs[1].first == uint64_t(1) << 24);
  CHECK(cs[1].second == 195328);
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

TEST_CASE("the harness's inputs come from a counter, as on the GPU",
          "[harness]") {
  // What the GPU computes for input i is what the host computes.
  uint64_t seed = harness::seedOf("add_s32");
  std::vector<uint32_t> a, b, c;
  size_t grid = harness::gridSize();
  harness::makeInputs("add_s32", grid + 10, a, b, c);
  for (size_t i : {size_t(0), size_t(1), grid - 1, grid, grid + 9}) {
    harness::Inputs v =
        harness::inputAt(harness::kEdges, harness::kEdgeCount, seed, i);
    CHECK(v.a == a[i]);
    CHECK(v.b == b[i]);
    CHECK(v.c == c[i]);
  }
  // Any input can be made alone (the first mismatch of a chunk is shown
  // from its index), and random inputs differ from one index to the next.
  static_assert(
      harness::inputAt(harness::kEdges, harness::kEdgeCount, 1, 0).a ==
      harness::kEdges[0]);
  harness::Inputs x = harness::inputAt(harness::kEdges, harness::kEdgeCount,
                                       seed, uint64_t(1) << 30);
  harness::Inputs y = harness::inputAt(harness::kEdges, harness::kEdgeCount,
                                       seed, (uint64_t(1) << 30) + 1);
  CHECK((x.a != y.a || x.b != y.b || x.c != y.c));
}

TEST_CASE("record mode: the sample, the digests, SHA-256", "[harness]") {
  // FIPS 180-4's examples.
  const uint8_t abc[] = {'a', 'b', 'c'};
  auto d = harness::sha256(abc, 3);
  CHECK(harness::hex(d.data(), d.size()) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  d = harness::sha256(reinterpret_cast<const uint8_t *>(two.data()),
                      two.size());
  CHECK(harness::hex(d.data(), d.size()) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Not exhaustive: the harness's own first inputs, the whole edge grid
  // and random tuples after it, in whole blocks.
  CHECK(harness::kRecordInputs % harness::kRecordChunk == 0);
  CHECK(harness::kRecordInputs > harness::gridSize() + 65536);
  uint64_t seed = harness::seedOf("add_s32");
  for (uint64_t j : {uint64_t(0), uint64_t(140607), uint64_t(140608),
                     harness::kRecordInputs - 1}) {
    harness::Inputs r = harness::recordInputAt(false, seed, j);
    harness::Inputs h =
        harness::inputAt(harness::kEdges, harness::kEdgeCount, seed, j);
    CHECK((r.a == h.a && r.b == h.b && r.c == h.c));
  }
  // Exhaustive: every 16-bit value in both halves, then the edges; b = c = 0.
  std::set<uint32_t> lows, highs;
  for (uint64_t j = 0; j < 65536; ++j) {
    harness::Inputs r = harness::recordInputAt(true, seed, j);
    CHECK((r.b == 0 && r.c == 0));
    lows.insert(r.a & 0xffff);
    highs.insert(r.a >> 16);
  }
  CHECK(lows.size() == 65536);
  CHECK(highs.size() == 65536);
  for (uint64_t k = 0; k < harness::kEdgeCount; ++k)
    CHECK(harness::recordInputAt(true, seed, 65536 + k).a ==
          harness::kEdges[k]);
  // One digest of 16 hex digits a chunk; a change in any output changes its
  // chunk's digest only.
  std::vector<uint64_t> out(1000);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = harness::splitmix64(i);
  std::string before = harness::chunkDigests(out);
  CHECK(before.size() == 4 * 16);
  out[600] ^= uint64_t(1) << 63;
  std::string after = harness::chunkDigests(out);
  CHECK(before.substr(0, 32) == after.substr(0, 32));
  CHECK(before.substr(32, 16) != after.substr(32, 16));
  CHECK(before.substr(48) == after.substr(48));
  CHECK(harness::valuesHex({0x0102030405060708ull}, 0, 1, 8) ==
        "0807060504030201");
  CHECK(harness::valuesHex({0x0102030405060708ull}, 0, 1, 4) == "08070605");
  CHECK(harness::isApprox("sin_approx_ftz_f32"));
  CHECK(!harness::isApprox("sin_f32"));
}
